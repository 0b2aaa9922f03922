package sandbox

import (
	"strings"
	"testing"
)

// cellsCase is a sequence of cells run in one fresh session: every cell
// but the last must succeed; the output of all of them is compared, and
// the last one's error when errName is set.
type cellsCase struct {
	name    string
	cells   []string
	stdout  string
	errName string // the last cell's error class, "" for success
	errText string // a part of its message
}

// runCellsCases runs each case in a session of its own.
func runCellsCases(t *testing.T, cases []cellsCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newTestSession(t, nil)
			var out strings.Builder
			for i, c := range tc.cells {
				r := run(t, s, c)
				out.WriteString(r.Stdout)
				last := i == len(tc.cells)-1
				switch {
				case !last && !r.Success:
					t.Fatalf("cell %d (%q) failed: %s: %s", i+1, c, r.ErrorName, r.ErrorMessage)
				case last && tc.errName == "" && !r.Success:
					t.Fatalf("last cell failed: %s: %s", r.ErrorName, r.ErrorMessage)
				case last && tc.errName != "" && (r.ErrorName != tc.errName || !strings.Contains(r.ErrorMessage, tc.errText)):
					t.Errorf("last cell: %s: %s; want %s containing %q", r.ErrorName, r.ErrorMessage, tc.errName, tc.errText)
				}
			}
			if got := out.String(); got != tc.stdout {
				t.Errorf("stdout %q, want %q", got, tc.stdout)
			}
		})
	}
}

// TestTopLevelDefinitions runs at a cell's top level the statements
// notebook users write there, which failed in the interpreter's REPL mode
// while they worked inside a function (issue 27; yaegi patch 51). Every
// expected output is what go run prints for the same statements in func
// main.
func TestTopLevelDefinitions(t *testing.T) {
	runCellsCases(t, []cellsCase{
		{name: "index of a call, no import", cells: []string{`x := strings.Split("a,b,c", ",")[1]` + "\nfmt.Println(x)"}, stdout: "b\n"},
		{name: "index of a call, imported", cells: []string{"import \"strings\"\nx := strings.Split(\"a,b,c\", \",\")[1]\nfmt.Println(x)"}, stdout: "b\n"},
		{name: "index of a variable", cells: []string{"parts := strings.Split(\"a,b,c\", \",\")\nx := parts[0]\nfmt.Println(x)"}, stdout: "a\n"},
		{name: "index of a variable, two cells", cells: []string{`parts := strings.Split("a,b,c", ",")`, "x := parts[2]\nfmt.Println(x)"}, stdout: "c\n"},
		{name: "award_data values on one line", cells: []string{"xs := award_data.Floats(\"Award Amount\"); v := xs[0] * 2\nfmt.Println(v == 2*xs[0], v > 0)"}, stdout: "true true\n"},
		{name: "rune literal", cells: []string{"r := 'A'\nfmt.Printf(\"%T %v %c\\n\", r, r, r)"}, stdout: "int32 65 A\n"},
		{name: "package-level var from an index", cells: []string{"var words = strings.Fields(\"go is fun\")\nvar second = words[1]\nfmt.Println(second, len(words))"}, stdout: "is 3\n"},
		{name: "nested loops filling a matrix declared at top level", cells: []string{"n := 3\ngrid := make([][]float64, n)\nfor i := range grid {\n\tgrid[i] = make([]float64, n)\n\tfor j := range n {\n\t\tgrid[i][j] = float64(i*n + j)\n\t}\n}\nfmt.Println(grid)"}, stdout: "[[0 1 2] [3 4 5] [6 7 8]]\n"},
		{name: "variables named int and len", cells: []string{"total := 0\nfor i := 0; i < 3; i++ {\n\ttotal += i\n}\nint := 5\nlen := func(s string) string { return \"len:\" + s }\nfmt.Println(total, int*2, len(\"x\"))"}, stdout: "3 10 len:x\n"},
		{name: "os.Args as a program run without arguments", cells: []string{"fmt.Println(len(os.Args), len(os.Args[1:]))"}, stdout: "1 0\n"},
	})
}

// TestTopLevelReturn checks that a return at a cell's top level ends the
// cell as return in func main ends a program: the code of main pasted
// into a cell keeps working (issue 27).
func TestTopLevelReturn(t *testing.T) {
	runCellsCases(t, []cellsCase{
		{name: "return in a loop", cells: []string{"defer fmt.Println(\"deferred\")\nfor _, x := range []int{1, 2, 3} {\n\tif x == 2 {\n\t\tfmt.Println(\"found\", x)\n\t\treturn\n\t}\n}\nfmt.Println(\"not reached\")"}, stdout: "found 2\ndeferred\n"},
		{name: "later statements and the value do not run", cells: []string{"x := 1\nif x > 0 {\n\treturn\n}\nx = 2\nx", "fmt.Println(x)"}, stdout: "1\n"},
		{name: "a function literal's return is its own", cells: []string{"f := func() int { return 3 }\nfmt.Println(f())\nreturn\n"}, stdout: "3\n"},
		{name: "return with values", cells: []string{"x := 1\nif x > 0 {\n\treturn x\n}"}, errName: "NotAllowed", errText: "takes no values"},
	})
}

// TestTopLevelRedefinition checks that a top-level := redefining a name of
// an earlier cell or of the cell's own declarations leaves the statements
// before it reading the old variable, as Go's scoping does (issue 27).
func TestTopLevelRedefinition(t *testing.T) {
	runCellsCases(t, []cellsCase{
		{name: "package variable of the same cell", cells: []string{"var x = \"package\"\nfunc show() string { return x }\nfmt.Println(x, show())\nx := \"local\"\nfmt.Println(x, show())"}, stdout: "package package\nlocal package\n"},
		{name: "variable of an earlier cell", cells: []string{"y := 1", "fmt.Println(y)\ny := \"s\"\nfmt.Println(y)"}, stdout: "1\ns\n"},
		{name: "redefined twice in one cell is Go's error", cells: []string{"z := 1\nfmt.Println(z)\nz := 2"}, errName: "CompileError", errText: "no new variables"},
	})
}

// TestTopLevelRecover checks that recover in a function deferred at a
// cell's top level stops a panic of the cell's statements, as a deferred
// recover in func main does; the statements after the panic do not run
// and the cell succeeds (issue 27: Go by Example's recover program).
func TestTopLevelRecover(t *testing.T) {
	runCellsCases(t, []cellsCase{
		{name: "a panic recovered", cells: []string{"defer func() {\n\tif r := recover(); r != nil {\n\t\tfmt.Println(\"recovered:\", r)\n\t}\n}()\nfmt.Println(\"start\")\npanic(\"a problem\")\nfmt.Println(\"after\")"},
			stdout: "start\nrecovered: a problem\n"},
		{name: "a runtime error recovered", cells: []string{"defer func() {\n\terr, ok := recover().(error)\n\tfmt.Println(ok, err)\n}()\nvar m map[string]int\nm[\"x\"] = 1"},
			stdout: "true assignment to entry in nil map\n"},
		{name: "nothing to recover", cells: []string{"defer func() { fmt.Println(\"r:\", recover()) }()\nfmt.Println(\"fine\")"}, stdout: "fine\nr: <nil>\n"},
		{name: "recover in a nested literal is not the deferred function's", cells: []string{"defer func() { func() { fmt.Println(recover()) }() }()\nfmt.Println(\"x\")\npanic(\"deep\")"},
			stdout: "x\n<nil>\n", errName: "Panic", errText: "deep"},
	})
}
