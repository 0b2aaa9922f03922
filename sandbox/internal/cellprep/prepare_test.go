package cellprep

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/prepare.golden")

// TestPrepareGolden pins what the interpreter receives for the shapes of
// cell people write: the chunks and their directives.
func TestPrepareGolden(t *testing.T) {
	cells := []struct{ name, code string }{
		{"import then func", "import \"strings\"\n\nfunc up(s string) string { return strings.ToUpper(s) }\nup(\"x\")"},
		{"whole program", "package main\n\nimport (\n\t\"fmt\"\n\tstr \"strings\"\n)\n\nfunc main() {\n\tfmt.Println(str.ToUpper(\"hi\"))\n}\n"},
		{"main called by the cell", "func main() { fmt.Println(1) }\nmain()"},
		{"import after statements", "x := 1\nimport \"strings\"\nstrings.Repeat(\"a\", x)"},
		{"go with arguments", "for i := 0; i < 3; i++ {\n\tgo worker(i, ch, 2.5)\n}"},
		{"go func literal", "go func() {\n\tfor i := range 3 { fmt.Println(i) }\n}()"},
		{"nested go", "go func() { go f(x) }()"},
		{"top-level defer", "defer fmt.Println(\"bye\", n)\nfmt.Println(\"hi\")"},
		{"defer inside a function stays", "func f() { defer g() }\nf()"},
		{"variadic go", "go f(xs...)"},
		{"method named main", "type T struct{}\nfunc (T) main() {}\nT{}.main()"},
		{"loop variable captured in a function", "func f() {\n\tfor i := 0; i < 3; i++ {\n\t\tgo func() { use(i) }()\n\t}\n}"},
		{"loop variable captured at top level", "var fs []func()\nfor _, s := range xs {\n\tfs = append(fs, func() { use(s) })\n}\nn := len(fs)"},
		{"range over int captured at top level", "for i := range 3 { defer0 = append(defer0, func() int { return i }) }"},
		// A go statement in the bound of a range over an integer is
		// supervised like any other (the bound used to be copied as written).
		{"go statement in a range bound", "for i := range len(func() []int { go spin(); return []int{1} }()) { _ = i }"},
		{"loop that assigns its variable copies it back", "func f() {\n\tfor i := 0; i < 9; i++ {\n\t\tfs = append(fs, func() { use(i) })\n\t\ti++\n\t}\n}"},
		{"top-level loop with defer", "for _, s := range xs {\n\tdefer func() { use(s) }()\n}"},
		{"defer in a top-level loop is the cell's", "for i := 0; i < 2; i++ {\n\tdefer fmt.Println(i)\n}"},
		{"loop that changes a field of its variable copies it back", "func f() {\n\tfor c := (C{}); c.n < 3; {\n\t\tfs = append(fs, func() { use(c) })\n\t\tc.n++\n\t}\n}"},
		{"loop that may change its variable by a method copies it back", "func f() {\n\tfor c := (C{}); c.n < 3; c.Inc() {\n\t\tfs = append(fs, func() { use(c) })\n\t\tc.Inc()\n\t}\n}"},
		{"address of a loop variable", "for i := 0; i < 3; i++ {\n\tps = append(ps, &i)\n}\nfor _, v := range xs {\n\tqs = append(qs, &v.n)\n}"},
		{"continue copies back", "func f() {\nouter:\n\tfor i := 0; i < 9; i++ {\n\t\tp := &i\n\t\tfor j := 0; j < 2; j++ {\n\t\t\tif j > 0 {\n\t\t\t\tcontinue\n\t\t\t}\n\t\t\tcontinue outer\n\t\t}\n\t\tif *p > 3 {\n\t\t\tcontinue\n\t\t}\n\t}\n}"},
		{"loop declaring its name again keeps it", "func f() {\n\tfor i := 0; i < 9; i++ {\n\t\tp := &i\n\t\tif *p > 3 {\n\t\t\ti := 0\n\t\t\t_ = i\n\t\t}\n\t}\n}"},
		{"range loop that assigns its variable still copies", "func f() {\n\tfor _, v := range xs {\n\t\tfs = append(fs, func() { use(v) })\n\t\tv.n = 1\n\t}\n}"},
		{"composite literals in headers", "for a := [1]int{}; a[0] < 1; a[0]++ {\n\tn++\n}\nif m := map[string]int{\"a\": 1}; m[\"a\"] > 0 {\n\tn++\n}"},
		// Issue 27: the first append to a top-level slice that cannot
		// escape takes gc's stack buffer; one printed (u), one declared
		// in a loop (w) and one captured by a function (v) do not.
		{"stack buffer of top-level appends", "var s []int\nt := []string{}\nu, v := []int{}, []int{}\nfor i := 0; i < 3; i++ {\n\ts = append(s, i)\n\tt = append(t, \"a\", \"b\")\n\tu = append(u, i)\n\tw := []int{}\n\tw = append(w, i)\n\t_ = len(w)\n}\nfunc show() { fmt.Println(v) }\nv = append(v, 1)\nfmt.Println(len(s[1:]), cap(t), u)"},
		// Issue 27: cap of a slice grown by append whose capacity gc's
		// escape analysis decides, which the kernel does not follow
		// (declared in a loop, sliced, captured) is refused; one that is
		// printed or used by a function of the cell (package-level) is not.
		// A cell's own len (a global of the interpreter's, seen by the
		// whole chunk) is not called by the stack buffer's statement.
		{"stack buffer with a variable named len", "var fs []int\nfs = append(fs, 1)\nlen := func(s []int) string { return \"len\" }\nfmt.Println(len(fs))"},
		{"cap of a slice declared in a loop", "for i := 0; i < 3; i++ {\n\tw := []int{}\n\tw = append(w, i)\n\tfmt.Println(cap(w))\n}"},
		{"cap of a sliced slice", "var s []int\nfor i := 0; i < 3; i++ {\n\ts = append(s, i)\n\tfmt.Println(cap(s), len(s[1:]))\n}"},
		{"cap of a captured slice", "var s []int\nf := func() int { return len(s) }\ns = append(s, 1)\nfmt.Println(cap(s), f())"},
		{"cap of a printed or package-level slice", "var s, t []int\nfunc f(s []int) int { return len(t) + len(s) }\ns = append(s, 1)\nt = append(t, 1)\nfmt.Println(cap(s), cap(t), s)"},
		// Issue 27: gc inlines a small function that reads cap after
		// append into its caller, whose stack buffer serves one call per
		// call of the caller: calls in loops, in function literals and
		// function values of such a function (or one calling it) are
		// refused; straight calls, go and defer are not.
		{"inlined cap function called in a loop", "func f() int {\n\tvar s []int\n\ts = append(s, 1)\n\treturn cap(s)\n}\nfunc g() int { return f() }\nfmt.Println(f(), g())\nfor i := 0; i < 3; i++ {\n\tfmt.Println(g())\n}"},
		{"inlined cap function as a value", "func f() int {\n\tvar s []int\n\ts = append(s, 1)\n\treturn cap(s)\n}\nh := f\nfmt.Println(h())"},
		{"inlined cap function called straight", "func f() int {\n\tvar s []int\n\ts = append(s, 1)\n\treturn cap(s)\n}\nfmt.Println(f())\ndefer f()\nfor i := 0; i < 3; i++ {\n\tgo f()\n}"},
		// Issue 27: a function literal in a header was a syntax error.
		{"function literals in headers", "if f := func() {}; true {\n\tf()\n}\nfor g := func(n int) bool { return n < 3 }; g(x); x++ {\n}\nswitch h := func() struct{ a int } { return struct{ a int }{1} }; h().a {\ncase 1:\n}\nx"},
		{"loop without closures unchanged", "results := make([]int, 3)\nfor i := range results {\n\tresults[i] = i * i\n}\nresults"},
		{"top-level return ends the cell", "for _, x := range xs {\n\tif x < 0 {\n\t\treturn\n\t}\n}\nf := func() int { return 1 }\nn := f()"},
		{"recover in a top-level deferred literal", "defer func() {\n\tif r := recover(); r != nil {\n\t\tfunc() { recover() }()\n\t}\n}()\npanic(1)"},
		{"redefining a declared name starts a chunk", "var x = 1\nfmt.Println(x)\nx := \"s\"\nfmt.Println(x)\ny := 2\ny2 := y"},
	}
	var b strings.Builder
	for _, c := range cells {
		p, err := Prepare(c.code, NewState())
		b.WriteString("== " + c.name + "\n")
		if err != nil {
			b.WriteString("error: " + err.Error() + "\n")
			continue
		}
		for _, ch := range p.Chunks {
			flags := ""
			if ch.Expr {
				flags += " expr"
			}
			if ch.Main {
				flags += " main"
			}
			b.WriteString("-- chunk" + flags + "\n" + ch.Code + "\n")
		}
	}
	path := filepath.Join("testdata", "prepare.golden")
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
		t.Errorf("chunks differ from %s (run with -update after checking):\n%s", path, b.String())
	}
}

