package interp_test

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirShortVarRedeclaration checks sbir patch 195: `a, b := x, y`
// with a declared in the same block declares b only and assigns a, which
// keeps its type and identity (in a function body, the block holds the
// parameters and named results too). Without the patch a was a new
// variable of the value's type: `var total int8; total, n := 100, 1;
// total += 100` printed 200 (gc: -56), a closure made before kept the old
// a, a named result redefined this way was returned unset, `a, b, c := b,
// a, 3` did not swap, and values of another type ran where gc refuses
// them. gc is go run's outcome; want is the interpreter's error where its
// text differs from gc's.
func TestSbirShortVarRedeclaration(t *testing.T) {
	for _, tc := range []struct{ name, decls, body, gc, want string }{
		{"keeps_type", "", "var total int8\n\ttotal, n := 100, 1\n\ttotal += 100\n\tfmt.Println(total, n)", "-56 1\n", ""},
		{"keeps_type_inc", "", "var b int8\n\tb, y := 3, 2\n\tb = 127\n\tb++\n\tfmt.Println(b, y)", "-128 2\n", ""},
		{"closure_sees", "", "b := 1\n\tf := func() int { return b }\n\tb, y := 2, 3\n\tfmt.Println(f(), b, y)", "2 2 3\n", ""},
		{"named_result", "func run() (err error) {\n\tx, err := 1, error(nil)\n\ty, err := 2, fmt.Errorf(\"late\")\n\t_, _ = x, y\n\treturn\n}\n", "fmt.Println(run())", "late\n", ""},
		{"named_result_defer", "func load() (err error) {\n\tdefer func() {\n\t\tif err != nil {\n\t\t\tfmt.Println(\"cleanup after\", err)\n\t\t}\n\t}()\n\tv, err := 1, fmt.Errorf(\"boom\")\n\t_ = v\n\treturn\n}\n", "fmt.Println(load())", "cleanup after boom\nboom\n", ""},
		{"pointer", "", "p := new(int)\n\tq := &p\n\tp, z := new(int), 5\n\t*p = 7\n\tfmt.Println(**q, z)", "7 5\n", ""},
		{"swap", "", "a, b := 1, 2\n\ta, b, c := b, a, 3\n\tfmt.Println(a, b, c)", "2 1 3\n", ""},
		{"in_loop", "func f() int {\n\ta := 1\n\tfor i := 0; i < 3; i++ {\n\t\ta, b := a+i, i\n\t\t_, _ = a, b\n\t}\n\treturn a\n}\n", "fmt.Println(f())", "1\n", ""},
		{"nested_block_shadow", "", "a := 1\n\tif a > 0 {\n\t\ta, b := 5, 6\n\t\tfmt.Println(a, b)\n\t}\n\tfmt.Println(a)", "5 6\n1\n", ""},
		{"overflow", "", "var b int8\n\tb, y := 300, 2\n\tfmt.Println(b, y)", "10:10: cannot use 300 (untyped int constant) as int8 value in assignment (overflows)", ""},
		{"other_type_op", "func f() {\n\tx := 1\n\tvar b int8\n\tb, y := x+300, 2\n\tfmt.Println(b, y)\n}\n", "f()", "10:10: cannot use x + 300 (value of type int) as int8 value in assignment", ""},
		{"other_type_var", "func f() {\n\tx := 1\n\tvar b int8\n\tb, y := x, 2\n\tfmt.Println(b, y)\n}\n", "f()", "10:10: cannot use x (variable of type int) as int8 value in assignment", "10:10: cannot use type int as type int8 in assignment"},
		{"other_type_const", "func f() {\n\tvar s string\n\ts, y := 1, 2\n\tfmt.Println(s, y)\n}\n", "f()", "9:10: cannot use 1 (untyped int constant) as string value in assignment", "9:10: cannot convert 1 to string"},
		{"call_interface", "type MyErr struct{}\n\nfunc (*MyErr) Error() string { return \"my\" }\n\nfunc f() (int, *MyErr) { return 1, nil }\n", "var err error\n\tx, err := f()\n\tfmt.Println(x, err == nil)", "1 false\n", ""},
		{"call_other_type", "func g() (int8, int) { return 1, 2 }\n\nfunc h() {\n\tvar a int\n\ta, b := g()\n\tfmt.Println(a, b)\n}\n", "h()", "11:10: cannot use g() (value of type int8) as int value in assignment", ""},
		{"comma_ok_other_type", "func h() {\n\tvar v int\n\tm := map[string]int8{\"a\": 1}\n\tv, ok := m[\"a\"]\n\tfmt.Println(v, ok)\n}\n", "h()", "10:11: cannot use m[\"a\"] (map index expression of type int8) as int value in assignment", ""},
		{"ok_comma_ok_same", "", "var v int8\n\tm := map[string]int8{\"a\": 127}\n\tv, ok := m[\"a\"]\n\tv++\n\tfmt.Println(v, ok)", "-128 true\n", ""},
		{"call_interface_methods", "type MyErr struct{ s string }\n\nfunc (e *MyErr) Error() string { return \"my \" + e.s }\n\nfunc f() (int, *MyErr) { return 1, &MyErr{\"x\"} }\n\nfunc g() (int, *MyErr) { return 2, nil }\n", "var err error\n\tx, err := f()\n\tfmt.Println(x, err, err.Error())\n\ty, err := g()\n\tfmt.Println(y, err == nil)\n\tvar s fmt.Stringer\n\tz, s := 3, nil\n\tfmt.Println(z, s == nil)", "1 my x my x\n2 false\n3 true\n", ""},
		{"declared_interface", "type Shape interface{ Area() int }\n\ntype Sq struct{ s int }\n\nfunc (q Sq) Area() int { return q.s * q.s }\n\nfunc mk(s int) (int, Sq) { return s, Sq{s} }\n", "var t Shape\n\tn, t := mk(5)\n\tvar u Shape\n\tm, u := 6, Sq{2}\n\tfmt.Println(n, t.Area(), m, u.Area())", "5 25 6 4\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkConstantOutcome(t, []string{constantProgram(tc.decls, tc.body)}, tc.gc, tc.want, false)
		})
		t.Run(tc.name+"/top level", func(t *testing.T) {
			evals := append([]string{"import \"fmt\"\n" + tc.decls}, mainStatements(t, constantProgram(tc.decls, tc.body))...)
			checkConstantOutcome(t, evals, tc.gc, tc.want, true)
		})
	}
}

