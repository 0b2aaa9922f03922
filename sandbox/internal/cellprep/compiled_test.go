package cellprep

import (
	"errors"
	"go/format"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// session runs cells through a State: interpreted ones are committed as
// if the interpreter ran them, the last is compiled and returned.
func compileAfter(t *testing.T, interpreted []string, compiled ...string) (*Program, error) {
	t.Helper()
	st := NewState()
	for _, c := range interpreted {
		p, err := Prepare(c, st)
		if err != nil {
			t.Fatalf("preparing %q: %v", c, err)
		}
		st.Commit(p)
	}
	var prog *Program
	for i, c := range compiled {
		p, err := Prepare(c, st)
		if err != nil {
			t.Fatalf("preparing %q: %v", c, err)
		}
		prog, err = Compile(p, st)
		if err != nil {
			if i == len(compiled)-1 {
				return nil, err
			}
			t.Fatalf("compiling %q: %v", c, err)
		}
		if i < len(compiled)-1 {
			st.CommitCompiled(prog)
		}
	}
	return prog, nil
}

// TestCompileGolden pins the programs compiled cells become: what is
// carried in from earlier cells, the imports added, the positions.
func TestCompileGolden(t *testing.T) {
	cases := []struct {
		name        string
		interpreted []string
		compiled    []string
	}{
		{"a statement and a value", nil, []string{"//sbir:compile\nn := 0\nfor i := range 10 { n += i }\nn * 2"}},
		{"a call whose value may be none", nil, []string{"//sbir:compile\nfmt.Println(\"x\")\nstrings.Repeat(\"ab\", 2)"}},
		{"whole program", nil, []string{"package main\n\nimport (\n\t\"fmt\"\n\tstr \"strings\"\n)\n\nfunc main() {\n\tfmt.Println(str.ToUpper(\"hi\"), award_data.Count())\n}\n"}},
		{"declarations carried from interpreted cells", []string{
			"import r \"math/rand/v2\"\nconst K = 3\ntype P struct{ X int }\nfunc (p P) Twice() int { return 2 * p.X }\nfunc unused() {}\nx := 5",
			"func roll() int { return r.IntN(K) }",
		}, []string{"//sbir:compile\nP{roll()}.Twice()"}},
		{"declarations of an earlier compiled cell", nil, []string{
			"//sbir:compile\nfunc fib(n int) int { if n < 2 { return n }; return fib(n-1) + fib(n-2) }\nfib(10)",
			"//sbir:compile\nfib(30)",
		}},
		{"a later declaration replaces an earlier one", []string{"func f() int { return 1 }", "func f() int { return 2 }"}, []string{"//sbir:compile\nf()"}},
		{"a local name shadows the session's", []string{"x := 1"}, []string{"//sbir:compile\nx := 2\nfunc g(x int) int { return x }\ng(x)"}},
		{"go statements count against the goroutine limit", []string{"func spawn(ch chan int) { go func() { ch <- 1 }() }"},
			[]string{"//sbir:compile\nch := make(chan int)\nspawn(ch)\nswitch {\ncase true: go spawn(ch)\n}\nagain:\n\tgo func() { ch <- len(\"go\") }() // go\nif len(ch) > 9 { goto again }\n<-ch + <-ch"}},
	}
	var b strings.Builder
	for _, c := range cases {
		b.WriteString("== " + c.name + "\n")
		prog, err := compileAfter(t, c.interpreted, c.compiled...)
		if err != nil {
			b.WriteString("error: " + err.Error() + "\n")
			continue
		}
		for _, src := range []string{prog.Source, prog.NoValue} {
			if src == "" {
				continue
			}
			if _, err := format.Source([]byte(src)); err != nil {
				t.Errorf("%s: the program does not parse: %v\n%s", c.name, err, src)
			}
		}
		b.WriteString(prog.Source)
		if prog.NoValue != "" {
			b.WriteString("-- without the value\n" + prog.NoValue)
		}
	}
	path := filepath.Join("testdata", "compile.golden")
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if b.String() != string(want) {
		t.Errorf("programs differ from %s (run with -update after checking):\n%s", path, b.String())
	}
}

// TestCompileRefusesSessionVariables: a compiled cell sees no variable's
// value; using one is an error at the use, saying what to do.
func TestCompileRefusesSessionVariables(t *testing.T) {
	for _, tc := range []struct {
		name        string
		interpreted []string
		compiled    []string
		want        string
	}{
		{"direct use", []string{"total := 42"}, []string{"//sbir:compile\n\nfmt.Println(total + 1)"},
			"line 3, column 13: total is a variable of this session, set by an interpreted cell; a compiled cell runs as a program of its own and sees the session's functions, types and constants but not its variables' values: compute total in this cell, or remove //sbir:compile to run the cell interpreted"},
		{"through a carried function", []string{"var hits int", "func hit() { hits++ }"}, []string{"//sbir:compile\nhit()"},
			"line 2, column 1: hit, declared in an earlier cell, uses hits: it is a variable of this session"},
		{"from a program", []string{"limit := 3"}, []string{"func main() { fmt.Println(limit) }"},
			"run the code as a cell without func main"},
		{"a compiled cell's variable", nil, []string{"//sbir:compile\nrows := 3\nrows", "//sbir:compile\nrows + 1"},
			"line 2, column 1: rows is a variable of an earlier compiled cell, whose values ended with it"},
	} {
		_, err := compileAfter(t, tc.interpreted, tc.compiled...)
		var ce *CompileError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want a CompileError containing %q", tc.name, err, tc.want)
		}
	}
}