// TestPrepareRefusals checks the errors people see, with their positions.
func TestPrepareRefusals(t *testing.T) {
	for _, tt := range []struct{ code, want string }{
		{"package stats", "line 1, column 1: package stats is not allowed"},
		{"x := 1\nif x > 0 {\n\treturn x\n}", "line 3, column 2: return with values at the top level of a cell is not allowed"},
		{"x := 0" + strings.Repeat("+1", maxChain+1), "line 1, column 20007: an expression of more than 10000 operators in a row is not allowed: compute it in parts, in several statements"},
		{"x := " + strings.Repeat("(", maxNesting+1) + "1", "line 1, column 1006: nesting brackets more than 1000 deep is not allowed: name the inner parts: `a := ...` then use a"},
		{"y := 2\nx := min(1, /*line :50:1*/y)", "line 2, column 13: the directive /*line is not allowed"},
		{"//line foo.go:1\nx := 1", "line 1, column 1: the directive //line is not allowed"},
		{"g := func() { for {} }\naaaa := 0\nf := func() {\n\tfor i := range /*line :6:5*/aaaa { _ = i }\n\t// func()int{go g();return 1}() {}\n}\nf()", "line 4, column 17: the directive /*line is not allowed"},
		{"x := ", "line 1, column 5: expected operand, found the end of the statement"},
		{"import \"os/exec\"", "line 1, column 8: import \"os/exec\" is not allowed"},
		{"import (\n\t\"fmt\"\n\t\"reflect\"\n)", "line 3, column 2: import \"reflect\" is not allowed: reflect is not available to cells: a reflect.Value reaches the interpreter's"},
		{"var a [1 << 40]byte", "line 1, column 7: an array of 1099511627776 elements is not allowed"},
		{"x := unsafe.Pointer(nil)", "line 1, column 6: unsafe is not allowed"},
		// Red team: a cell's _sbir replaced the helpers later rewrites call.
		{"type S struct{ Go func(func()) }\n_sbir := S{}", "line 2, column 1: the name _sbir is not allowed: names starting with _sbir are the kernel's own"},
		{"func f() { _sbirG1_0 := 1; _ = _sbirG1_0 }", "line 1, column 12: the name _sbirG1_0 is not allowed"},
	} {
		_, err := Prepare(tt.code, NewState())
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Prepare(%q) = %v, want an error containing %q", tt.code, err, tt.want)
		}
		var ce *CheckError
		var se SyntaxError
		if err != nil && !errors.As(err, &ce) && !errors.As(err, &se) {
			t.Errorf("Prepare(%q): error %T is neither a CheckError nor a SyntaxError", tt.code, err)
		}
	}
}

