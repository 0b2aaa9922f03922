package interp_test

import "testing"

// TestSbirShiftAndSendTypes checks sbir patch 194: an untyped constant
// shifted by a variable takes the type its context gives it, which must
// be an integer type, and a value sent on a channel must be assignable
// to the element type, as gc checks. Without the patch `var f float64 =
// 1 << n` and `f = 1 << n` printed 0 (the int's bits in a float64),
// `return 1 << n` from a func() float64 ran, `float64(1 << n)` printed 8,
// and `ch <- x` with x an int
// on a chan int8 panicked in reflect when it ran. Shifts into integer
// and interface destinations and sends of assignable values still run.
// gc is go run's outcome.
func TestSbirShiftAndSendTypes(t *testing.T) {
	for _, tc := range []struct{ name, decls, body, gc, want string }{
		{"shift_var_decl", "", "n := 3\n\tvar f float64 = 1 << n\n\tfmt.Println(f)", "10:18: invalid operation: shifted operand 1 (type float64) must be integer", ""},
		{"shift_assign", "", "n := 3\n\tvar f float64\n\tf = 1 << n\n\tfmt.Println(f)", "11:6: invalid operation: shifted operand 1 (type float64) must be integer", ""},
		{"shift_float_const", "", "n := 3\n\tf := 1.0 << n\n\tfmt.Println(f)", "10:7: invalid operation: shifted operand 1.0 (type float64) must be integer", ""},
		{"shift_return", "func f(n int) float64 { return 1 << n }\n", "fmt.Println(f(3))", "7:32: invalid operation: shifted operand 1 (type float64) must be integer", ""},
		{"shift_nested", "", "n := 3\n\tvar f float64 = 2 * (1 << n)\n\tfmt.Println(f)", "10:23: invalid operation: shifted operand 1 (type float64) must be integer", ""},
		{"shift_float32", "", "n := 3\n\tvar f float32\n\tf = -(1 << n)\n\tfmt.Println(f)", "11:8: invalid operation: shifted operand 1 (type float32) must be integer", ""},
		{"shift_conversion", "", "n := 3\n\tfmt.Println(float64(1 << n))", "10:22: invalid operation: shifted operand 1 (type float64) must be integer", ""},
		{"ok_shift_conversions", "", "n := 3\n\tfmt.Println(float64(uint(1)<<n), int64(1<<n), uint8(1<<n), float64(1<<3), any(1<<n), float32(2*(n<<1)))", "8 8 8 8 8 12\n", ""},
		{"send_var", "", "x := 1\n\tch := make(chan int8, 1)\n\tch <- x\n\tfmt.Println(<-ch)", "11:8: cannot use x (variable of type int) as int8 value in send", ""},
		{"send_string", "", "s := \"a\"\n\tch := make(chan []byte, 1)\n\tch <- s\n\tfmt.Println(<-ch)", "11:8: cannot use s (variable of type string) as []byte value in send", "11:8: cannot use s (variable of type string) as []uint8 value in send"},
		{"send_named", "type D int\n", "x := 1\n\tch := make(chan D, 1)\n\tch <- x\n\tfmt.Println(<-ch)", "12:8: cannot use x (variable of type int) as D value in send", ""},
		{"ok_shifts", "", "n := 3\n\tvar i int = 1.0 << n\n\tvar u uint8 = 1 << n\n\tvar j int\n\tj = 1.0 << n\n\tvar a any = 1 << n\n\tk := 1 << n\n\tvar d time.Duration = 1 << n\n\tf := float64(uint(1) << n)\n\tg := 2.5 * float64(k)\n\tfmt.Println(i, u, j, a, k, d, f, g, 1<<n, uint8(1)<<n)", "8 8 8 8 8 8ns 8 20 8 8\n", ""},
		{"ok_sends", "type E struct{}\n\nfunc (E) Error() string { return \"e\" }\n\ntype B []byte\n", "ch := make(chan error, 1)\n\tch <- E{}\n\tcp := make(chan *int, 1)\n\tcp <- nil\n\tb := make(chan []byte, 1)\n\tb <- []byte(\"x\")\n\tb2 := make(chan B, 1)\n\tb2 <- []byte(\"y\")\n\tc8 := make(chan int8, 2)\n\tx := int8(3)\n\tc8 <- x\n\tc8 <- 4\n\tvar ro chan<- int = make(chan int, 1)\n\tro <- 5\n\tfmt.Println(<-ch, <-cp == nil, string(<-b), string(<-b2), <-c8, <-c8)", "e true x y 3 4\n", ""},
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
