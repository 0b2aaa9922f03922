package interp_test

import "testing"

// TestSbirConstantIndex checks sbir patch 193: a constant index is
// checked when the program is compiled, as gc checks it: an integer, not
// negative, within the length of an array or a constant string; so are
// make's sizes, a literal's keys and an array type's length. Without the
// patch `s[-1]`, `a[-1]`, `"abc"[5]`, `s[-1:]` and `s[-1] = 4` failed at
// run time (after the program's earlier output), `make([]int, -1)` and
// `[]int{-1: 1}` panicked in reflect, `var a [-1]int` was reported as a
// limit of the interpreter, and the others were refused in other words.
// Constant indices within bounds still run. gc is go run's outcome.
func TestSbirConstantIndex(t *testing.T) {
	for _, tc := range []struct{ name, decls, body, gc, want string }{
		{"slice_negative", "", "s := []int{1, 2}\n\tfmt.Println(s[-1])", "10:16: invalid argument: index -1 (constant of type int) must not be negative", ""},
		{"array_negative", "", "var a [4]int\n\tfmt.Println(a[-1])", "10:16: invalid argument: index -1 (constant of type int) must not be negative", ""},
		{"array_bounds", "", "var a [4]int\n\tfmt.Println(a[5])", "10:16: invalid argument: index 5 out of bounds [0:4]", ""},
		{"array_ptr_bounds", "", "var a [4]int\n\tp := &a\n\tfmt.Println(p[4])", "11:16: invalid argument: index 4 out of bounds [0:4]", ""},
		{"string_negative", "", "s := \"abc\"\n\tfmt.Println(s[-1])", "10:16: invalid argument: index -1 (constant of type int) must not be negative", ""},
		{"const_string_bounds", "", "fmt.Println(\"abc\"[5])", "9:20: invalid argument: index 5 out of bounds [0:3]", ""},
		{"named_const_string", "const s = \"abc\"\n", "fmt.Println(s[3])", "10:16: invalid argument: index 3 out of bounds [0:3]", ""},
		{"slice_expr_negative", "", "s := []int{1, 2}\n\tfmt.Println(s[-1:])", "10:16: invalid argument: index -1 (constant of type int) must not be negative", ""},
		{"slice_expr_bounds", "", "var a [4]int\n\tfmt.Println(a[2:5])", "10:18: invalid argument: index 5 out of bounds [0:5]", ""},
		{"assign_negative", "", "s := []int{1, 2, 3}\n\ts[-1] = 4\n\tfmt.Println(s)", "10:4: invalid argument: index -1 (constant of type int) must not be negative", ""},
		{"typed_const", "const i int8 = -1\n", "s := []int{1, 2}\n\tfmt.Println(s[i])", "11:16: invalid argument: index i (constant -1 of type int8) must not be negative", ""},
		{"float_const", "const f float64 = 1\n", "s := []int{1, 2}\n\tfmt.Println(s[f])", "11:16: invalid argument: index f (constant 1 of type float64) must be integer", ""},
		{"truncated", "", "s := []int{1, 2}\n\tfmt.Println(s[1.5])", "10:16: 1.5 (untyped float constant) truncated to int", ""},
		{"overflows", "", "s := []int{1, 2}\n\tfmt.Println(s[1<<70])", "10:16: 1 << 70 (untyped int constant 1180591620717411303424) overflows int", ""},
		{"make_negative", "", "fmt.Println(len(make([]int, -1)))", "9:30: invalid argument: index -1 (constant of type int) must not be negative", ""},
		{"make_cap_negative", "", "fmt.Println(len(make([]int, 1, -1)))", "9:33: invalid argument: index -1 (constant of type int) must not be negative", ""},
		{"literal_key_bounds", "", "fmt.Println([4]int{5: 1})", "9:21: invalid argument: index 5 out of bounds [0:4]", ""},
		{"literal_key_negative", "", "fmt.Println([]int{-1: 1})", "9:20: invalid argument: index -1 (constant of type int) must not be negative", ""},
		{"array_length", "", "var a [-1]int\n\tfmt.Println(a)", "9:9: invalid array length -1 (untyped int constant)", ""},
		{"array_length_typed", "const n int8 = -1\n", "var a [n]int\n\tfmt.Println(len(a))", "10:9: invalid array length n (constant -1 of type int8)", ""},
		{"after_output", "", "fmt.Println(\"before\")\n\ts := []int{1, 2}\n\tfmt.Println(s[-1])", "11:16: invalid argument: index -1 (constant of type int) must not be negative", ""},
		{"ok_indices", "const k = 2\nconst s = \"abc\"\n", "var a [0]int\n\tb := []int{1, 2, 3}\n\tvar c [4]int\n\tfmt.Println(len(a), b[k], b[1:], \"abc\"[2], s[2], s[1:3], b[:k], c[3], c[1:4], [4]int{3: 1}, []int{5: 1}, b[len(b)-1], b[1.0], len(make([]int, 2, 3)))", "0 3 [2 3] 99 99 bc [1 2] 0 [0 0 0] [0 0 0 1] [0 0 0 0 0 1] 3 2 2\n", ""},
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
