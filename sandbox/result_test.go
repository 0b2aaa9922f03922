package sandbox

import (
	"errors"
	"slices"
	"testing"
)

func TestCellError(t *testing.T) {
	r := failed(ClassTimeout, "the cell exceeded the 1s time limit")
	err := r.Err()
	if !errors.Is(err, &CellError{Class: ClassTimeout}) || errors.Is(err, &CellError{Class: ClassPanic}) {
		t.Fatalf("errors.Is on %v", err)
	}
	var ce *CellError
	if !errors.As(err, &ce) || !slices.Equal(ce.Traceback, []string{"Timeout: the cell exceeded the 1s time limit"}) {
		t.Fatalf("errors.As: %#v", ce)
	}
	if (&Result{Success: true}).Err() != nil {
		t.Fatal("a successful cell has an error")
	}
}

// TestErrSaysTheSessionWasLost checks that the cause of a worker's death
// stays in ErrorMessage, and that Err, what a session's user sees, adds
// that the session's variables are gone.
func TestErrSaysTheSessionWasLost(t *testing.T) {
	r := failed(ClassMemoryError, "cell exceeded the 1 GiB heap limit")
	r.Restarted = true
	var ce *CellError
	if !errors.As(r.Err(), &ce) {
		t.Fatalf("Err() = %v", r.Err())
	}
	want := "cell exceeded the 1 GiB heap limit; " + SessionLost
	if ce.Message != want || !slices.Equal(ce.Traceback, []string{"MemoryError: " + want}) {
		t.Errorf("Err() = %q %q, want %q", ce.Message, ce.Traceback, want)
	}
	if r.ErrorMessage != "cell exceeded the 1 GiB heap limit" {
		t.Errorf("ErrorMessage = %q: changed by Err", r.ErrorMessage)
	}
}