// worstCases are 100 KB cells shaped to defeat a preparation that is not
// linear: many statements, alternating declarations and statements, many
// go statements, long lines.
func worstCases() map[string]string {
	const size = 100 << 10
	fill := func(head, unit string) string {
		var b strings.Builder
		b.WriteString(head)
		for b.Len()+len(unit) <= size {
			b.WriteString(unit)
		}
		return b.String()
	}
	return map[string]string{
		"statements":  fill("x := 0\n", "x\n"),
		"alternating": fill("", "var a = 1\na++\n"),
		"go":          fill("f := func(int) {}\n", "go f(1)\n")[:18+8*900],
		"range":       fill("n := 3\n", "for i := range n { _ = i }\n"),
		// Longest operator chains allowed (maxChain), one line.
		"one long line": fill("x := 0", strings.Repeat("+1", maxChain-1)+"; x = 0"),
		"deep nesting":  fill("x := 0", strings.Repeat("(", maxNesting)+"1"+strings.Repeat(")", maxNesting)+"; x = 0"),
	}
}

func TestPrepareWorstCasesAreBounded(t *testing.T) {
	for name, code := range worstCases() {
		p, err := Prepare(code, NewState())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		total := 0
		for _, ch := range p.Chunks {
			total += len(ch.Code)
		}
		// Directives and rewrites add a bounded number of bytes per
		// statement (at most ~25), never a copy of the lines before it.
		if total > 5*len(code) {
			t.Errorf("%s: %d bytes of chunks for a %d-byte cell", name, total, len(code))
		}
	}
}

