package interp_test

import (
	"os"
	"strings"
	"testing"
)

func TestScratchCells(t *testing.T) {
	i, out := newIterInterp(t)
	b, _ := os.ReadFile(os.Getenv("CELLS"))
	for _, c := range strings.Split(string(b), "\n====\n") {
		_, err := i.Eval(c)
		t.Logf("chunk %q\n -> err=%v", c[:min(len(c), 60)], err)
	}
	t.Log(out.String())
}
