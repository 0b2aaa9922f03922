package interp_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// TestSbirSwitchCaseValues checks sbir patch 192: the case values of an
// expression switch are checked against its tag as gc checks them: an
// untyped constant must be a value of the tag's type, a typed value must
// be of the tag's type, and a constant must not repeat an earlier case.
// Without the patch `var i int8 = 5; switch i { case 200: }` ran the
// default clause, `case c:` with c an int16 constant and `case j:` with
// j an int ran, and `case 1, 1:` ran the clause. Switches with constants
// that fit, repeated non-constant cases, defined types, durations and
// tagless switches still run. gc is go run's outcome; the top-level form
// runs the declarations, then main's statements one by one.
func TestSbirSwitchCaseValues(t *testing.T) {
	for _, tc := range []struct{ name, decls, body, gc, want string }{
		{"overflow", "", "var i int8 = 5\n\tswitch i {\n\tcase 200:\n\t\tfmt.Println(200)\n\tdefault:\n\t\tfmt.Println(i)\n\t}", "11:7: 200 (untyped int constant) overflows int8", ""},
		{"negative_unsigned", "", "var u uint = 5\n\tswitch u {\n\tcase 1, -1:\n\t\tfmt.Println(u)\n\t}", "11:10: -1 (untyped int constant) overflows uint", ""},
		{"truncated", "", "x := 5\n\tswitch x {\n\tcase 1.5:\n\t\tfmt.Println(x)\n\t}", "11:7: 1.5 (untyped float constant) truncated to int", ""},
		{"typed_const", "const c int16 = 3\n", "var i int8 = 1\n\tswitch i {\n\tcase c:\n\t\tfmt.Println(i)\n\t}", "12:7: invalid case c in switch on i (mismatched types int16 and int8)", ""},
		{"typed_var", "", "var i int8 = 1\n\tj := 1\n\tswitch i {\n\tcase j:\n\t\tfmt.Println(i)\n\t}", "12:7: invalid case j in switch on i (mismatched types int and int8)", ""},
		{"typed_op", "", "var i int8 = 1\n\tj := 1\n\tswitch i {\n\tcase j + 1:\n\t\tfmt.Println(i)\n\t}", "12:7: invalid case j + 1 in switch on i (mismatched types int and int8)", ""},
		{"duplicate", "", "i := 1\n\tswitch i {\n\tcase 1, 1:\n\t\tfmt.Println(i)\n\t}", "11:10: duplicate case 1 (constant of type int) in expression switch", ""},
		{"duplicate_clauses", "", "s := \"a\"\n\tswitch s {\n\tcase \"a\":\n\tcase \"b\", \"a\":\n\t}\n\tfmt.Println(s)", "12:12: duplicate case \"a\" (constant of type string) in expression switch", ""},
		{"duplicate_const", "const c = 2\n", "x := 2\n\tswitch x {\n\tcase 1, c, 2.0:\n\t\tfmt.Println(x)\n\t}", "12:13: duplicate case 2.0 (constant 2 of type int) in expression switch", ""},
		{"ok_cases", "const c = 2\n", "var b byte = 3\n\tswitch b {\n\tcase 'a', 3, 255:\n\t\tfmt.Println(b)\n\t}\n\tswitch f := 1.5; f {\n\tcase 1.5, 2:\n\t\tfmt.Println(f)\n\t}\n\tx, y := 2, 3\n\tswitch x {\n\tcase y - 1, y - 1, c + 1:\n\t\tfmt.Println(x)\n\t}\n\tswitch {\n\tcase b > 2:\n\t\tfmt.Println(\"gt\")\n\t}", "3\n1.5\n2\ngt\n", ""},
		{"ok_named", "type Color int\n\nconst (\n\tRed Color = iota\n\tGreen\n)\n", "c := Green\n\tswitch c {\n\tcase Red:\n\t\tfmt.Println(\"red\")\n\tcase Green, 5:\n\t\tfmt.Println(\"green\")\n\t}\n\td := 1 * time.Second\n\tswitch d {\n\tcase time.Second, 2 * time.Second:\n\t\tfmt.Println(d)\n\t}", "green\n1s\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkConstantOutcome(t, []string{constantProgram(tc.decls, tc.body)}, tc.gc, tc.want, false)
		})
		t.Run(tc.name+"/top level", func(t *testing.T) {
			evals := append([]string{"import \"fmt\"\nimport \"time\"\nvar _ = time.Second\n" + tc.decls}, mainStatements(t, constantProgram(tc.decls, tc.body))...)
			checkConstantOutcome(t, evals, tc.gc, tc.want, true)
		})
	}
}

// mainStatements is the source of each statement of func main in src.
func mainStatements(t *testing.T, src string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "prog.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var stmts []string
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "main" {
			for _, s := range fd.Body.List {
				stmts = append(stmts, src[fset.Position(s.Pos()).Offset:fset.Position(s.End()).Offset])
			}
		}
	}
	return stmts
}
