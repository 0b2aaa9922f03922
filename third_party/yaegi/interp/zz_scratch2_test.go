package interp_test

import (
	"os"
	"runtime/debug"
	"testing"
)

func TestScratchProg(t *testing.T) {
	debug.SetMaxStack(8 << 20)
	i, out := newIterInterp(t)
	b, _ := os.ReadFile(os.Getenv("PROG"))
	_, err := i.Eval(string(b))
	t.Log(err, out.String())
}
