package dataset

import (
	"fmt"
	"strings"
	"testing"
)

// TestOpenFileAcceptsConverterShapes converts CSVs of unusual but valid
// shapes and opens the result: the metadata check must accept every file
// the converter writes.
func TestOpenFileAcceptsConverterShapes(t *testing.T) {
	longName := strings.Repeat("N", 70000)
	manyExtra := func(n int) string {
		var h, r strings.Builder
		h.WriteString(bulkHeader)
		r.WriteString(row(minimalRow()))
		for i := range n {
			fmt.Fprintf(&h, ",Extra %d", i)
			r.WriteString(",")
		}
		return h.String() + "\n" + r.String() + "\n"
	}
	skipped := func(n int) string {
		var b strings.Builder
		b.WriteString(bulkHeader + "\n")
		for range n {
			b.WriteString("a,b\n")
		}
		return b.String()
	}
	gen := func(opts GenerateOptions) string { return string(generated(t, opts)) }
	tests := []struct{ name, csv string }{
		{"header only", bulkHeader + "\n"},
		{"header only no newline", bulkHeader},
		{"one row", bulkHeader + "\n" + row(minimalRow()) + "\n"},
		{"all rows skipped", skipped(3)},
		{"many skipped", skipped(5000)},
		{"all null row", bulkHeader + "\n" + row(map[string]string{}) + "\n"},
		{"empty quoted strings", bulkHeader + "\n" + row(with(minimalRow(), ColAbstract, `""`, ColCity, `""`)) + "\n"},
		{"300 extra columns all null", manyExtra(300)},
		{"long extra column name", bulkHeader + "," + longName + "\n" + row(minimalRow()) + ",x\n"},
		{"gen 0 rows", gen(GenerateOptions{Rows: 0, Seed: 1})},
		{"gen 1 row", gen(GenerateOptions{Rows: 1, Seed: 2})},
		{"gen 1 row legacy", gen(GenerateOptions{Rows: 1, Seed: 3, Shape: ShapeLegacy41})},
		{"gen 2000 rows seed 9", gen(GenerateOptions{Rows: 2000, Seed: 9})},
		{"gen 3001 legacy bom", gen(GenerateOptions{Rows: 3001, Seed: 11, Shape: ShapeLegacy41, BOM: true})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			convertString(t, tt.csv)
		})
	}
}
