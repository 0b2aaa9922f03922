package dataset

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// wideArrowFile is an Arrow file arrow-go writes with the canonical
// columns, extra empty-named utf8 columns and no rows: about 150 bytes of
// file per column, the least a column takes.
func wideArrowFile(t *testing.T, extra int) []byte {
	t.Helper()
	_, base := convertString(t, bulkHeader+"\n")
	fields := base.Schema().Fields()[:len(canonical)]
	for range extra {
		fields = append(fields, arrow.Field{Name: "", Type: arrow.BinaryTypes.String, Nullable: true})
	}
	md := base.Schema().Metadata()
	schema := arrow.NewSchema(fields, &md)
	cols := make([]arrow.Array, len(fields))
	for i, f := range fields {
		cols[i] = array.MakeArrayOfNull(memory.DefaultAllocator, f.Type, 0)
		defer cols[i].Release()
	}
	rec := array.NewRecordBatch(schema, cols, 0)
	defer rec.Release()
	return arrowFile(t, schema, []arrow.RecordBatch{rec})
}

// TestOpenFileBoundsFields: arrow-go allocates ~2 KiB for each field of a
// file it opens, so a file of 50,000 empty columns (7.6 MB) made OpenFile
// allocate 99 MB (13x), past allocBound. The schema's width is bounded
// before arrow-go reads it; a file as wide as the converter writes opens.
func TestOpenFileBoundsFields(t *testing.T) {
	dir := t.TempDir()
	file := wideArrowFile(t, 50000)
	d, allocated, err := openDamaged(t, dir, file)
	if err == nil {
		d.Close()
		t.Fatalf("a schema of %d fields opened (allocating %d bytes for %d of file)", 50000+len(canonical), allocated, len(file))
	}
	if !errors.Is(err, ErrInvalidArrow) || !strings.Contains(err.Error(), "fields in the schema") {
		t.Errorf("error %q, want ErrInvalidArrow naming the number of fields", err)
	}
	if bound := allocBound(len(file)); allocated > bound {
		t.Errorf("rejecting the %d-byte file allocated %d bytes, more than %d", len(file), allocated, bound)
	}

	d, _, err = openDamaged(t, dir, wideArrowFile(t, maxCSVColumns-len(canonical)))
	if err != nil {
		t.Fatalf("a file of %d columns: %v", maxCSVColumns, err)
	}
	d.Close()
}

// TestConvertBoundsColumns: the converter refuses a header wider than
// maxCSVColumns, whose Arrow file OpenFile would refuse, and converts one
// exactly that wide.
func TestConvertBoundsColumns(t *testing.T) {
	csv := func(n int) string {
		h := bulkHeader + strings.Repeat(",x", n-len(canonical))
		return h + "\n" + row(minimalRow()) + strings.Repeat(",", n-len(canonical)) + "\n"
	}
	if _, err := Convert(context.Background(), strings.NewReader(csv(maxCSVColumns+1)), 0, io.Discard, ConvertOptions{}); !errors.Is(err, ErrNotAwardsCSV) || !strings.Contains(err.Error(), "1025 fields") {
		t.Errorf("a %d-field header: %v, want ErrNotAwardsCSV naming its width", maxCSVColumns+1, err)
	}
	rep, d := convertString(t, csv(maxCSVColumns))
	if rep.Columns != maxCSVColumns || d.NumRows() != 1 {
		t.Errorf("a %d-field header: %d columns, %d rows", maxCSVColumns, rep.Columns, d.NumRows())
	}
}