// BenchmarkPrepareWorstCase measures the 100 KB worst cases (target: each
// prepared in ≤ 50 ms and ≤ 50 MB; see docs/performance.md).
func BenchmarkPrepareWorstCase(b *testing.B) {
	for name, code := range worstCases() {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(code)))
			for b.Loop() {
				if _, err := Prepare(code, NewState()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestRedefinedTypeMethods checks that a cell declaring a type again must
// declare again the methods earlier cells declared for it (the new type
// would silently lose them), and that other redefinitions pass.
func TestRedefinedTypeMethods(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cells []string
		want  string // error of the last cell, "" for none
	}{
		{"without methods", []string{"type kv struct{ k string }", "type kv struct{ k string; n int }"}, ""},
		{"methods in another cell", []string{"type kv struct{ k string }", "func (x kv) String() string { return x.k }\nfunc (x *kv) Set(k string) { x.k = k }", "type kv struct{ k string; n int }"},
			"line 1, column 6: declaring type kv again without its methods Set, String is not allowed: a method belongs to the type it was declared with"},
		{"methods declared again", []string{"type kv struct{ k string }", "func (x kv) String() string { return x.k }", "func (x kv) String() string { return x.k + \"!\" }\ntype kv struct{ k string; n int }"}, ""},
		{"one method missing", []string{"type kv struct{ k string }\nfunc (x kv) A() {}\nfunc (x kv) B() {}", "type kv struct{ k string; n int }\nfunc (x kv) A() {}"}, "without its methods B is"},
		{"methods of the old type are forgotten", []string{"type kv struct{ k string }\nfunc (x kv) A() {}", "type kv struct{ k string; n int }\nfunc (x kv) A() {}", "type kv struct{ k string; n int }\nfunc (x kv) A() {}"}, ""},
		{"a type becoming a variable", []string{"type kv struct{ k string }\nfunc (x kv) A() {}", "var kv = 1", "type kv int"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := NewState()
			for i, c := range tc.cells {
				p, err := Prepare(c, st)
				if i < len(tc.cells)-1 {
					if err != nil {
						t.Fatalf("cell %d: %v", i+1, err)
					}
					st.Commit(p)
					continue
				}
				switch {
				case tc.want == "" && err != nil:
					t.Errorf("last cell: %v, want no error", err)
				case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
					t.Errorf("last cell: %v, want an error containing %q", err, tc.want)
				}
			}
		})
	}
}

// TestInlinedCapAcrossCells checks that a function of an earlier cell
// that reads cap after append, and one calling it, may not be called in a
// later cell's loop (issue 27: gc inlines it there and prints another
// cap), and may again once redefined without cap.
func TestInlinedCapAcrossCells(t *testing.T) {
	st := NewState()
	cells := []struct {
		code    string
		refused bool
	}{
		{"func f() int {\n\tvar s []int\n\ts = append(s, 1)\n\treturn cap(s)\n}", false},
		{"func g() int { return f() + 1 }", false},
		{"for i := 0; i < 2; i++ {\n\t_ = g()\n}", true},
		{"x := []int{f(), g()}\n_ = x", false},
		{"func f() int { return 1 }\nfunc g() int { return 2 }", false},
		{"for i := 0; i < 2; i++ {\n\t_ = g()\n}", false},
	}
	for i, c := range cells {
		p, err := Prepare(c.code, st)
		var ce *CheckError
		switch {
		case c.refused && !errors.As(err, &ce):
			t.Fatalf("cell %d: got %v, want a CheckError", i+1, err)
		case !c.refused && err != nil:
			t.Fatalf("cell %d: %v", i+1, err)
		case err == nil:
			st.Commit(p)
		}
	}
}
