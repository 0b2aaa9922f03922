package worker_test

import (
	"strings"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/sandbox"
)

// TestCompilePanicIsCompileError: a panic inside the interpreter's
// compiler (here reflect.StructOf refusing two blank fields, which gc
// accepts) reaches the user as a CompileError naming the cell's line and
// column, with no Go stack, internal path or interpreter frame, and the
// worker carries on: in global type analysis, in a function's body, and
// at a cell's top level after other statements.
func TestCompilePanicIsCompileError(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a sandbox session")
	}
	ctx, s := startSession(t, 2*time.Minute, 20*time.Second)
	for _, c := range []struct{ name, code, at string }{
		{"type analysis", "type padded struct{ _ int; _ string }\nvar p padded", "line 2, column 5: "},
		{"function body", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tvar q struct{ _ int; _ bool }\n\tfmt.Println(q)\n}", "line 6, column 6: "},
		{"top level", "n := 2\nfmt.Println(n)\nvar r struct {\n\t_ int\n\t_ int\n}\nfmt.Println(r)", "line 3, column 5: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := s.Run(ctx, c.code, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Success || res.ErrorName != sandbox.ClassCompileError {
				t.Fatalf("got success=%v %s: %s; want a CompileError", res.Success, res.ErrorName, res.ErrorMessage)
			}
			want := c.at + "the interpreter cannot compile this ("
			if !strings.HasPrefix(res.ErrorMessage, want) {
				t.Errorf("message %q, want it to start with %q", res.ErrorMessage, want)
			}
			all := res.ErrorMessage + "\n" + strings.Join(res.Traceback, "\n") + "\n" + res.Stderr
			for _, bad := range []string{"goroutine ", ".go:", "yaegi", "/tmp", "panic:", "pre-order", "post-order"} {
				if strings.Contains(all, bad) {
					t.Errorf("the error shows %q:\n%s", bad, all)
				}
			}
			if res.Stdout != "" || res.Restarted {
				t.Errorf("stdout %q, restarted %v: want no output (nothing runs) and the same worker", res.Stdout, res.Restarted)
			}
		})
	}
	res, err := s.Run(ctx, `fmt.Println("still here")`, nil)
	if err != nil || !res.Success || res.Stdout != "still here\n" {
		t.Fatalf("the next cell: %+v, %v", res, err)
	}
}
