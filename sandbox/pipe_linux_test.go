package sandbox

import (
	"testing"

	"golang.org/x/sys/unix"
)

// TestGrowPipe: the worker's response pipe gets the buffer asked for.
func TestGrowPipe(t *testing.T) {
	r, w, err := blockingPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	before, err := unix.FcntlInt(w.Fd(), unix.F_GETPIPE_SZ, 0)
	if err != nil {
		t.Fatal(err)
	}
	growPipe(w, responsePipeBytes)
	after, err := unix.FcntlInt(w.Fd(), unix.F_GETPIPE_SZ, 0)
	if err != nil {
		t.Fatal(err)
	}
	if after != responsePipeBytes {
		t.Errorf("pipe buffer %d bytes after growPipe (%d before), want %d", after, before, responsePipeBytes)
	}
}
