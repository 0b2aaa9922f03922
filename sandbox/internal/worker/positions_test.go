package worker

import "testing"

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