// TestCompileNeedsInterpreter: what only the interpreter can do is
// reported, not compiled.
func TestCompileNeedsInterpreter(t *testing.T) {
	for _, code := range []string{
		"//sbir:compile\nvar s string\nfmt.Scanln(&s)",
		"func main() { sc := bufio.NewScanner(os.Stdin); _ = sc }",
	} {
		_, err := compileAfter(t, nil, code)
		var nc *NotCompilableError
		if !errors.As(err, &nc) || !strings.Contains(err.Error(), "standard input") {
			t.Errorf("%q: %v; want a NotCompilableError about standard input", code, err)
		}
	}
}

func TestWantsCompile(t *testing.T) {
	for code, want := range map[string]bool{
		"//sbir:compile\nx := 1":       true,
		"x := 1\n  //sbir:compile  \n": true,
		"x := 1 //sbir:compile":        false,
		"s := \"//sbir:compile\"":      false,
		"// sbir:compile\nx := 1":      false,
		"/*\n//sbir:compile\n*/":       false,
		"//sbir:compiled\nx := 1":      false,
		"x := 1":                       false,
	} {
		if got := WantsCompile(code); got != want {
			t.Errorf("WantsCompile(%q) = %v; want %v", code, got, want)
		}
	}
}

// TestCompileLinksTheRuntimeItNeeds: a program links the display sink
// (celldisplay) when it imports anything beyond the standard library,
// which may display, and the data's runtime (celldata) when it uses
// award_data; a program of the standard library alone links neither.
func TestCompileLinksTheRuntimeItNeeds(t *testing.T) {
	for _, tc := range []struct {
		code          string
		display, data bool
	}{
		{"func main() { fmt.Println(strings.ToUpper(\"x\")) }", false, false},
		{"//sbir:compile\nfmt.Println(1)", false, false},
		{"//sbir:compile\ndisplay.Markdown(\"**x**\")", true, false},
		{"//sbir:compile\naward_data.Count()", true, true},
		{"func main() { display.Markdown(\"x\") }", true, false},
	} {
		prog, err := compileAfter(t, nil, tc.code)
		if err != nil {
			t.Errorf("%q: %v", tc.code, err)
			continue
		}
		src := prog.Source
		if got := strings.Contains(src, `_ "`+DisplayRuntimePath+`"`); got != tc.display {
			t.Errorf("%q: imports %s: %v, want %v:\n%s", tc.code, DisplayRuntimePath, got, tc.display, src)
		}
		if got := strings.Contains(src, `_ "`+DataRuntimePath+`"`); got != tc.data {
			t.Errorf("%q: imports %s: %v, want %v:\n%s", tc.code, DataRuntimePath, got, tc.data, src)
		}
	}
}
