package cellresult

import (
	"testing"

	"github.com/sbirtools/sbir-kernel/sandbox"
)

// TestCellErrorPositions: the position of an error is the cell's, from
// its message or its traceback, interpreted ("line 3, column 5") or
// compiled ("at line 3, in fib"); a frame of an earlier cell is not.
func TestCellErrorPositions(t *testing.T) {
	for _, tc := range []struct {
		name      string
		msg       string
		traceback []string
		line, col int
	}{
		{"message", "line 2, column 7: undefined: x", nil, 2, 7},
		{"interpreted frame", "boom", []string{"Panic: boom", "  at line 4, column 2, in f"}, 4, 2},
		{"compiled frame", "boom", []string{"Panic: boom", "  at line 2 of an earlier cell, in g", "  at line 5, in the cell"}, 5, 0},
		{"earlier cell's declaration", "in f, declared in an earlier cell (at 4:23 there): undefined: y", nil, 0, 0},
	} {
		e := newError(&sandbox.Result{ErrorName: sandbox.ClassPanic, ErrorMessage: tc.msg, Traceback: tc.traceback})
		if e == nil || e.Line != tc.line || e.Column != tc.col {
			t.Errorf("%s: %+v; want line %d, column %d", tc.name, e, tc.line, tc.col)
		}
	}
}
