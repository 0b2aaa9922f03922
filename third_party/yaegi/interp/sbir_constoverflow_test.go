package interp_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirUntypedConstantFits checks sbir patch 180: an untyped constant
// given a type it has no value of is a compile error, as in gc, wherever
// it is given the type: a variable or constant declaration, an
// assignment, a conversion, an argument, a result, a literal's element, a
// send, or an operation with a typed operand. Without the patch `var i
// int8 = 200`, `var u uint8 = 1 - 2`, `[]int8{200}`, `int8(100 + 100)`,
// `i = 100 + 100`, `return 300` from a func() int8 and `i += 200` ran and
// printed the value wrapped (-56, 255, ...); `var i int64 = 1 << 63`
// failed at run time. Constants that fit, non-constant conversions and
// shifts by a variable still run. gc is go run's outcome for each program:
// its error (line:column: text) or its output; want is the interpreter's
// error where its text differs from gc's (byte is named uint8).
func TestSbirUntypedConstantFits(t *testing.T) {
	for _, tc := range []struct{ name, decls, body, gc, want string }{
		{"addassign", "", "var i int8 = 1\n\ti += 200\n\tfmt.Println(i)", "10:7: 200 (untyped int constant) overflows int8", ""},
		{"append", "", "fmt.Println(append([]byte{}, 300))", "9:31: cannot use 300 (untyped int constant) as byte value in argument to append (overflows)", "9:31: cannot use 300 (untyped int constant) as uint8 value in argument to append (overflows)"},
		{"arg", "func f(b byte) byte { return b }\n", "fmt.Println(f(300))", "10:16: cannot use 300 (untyped int constant) as byte value in argument to f (overflows)", "10:16: cannot use 300 (untyped int constant) as uint8 value in argument to f (overflows)"},
		{"array_lit", "", "a := [2]uint16{1, 70000}\n\tfmt.Println(a)", "9:20: cannot use 70000 (untyped int constant) as uint16 value in array or slice literal (overflows)", ""},
		{"assign_sum", "", "var i int8\n\ti = 100 + 100\n\tfmt.Println(i)", "10:6: cannot use 100 + 100 (untyped int constant 200) as int8 value in assignment (overflows)", ""},
		{"binop", "", "var b byte = 1\n\tfmt.Println(b + 300)", "10:18: 300 (untyped int constant) overflows byte", "10:18: 300 (untyped int constant) overflows uint8"},
		{"compare", "", "var i int8 = 1\n\tfmt.Println(i == 200)", "10:19: 200 (untyped int constant) overflows int8", ""},
		{"const_decl", "", "const c int8 = 200\n\tfmt.Println(c)", "9:17: cannot use 200 (untyped int constant) as int8 value in constant declaration (overflows)", ""},
		{"conv_sum", "", "fmt.Println(int8(100 + 100))", "9:19: constant 200 overflows int8", ""},
		{"define_conv", "", "x := uint8(256)\n\tfmt.Println(x)", "9:13: constant 256 overflows uint8", ""},
		{"float32_over", "", "var f float32 = 1e40\n\tfmt.Println(f)", "9:18: cannot use 1e40 (untyped float constant 1e+40) as float32 value in variable declaration (overflows)", ""},
		{"float_int8", "", "var i int8 = 200.0\n\tfmt.Println(i)", "9:15: cannot use 200.0 (untyped float constant 200) as int8 value in variable declaration (truncated)", ""},
		{"global", "var g int8 = 200\n", "fmt.Println(g)", "7:14: cannot use 200 (untyped int constant) as int8 value in variable declaration (overflows)", ""},
		{"iface_big", "", "var x interface{} = 1 << 64\n\tfmt.Println(x)", "9:22: cannot use 1 << 64 (untyped int constant 18446744073709551616) as int value in variable declaration (overflows)", ""},
		{"iface_sum", "", "var x any = 1 + 18446744073709551616\n\tfmt.Println(x)", "9:14: cannot use 1 + 18446744073709551616 (untyped int constant 18446744073709551617) as int value in variable declaration (overflows)", ""},
		{"iface_ret", "func f() any { return 1 << 70 }\n", "fmt.Println(f())", "7:23: cannot use 1 << 70 (untyped int constant 1180591620717411303424) as int value in return statement (overflows)", ""},
		{"ok_iface", "func f() any { return 1 << 62 }\n", "var x any = 1 + 2\n\tvar y any = 'a' + 1\n\tvar z any = 1 << 62\n\tvar w any = 1.5 * 2\n\tvar q any = 7 / 2\n\tfmt.Println(x, y, z, w, q, f())\n\tfmt.Printf(\"%T %T %T %T\\n\", x, y, w, q)", "3 98 4611686018427387904 3 3 4611686018427387904\nint int32 float64 int\n", ""},
		{"int64_shift", "", "var i int64 = 1 << 63\n\tfmt.Println(i)", "9:16: cannot use 1 << 63 (untyped int constant 9223372036854775808) as int64 value in variable declaration (overflows)", ""},
		{"int_big", "", "var i int = 1 << 64\n\tfmt.Println(i)", "9:14: cannot use 1 << 64 (untyped int constant 18446744073709551616) as int value in variable declaration (overflows)", ""},
		{"int_trunc", "", "var i int = 1.5\n\tfmt.Println(i)", "9:14: cannot use 1.5 (untyped float constant) as int value in variable declaration (truncated)", ""},
		{"map_lit", "", "m := map[string]int8{\"a\": 200}\n\tfmt.Println(m)", "9:28: cannot use 200 (untyped int constant) as int8 value in map literal (overflows)", ""},
		{"method_arg", "type T struct{}\nfunc (T) M(b int8) int8 { return b }\n", "fmt.Println(T{}.M(128))", "11:20: cannot use 128 (untyped int constant) as int8 value in argument to T{}.M (overflows)", "11:20: cannot use 128 (untyped int constant) as int8 value in argument (overflows)"},
		{"mul_var", "", "x := int8(1)\n\tx = x * 200\n\tfmt.Println(x)", "10:10: 200 (untyped int constant) overflows int8", ""},
		{"multi_assign", "", "var a, b int8 = 1, 200\n\tfmt.Println(a, b)", "9:21: cannot use 200 (untyped int constant) as int8 value in variable declaration (overflows)", ""},
		{"multi_ret", "func f() (int, int8) { return 1, 128 }\n", "fmt.Println(f())", "7:34: cannot use 128 (untyped int constant) as int8 value in return statement (overflows)", ""},
		{"neg_neg", "", "var i int8 = -(-128)\n\tfmt.Println(i)", "9:15: cannot use -(-128) (untyped int constant 128) as int8 value in variable declaration (overflows)", ""},
		{"ok_array_iota", "const (\n\tA = iota\n\tB\n\tC\n)\n", "var a [1 << 3]int\n\tvar b [C + 1]int8\n\tfmt.Println(len(a), len(b), A, B, C)", "8 3 0 1 2\n", ""},
		{"ok_bigconst", "const big = 1 << 100\n", "var i int = big >> 98\n\tvar u uint8 = big >> 93\n\tfmt.Println(i, u, big>>99)", "4 128 2\n", ""},
		{"ok_duration", "", "fmt.Println(5*time.Second, time.Duration(1<<62))", "5s 1281023h53m38.427387904s\n", ""},
		{"ok_float_to_int", "", "var i int8 = 100.0\n\tvar u uint8 = 2.55e2\n\tfmt.Println(i, u, int8(1e2))", "100 255 100\n", ""},
		{"ok_floats", "", "var f float32 = 1e38\n\tvar g float32 = math.Pi\n\tvar c complex64 = 1e38\n\tvar h float64 = 1 << 100\n\tfmt.Println(f, g, c, h)", "1e+38 3.1415927 (1e+38+0i) 1.2676506002282294e+30\n", ""},
		{"ok_limits", "", "var a int8 = -128\n\tvar b uint8 = 255\n\tvar c int = 1 << 62\n\tvar d int = -1\n\tvar e int = 1e3\n\tvar f int8 = 127\n\tvar g int16 = -32768\n\tfmt.Println(a, b, c, d, e, f, g, int8(-128), uint8(255))", "-128 255 4611686018427387904 -1 1000 127 -32768 -128 255\n", ""},
		{"ok_neg_assign", "func f(i int8) int8 { return i }\nfunc g() int8 { return -128 }\n", "var i int8\n\ti = -128\n\tfmt.Println(i, f(-128), g(), []int8{-128, 127}, i == -128, i+127)", "-128 -128 -128 [-128 127] true -1\n", ""},
		{"ok_nonconst", "", "x := 200\n\tfmt.Println(int8(x), uint8(x+100))\n\tvar b byte = 255\n\tb++\n\tb += 1\n\tfmt.Println(b, b+255)", "-56 44\n1 0\n", ""},
		{"ok_runes", "", "var r rune = '\u00e9'\n\tvar b byte = 'a'\n\tvar c byte = 'a' + 1\n\tfmt.Println(r, b, c, byte('a'-32), 'x')", "233 97 98 65 120\n", ""},
		{"ok_shift_var", "", "n := 7\n\tvar i int8 = 1 << n\n\tvar u uint8 = 1 << (n + 1)\n\tfmt.Println(i, u, 1<<n)", "-128 0 128\n", ""},
		{"ok_u64", "", "var u uint64 = math.MaxUint64\n\tfmt.Println(u, uint64(1<<63), uint64(math.MaxUint64), int64(math.MinInt64), int64(math.MaxInt64))", "18446744073709551615 9223372036854775808 18446744073709551615 -9223372036854775808 9223372036854775807\n", ""},
		{"ok_xor", "", "fmt.Println(^uint8(0), ^uint(0), ^uint64(0), ^0, -^0)", "255 18446744073709551615 18446744073709551615 -1 1\n", ""},
		{"println_big", "", "fmt.Println(1 << 64)", "9:14: cannot use 1 << 64 (untyped int constant 18446744073709551616) as int value in argument to fmt.Println (overflows)", "9:14: cannot use 1 << 64 (untyped int constant 18446744073709551616) as int value (overflows)"},
		{"ret", "func f() int8 { return 300 }\n", "fmt.Println(f())", "7:24: cannot use 300 (untyped int constant) as int8 value in return statement (overflows)", ""},
		{"rune_int8", "", "var b int8 = '\u00e9'\n\tfmt.Println(b)", "9:15: cannot use '\u00e9' (untyped rune constant 233) as int8 value in variable declaration (overflows)", ""},
		{"send", "", "ch := make(chan int8, 1)\n\tch <- 200\n\tfmt.Println(<-ch)", "10:8: cannot use 200 (untyped int constant) as int8 value in send (overflows)", ""},
		{"shift_int8", "", "var i int8 = 1 << 7\n\tfmt.Println(i)", "9:15: cannot use 1 << 7 (untyped int constant 128) as int8 value in variable declaration (overflows)", ""},
		{"slice_lit", "", "s := []int8{200}\n\tfmt.Println(s)", "9:14: cannot use 200 (untyped int constant) as int8 value in array or slice literal (overflows)", ""},
		{"struct_lit", "type T struct{ X int8 }\n", "fmt.Println(T{X: 200})", "10:19: cannot use 200 (untyped int constant) as int8 value in struct literal (overflows)", ""},
		{"sub_assign_u", "", "var u uint8 = 1\n\tu -= 256\n\tfmt.Println(u)", "10:7: 256 (untyped int constant) overflows uint8", ""},
		{"uint64_neg", "", "var u uint64 = -1\n\tfmt.Println(u)", "9:17: cannot use -1 (untyped int constant) as uint64 value in variable declaration (overflows)", ""},
		{"uint_neg_conv", "", "fmt.Println(uint(-1))", "9:19: constant -1 overflows uint", ""},
		{"uint_neg_var", "", "var x uint = -1\n\tfmt.Println(x)", "9:15: cannot use -1 (untyped int constant) as uint value in variable declaration (overflows)", ""},
		{"var_byte", "", "var b byte = 300\n\tfmt.Println(b)", "9:15: cannot use 300 (untyped int constant) as byte value in variable declaration (overflows)", "9:15: cannot use 300 (untyped int constant) as uint8 value in variable declaration (overflows)"},
		{"var_int8", "", "var i int8 = 200\n\tfmt.Println(i)", "9:15: cannot use 200 (untyped int constant) as int8 value in variable declaration (overflows)", ""},
		{"var_int8_sum", "", "var i int8 = 100 + 100\n\tfmt.Println(i)", "9:15: cannot use 100 + 100 (untyped int constant 200) as int8 value in variable declaration (overflows)", ""},
		{"var_uint8_neg", "", "var u uint8 = 1 - 2\n\tfmt.Println(u)", "9:16: cannot use 1 - 2 (untyped int constant -1) as uint8 value in variable declaration (overflows)", ""},
		{"variadic", "func f(b ...byte) int { return len(b) }\n", "fmt.Println(f(1, 300))", "10:19: cannot use 300 (untyped int constant) as byte value in argument to f (overflows)", "10:19: cannot use 300 (untyped int constant) as uint8 value in argument to f (overflows)"},
		{"xor_zero_uint", "", "var u uint = ^0\n\tfmt.Println(u)", "9:15: cannot use ^0 (untyped int constant -1) as uint value in variable declaration (overflows)", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evals := []string{constantProgram(tc.decls, tc.body)}
			checkConstantOutcome(t, evals, tc.gc, tc.want, false)
		})
		// The same at the top level, as a notebook evaluates cells: the
		// declarations, then main's statements one by one (variables
		// declared there are global).
		t.Run(tc.name+"/top level", func(t *testing.T) {
			evals := append([]string{"import \"fmt\"\nimport \"math\"\nimport \"time\"\nvar _, _ = math.Pi, time.Second\n" + tc.decls}, strings.Split(tc.body, "\n\t")...)
			checkConstantOutcome(t, evals, tc.gc, tc.want, true)
		})
	}
}

