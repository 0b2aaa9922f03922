package cellprep_test

import (
	"strings"
	"testing"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/cellprep"
)

// FuzzPrepare checks that checking and splitting any cell never panics and
// that the chunks keep every line of the cell where it was.
func FuzzPrepare(f *testing.F) {
	for _, s := range []string{
		"var y = 3; y", "for i := range 10 { fmt.Println(i) }", "import \"os\"",
		"func f() {}\nf()", "x := min(1, 2.5)\nclear(m)", "type T struct{ a T }",
		"for i := 0; i < 3; i++ {}", "if x := 1; x > 0 {}", "`raw\nstring`", "go f()",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		p, err := cellprep.Prepare(code, cellprep.NewState())
		if err != nil {
			return
		}
		for _, ch := range p.Chunks {
			if strings.Count(ch.Code, "\n") > strings.Count(code, "\n")+1 {
				t.Fatalf("chunk has more lines than the cell:\n%q\n%q", code, ch.Code)
			}
		}
		cellprep.IsComplete(code)
	})
}
