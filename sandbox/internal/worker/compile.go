package worker

import (
	"context"
	"reflect"
	"strings"

	"github.com/traefik/yaegi/interp"

	"github.com/sbirtools/sbir-kernel/internal/textcut"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/cellprep"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/valuefmt"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/worker/assist"
)

// A cell is compiled whole before any of it runs, as a Go program that
// does not compile runs nothing (issue 27): its chunks are compiled in
// order (each sees what the ones before it declare), and when one fails,
// what the others declared is rolled back (yaegi patch 54), so the cell
// leaves no trace. When a chunk fails or ends the cell while running, the
// declarations of the chunks after it, which never ran, are rolled back
// too: their functions would have no code.

// chunkKind says how a compiled chunk runs.
type chunkKind int

const (
	runPlain  chunkKind = iota // statements or declarations, or an expression without a value
	runDirect                  // an expression that is not a call: its value is the evaluation's
	runShow                    // an expression through _sbir.Show: declare the catcher, then call it
)

// compiledChunk is one chunk of a cell, compiled.
type compiledChunk struct {
	ch   wire.Chunk
	kind chunkKind
	prog *interp.Program
	call *interp.Program // runShow: the call of the catcher
	// before is the state of the declarations before the chunk was
	// compiled, to roll back to when it does not run.
	before *interp.Checkpoint
}

// compileCell compiles every chunk of a cell. On failure it rolls back
// what the cell declared and returns the error and the failing chunk.
func (s *session) compileCell(ctx context.Context, chunks []wire.Chunk) ([]compiledChunk, int, error) {
	out := make([]compiledChunk, 0, len(chunks))
	for i, ch := range chunks {
		if strings.Contains(ch.Code, "func") {
			s.needForget = true
			s.showMethods = s.showMethods || declaresShowMethod(ch.Code)
		}
		cc, err := s.compileChunk(ctx, ch)
		if err != nil {
			if len(out) > 0 {
				s.in.Rollback(out[0].before)
			} else {
				s.in.Rollback(cc.before)
			}
			return nil, i, err
		}
		out = append(out, cc)
	}
	return out, 0, nil
}

// compileChunk compiles one chunk. The cell's last expression goes
// through _sbir.Show, which captures its values: it is declared as a
// function and then called (evaluated at top level, each cell's
// expression would add slots to yaegi's global frame, which every later
// evaluation copies, so a long session would slow down cell by cell). The
// header shares the first line with the cell's padding, so positions are
// unchanged. When that does not compile (a call of a function without
// results), the expression is a plain statement.
func (s *session) compileChunk(ctx context.Context, ch wire.Chunk) (compiledChunk, error) {
	cc := compiledChunk{ch: ch, before: s.in.Checkpoint()}
	var err error
	switch {
	case !ch.Expr:
		cc.prog, err = s.in.CompileWithContext(ctx, ch.Code)
	case ch.Direct && !s.showMethods:
		// Not a call: the value of the plain evaluation is the value.
		// (Once the session has types that show themselves, values go
		// through the catcher, which yaegi hands them to wrapped with
		// those methods.)
		cc.kind = runDirect
		cc.prog, err = s.in.CompileWithContext(ctx, ch.Code)
	default:
		cc.kind = runShow
		cc.prog, err = s.in.CompileWithContext(ctx, "func "+cellFunc+"() { "+cellprep.HelperPkg+".Show("+ch.Code+",\n)\n}")
		if err == nil {
			cc.call, err = s.in.CompileWithContext(ctx, cellFunc+"()")
			break
		}
		if ctx.Err() != nil {
			break
		}
		// No value (a call of a function without results): run it as is.
		s.in.Rollback(cc.before)
		cc.kind = runPlain
		cc.prog, err = s.in.CompileWithContext(ctx, ch.Code)
	}
	return cc, err
}

// runChunk runs a compiled chunk and returns the cell's value when the
// chunk is its last expression.
func (s *session) runChunk(ctx context.Context, cc compiledChunk) (map[string]any, error) {
	switch cc.kind {
	case runDirect:
		v, err := s.in.ExecuteWithContext(ctx, cc.prog)
		if err != nil || !v.IsValid() || !v.CanInterface() {
			return nil, err
		}
		// A value of a cell's defined type without methods held in an
		// interface is shown as itself (yaegi patch 204).
		v = interp.BareValues(v)
		return s.bundle(ctx, []any{v.Interface()})
	case runShow:
		if _, err := s.in.ExecuteWithContext(ctx, cc.prog); err != nil {
			return nil, err
		}
		shown.Store(nil)
		if _, err := s.in.ExecuteWithContext(ctx, cc.call); err != nil {
			return nil, err
		}
		vals := shown.Load()
		if cc.ch.Quiet || vals == nil {
			return nil, nil
		}
		bare := make([]any, len(*vals))
		for i, x := range *vals {
			bare[i] = x
			if b := interp.BareValues(reflect.ValueOf(x)); b.IsValid() && b.CanInterface() {
				bare[i] = b.Interface() // yaegi patch 204, as above
			}
		}
		return s.showBundle(ctx, cc.ch, bare)
	}
	_, err := s.in.ExecuteWithContext(ctx, cc.prog)
	return nil, err
}

// showBundle is the display bundle of a cell's last expression: CSV or
// JSON text made by a call such as ToCSV shows as that text, not as a
// quoted Go string.
func (s *session) showBundle(ctx context.Context, ch wire.Chunk, vals []any) (map[string]any, error) {
	b, err := s.bundle(ctx, vals)
	if text, ok := vals[0].(string); ok && err == nil && b != nil && len(vals) == 1 && assist.IsTextCall(ch.Code) {
		if len(text) > valuefmt.MaxBytes {
			text = textcut.Prefix(text, valuefmt.MaxBytes) + " …"
		}
		b["text/plain"] = strings.TrimSuffix(text, "\n")
	}
	return b, err
}
