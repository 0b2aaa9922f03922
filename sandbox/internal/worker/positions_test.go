package worker

import (
	"errors"
	"testing"
)

func TestCellPositions(t *testing.T) {
	for in, want := range map[string]string{
		"_.go:3:5: undefined: x": "line 2, column 5: undefined: x",
		"2:1: panic":             "line 1, column 1: panic",
		"no position":            "no position",
	} {
		if got := cellPositions(in); got != want {
			t.Errorf("cellPositions(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCompilePanicMessage: a panic of the interpreter's compiler reads as
// a CompileError at the cell's line, whether yaegi named the stage (patch
// 72) or panicked with an error of its own, and without a position when
// it gave none.
func TestCompilePanicMessage(t *testing.T) {
	const tail = "): a limit of the interpreter, not an error in the code; rewrite the construct"
	for _, tc := range []struct {
		v    any
		want string
	}{
		{errors.New("_.go:3:5: global type analysis panic: reflect.StructOf: duplicate field X_"),
			"line 2, column 5: the interpreter cannot compile this (reflect.StructOf: duplicate field X_" + tail + " on that line another way"},
		{errors.New("_.go:7:2: CFG post-order panic: runtime error: index out of range [1] with length 1"),
			"line 6, column 2: the interpreter cannot compile this (runtime error: index out of range [1] with length 1" + tail + " on that line another way"},
		{errors.New("_.go:188:19: constant 18446744073709551615 overflows int64"),
			"line 187, column 19: the interpreter cannot compile this (constant 18446744073709551615 overflows int64" + tail + " on that line another way"},
		{"no position\nsecond line", "the interpreter cannot compile this (no position" + tail + " another way"},
	} {
		if got := compilePanicMessage(tc.v); got != tc.want {
			t.Errorf("compilePanicMessage(%q) =\n%q\nwant\n%q", tc.v, got, tc.want)
		}
	}
}
