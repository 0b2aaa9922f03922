// Package assist answers the worker's completion and inspect requests,
// and suggests the member a cell probably meant when it names one that
// does not exist. It follows types through method chains
// (award_data.GroupBy("Agency").Su) without running anything, offers the
// data's column names and category values inside award_data calls, reads
// the documentation of allowed packages from the allow-list's index and
// that of third-party packages from their source in the session's package
// environment, and remembers the methods cells declared.
//
// An Assistant is used from the worker's request loop only, never
// concurrently.
package assist

import (
	"reflect"

	"github.com/sbirtools/sbir-kernel/dataset"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// maxInspectText bounds a value's text in a short (detail 0) inspection.
const maxInspectText = 2000

// Session is what completion and inspection read from the worker's
// interpreter session.
type Session interface {
	// Value evaluates expr, a session variable's name or a selector from
	// one (x.Field, x.Method), bounded in time; false when it has no value.
	Value(expr string) (reflect.Value, bool)
	// Format returns the text v shows as a cell's value, formatted in
	// bounded time with its panics recovered (its String method may be
	// the cell's own), or why it could not be.
	Format(name string, v reflect.Value) (string, error)
	// Replacing reports that the worker is being replaced: a formatting
	// call never returned, and every variable of the session is lost.
	Replacing() bool
}

// Assistant answers completion and inspect requests for one worker.
type Assistant struct {
	sess    Session
	data    *dataset.Dataset // nil without data
	columns []string         // the data's column names
	// categories caches the values of dictionary columns for completion
	// (nil for a column that is not one).
	categories map[string][]string
	// methods are the exported methods cells declared, by name (see
	// noteMethods).
	methods  map[string][]cellMethod
	nMethods int
	src      *sourceDocs // third-party API, from the package environment's source
}

// New returns the assistant of a worker whose interpreter is sess, whose
// data (nil for none) has the columns, and whose package environment's
// root (GOPATH layout) is pkgDir ("" for none).
func New(sess Session, data *dataset.Dataset, columns []string, pkgDir string) *Assistant {
	return &Assistant{sess: sess, data: data, columns: columns, src: newSourceDocs(pkgDir)}
}

// NoteCell records what the chunks of a cell about to run declare that
// completion and inspection learn from: third-party imports and methods.
func (a *Assistant) NoteCell(chunks []wire.Chunk) {
	a.src.noteImports(chunks)
	a.noteMethods(chunks)
}
