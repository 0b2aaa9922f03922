package interp_test

import (
	"strings"
	"testing"
)

// TestSbirOperationTypeMismatch checks sbir patch 190: an arithmetic
// operation has the type of its typed operands, and giving it to a
// variable, a result or a channel of another type is a compile error, as
// in gc. Without the patch the cfg typed the operation by its destination
// and the value was converted: `x := 1; var b byte = x + 300` printed 45,
// `return x + 1` from a func() int8 ran, `ch <- x + 1` on a chan int8
// panicked when it ran. Operations of untyped constants, shifts of them,
// and operations of the destination's own type still run. gc is go run's
// outcome for each program; want is the interpreter's error where its
// text differs from gc's (byte is named uint8).
func TestSbirOperationTypeMismatch(t *testing.T) {
	for _, tc := range []struct{ name, decls, body, gc, want string }{
		{"var_decl", "", "x := 1\n\tvar b byte = x + 300\n\tfmt.Println(b)", "10:15: cannot use x + 300 (value of type int) as byte value in variable declaration", "10:15: cannot use x + 300 (value of type int) as uint8 value in variable declaration"},
		{"var_mul", "", "x := 1\n\tvar b int8 = x * 2\n\tfmt.Println(b)", "10:15: cannot use x * 2 (value of type int) as int8 value in variable declaration", ""},
		{"var_paren", "", "x := 1\n\tvar b int8 = (x + 100)\n\tfmt.Println(b)", "10:15: cannot use (x + 100) (value of type int) as int8 value in variable declaration", ""},
		{"var_nested", "", "x := 1\n\tvar b int8 = x + 1 + 2\n\tfmt.Println(b)", "10:15: cannot use x + 1 + 2 (value of type int) as int8 value in variable declaration", ""},
		{"var_const_left", "", "x := 1\n\tvar b int8 = 1 + (x - 2)\n\tfmt.Println(b)", "10:15: cannot use 1 + (x - 2) (value of type int) as int8 value in variable declaration", ""},
		{"var_float", "", "x := 1.5\n\tvar f float32 = x + 1\n\tfmt.Println(f)", "10:18: cannot use x + 1 (value of type float64) as float32 value in variable declaration", ""},
		{"var_byte_int", "", "b := byte(1)\n\tvar i int = b + 1\n\tfmt.Println(i)", "10:14: cannot use b + 1 (value of type byte) as int value in variable declaration", "10:14: cannot use b + 1 (value of type uint8) as int value in variable declaration"},
		{"var_named", "type D int\n", "y := 3\n\tvar z D = y * 2\n\tfmt.Println(z)", "11:12: cannot use y * 2 (value of type int) as D value in variable declaration", ""},
		{"var_index", "", "s := []int{1}\n\tvar b int8 = s[0] + 1\n\tfmt.Println(b)", "10:15: cannot use s[0] + 1 (value of type int) as int8 value in variable declaration", ""},
		{"var_len", "", "s := []int{1}\n\tvar b int8 = len(s) * 2\n\tfmt.Println(b)", "10:15: cannot use len(s) * 2 (value of type int) as int8 value in variable declaration", ""},
		{"global", "var x = 1\nvar g int8 = x + 1\n", "fmt.Println(g)", "8:14: cannot use x + 1 (value of type int) as int8 value in variable declaration", ""},
		{"assign", "", "x := 1\n\tvar b int8\n\tb = x + 1\n\tfmt.Println(b)", "11:6: cannot use x + 1 (value of type int) as int8 value in assignment", ""},
		{"assign_neg", "", "x := 1\n\tvar b int8\n\tb = -x\n\tfmt.Println(b)", "11:6: cannot use -x (value of type int) as int8 value in assignment", ""},
		{"assign_typed_const", "", "var x int\n\tx = int8(1) + 2\n\tfmt.Println(x)", "10:6: cannot use int8(1) + 2 (constant 3 of type int8) as int value in assignment", ""},
		{"multi_assign", "", "x := 1\n\tvar a, b int8\n\ta, b = 1, x+1\n\tfmt.Println(a, b)", "11:12: cannot use x + 1 (value of type int) as int8 value in assignment", ""},
		{"ret", "func f() int8 { x := 1; return x + 1 }\n", "fmt.Println(f())", "7:32: cannot use x + 1 (value of type int) as int8 value in return statement", ""},
		{"ret_neg", "func f() int8 { x := 1; return -x }\n", "fmt.Println(f())", "7:32: cannot use -x (value of type int) as int8 value in return statement", ""},
		{"ret_multi", "func f() (int, int8) { x := 1; return x, x * 2 }\n", "fmt.Println(f())", "7:42: cannot use x * 2 (value of type int) as int8 value in return statement", ""},
		{"send", "", "x := 1\n\tch := make(chan int8, 1)\n\tch <- x + 1\n\tfmt.Println(<-ch)", "11:8: cannot use x + 1 (value of type int) as int8 value in send", ""},
		{"named_use", "type W int8\n\nconst w W = 100\n", "var i int8 = w + 1\n\tfmt.Println(i)", "12:15: cannot use w + 1 (constant 101 of int8 type W) as int8 value in variable declaration", ""},
		{"named_var", "type D int\n", "var x D = 2\n\tvar i int = x * 2\n\tfmt.Println(i)", "11:14: cannot use x * 2 (value of int type D) as int value in variable declaration", ""},
		{"ok_bytes", "", "x := byte(3)\n\tvar a byte = x + 1\n\tvar b byte = 1 + x\n\tvar c = x - '0'\n\tvar r rune = 'a' + 1\n\td := time.Duration(5) * time.Second\n\tfmt.Println(a, b, c, r, d)", "4 4 211 98 5s\n", ""},
		{"ok_shift_context", "", "n := 3\n\tvar b int8 = 1 << n\n\tvar c uint8 = 1<<n + 1\n\tvar f float64 = 2 * 1.5\n\tvar g float64 = 1 << 3\n\tfmt.Println(b, c, f, g)", "8 9 3 8\n", ""},
		{"ok_named", "type D int\n", "var x D = 2\n\tvar z D = x * 2\n\tvar w int = 3 + int(x)\n\tvar i int = len(\"ab\") * 2\n\tfmt.Println(z, w, i)", "4 5 4\n", ""},
		{"ok_iface", "", "x := 1\n\tvar a any = x + 1\n\tvar e interface{} = -x\n\tfmt.Println(a, e)", "2 -1\n", ""},
		{"ok_ret", "func f(x int8) int8 { return x*2 + 1 }\nfunc g(x int) (int, float64) { return -x, float64(x) / 2 }\n", "fmt.Println(f(3))\n\tfmt.Println(g(3))", "7\n-3 1.5\n", ""},
		{"ok_typed_const", "const c int8 = 3\n", "var b int8 = c + 1\n\tvar d = c * 2\n\tvar e float32 = 1.5 * 2\n\tfmt.Println(b, d, e)", "4 6 3\n", ""},
		{"ok_send", "", "x := int8(1)\n\tch := make(chan int8, 2)\n\tch <- x + 1\n\tch <- 100 + 27\n\tfmt.Println(<-ch, <-ch)", "2 127\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkConstantOutcome(t, []string{constantProgram(tc.decls, tc.body)}, tc.gc, tc.want, false)
		})
		t.Run(tc.name+"/top level", func(t *testing.T) {
			evals := append([]string{"import \"fmt\"\nimport \"math\"\nimport \"time\"\nvar _, _ = math.Pi, time.Second\n" + tc.decls}, strings.Split(tc.body, "\n\t")...)
			checkConstantOutcome(t, evals, tc.gc, tc.want, true)
		})
	}
}