// TestSbirShortVarRedeclarationCells checks that patch 195 keeps what a
// notebook lets cells do at the top level: a cell run again declares its
// variables again, and a definition may give a name of an earlier cell a
// value of another type; a value the earlier variable can hold is
// assigned to it, keeping its type, as in one Go block.
func TestSbirShortVarRedeclarationCells(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cells []string
		want  string
	}{
		{"run_again", []string{"a, b := 1, 2", "a, b := 3, 4", "fmt.Println(a, b)"}, "3 4\n"},
		{"new_type", []string{"x := 1", "x, y := \"s\", 2", "fmt.Printf(\"%T %v %v\\n\", x, x, y)"}, "string s 2\n"},
		{"keeps_type", []string{"var t int8", "t, n := 100, 1", "t += 100", "fmt.Println(t, n)"}, "-56 1\n"},
		{"same_cell", []string{"p, q := 1, 2\nf := func() int { return p }\np, r := 5, 6\nfmt.Println(f(), p, q, r)"}, "5 5 2 6\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			i := interp.New(interp.Options{Stdout: &out})
			if err := i.Use(stdlib.Symbols); err != nil {
				t.Fatal(err)
			}
			if _, err := i.Eval(`import "fmt"`); err != nil {
				t.Fatal(err)
			}
			for _, c := range tc.cells {
				if _, err := i.Eval(c); err != nil {
					t.Fatalf("%q: %v", c, err)
				}
			}
			if out.String() != tc.want {
				t.Errorf("output %q, want %q", out.String(), tc.want)
			}
		})
	}
}