// constantProgram is the program of TestSbirUntypedConstantFits's
// declarations and main body, as recorded with go run.
func constantProgram(decls, body string) string {
	imports := "\t\"fmt\"\n"
	if strings.Contains(decls+body, "math.") {
		imports += "\t\"math\"\n"
	}
	if strings.Contains(body, "time.") {
		imports += "\t\"time\"\n"
	}
	return "package main\n\nimport (\n" + imports + ")\n\n" + decls + "\nfunc main() {\n\t" + body + "\n}\n"
}

// checkConstantOutcome evaluates evals in a new interpreter and checks
// the outcome: go run's output (gc ends with a newline), or the error
// want (gc's when want is empty), without its position when atTop.
func checkConstantOutcome(t *testing.T, evals []string, gc, want string, atTop bool) {
	t.Helper()
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	var err error
	for _, e := range evals {
		if _, err = i.Eval(e); err != nil {
			break
		}
	}
	src := strings.Join(evals, "\n---\n")
	if strings.HasSuffix(gc, "\n") { // go run's output
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		if got := out.String(); got != gc {
			t.Errorf("output %q, want go run's %q\n%s", got, gc, src)
		}
		return
	}
	if want == "" {
		want = gc
	}
	if err == nil {
		t.Fatalf("ran (output %q), want the error %q\n%s", out.String(), want, src)
	}
	got := err.Error()
	if atTop { // the position is the cell's, not the file's
		got, want = withoutPosition(got), withoutPosition(want)
	}
	if got != want {
		t.Errorf("error %q, want %q\n%s", got, want, src)
	}
}

// withoutPosition is error text msg without its leading position.
func withoutPosition(msg string) string {
	for k := 0; k < 2; k++ {
		if i := strings.Index(msg, ": "); i >= 0 && strings.Trim(msg[:i], "0123456789:_.go") == "" {
			msg = msg[i+2:]
		}
	}
	return msg
}
