package interp_test

import (
	"strings"
	"testing"
)

// TestSbirTypedConstantFits checks sbir patch 191: an operation or a
// conversion of typed constants whose exact value is not one of its type
// is a compile error, as in gc. Without the patch the interpreter folded
// it in the type and wrapped: `const c int8 = 100; c + 100` printed -56,
// `c << 8` 0, `-c` of -128 -128, `int8(c)` of an int16 300 44,
// `int(f)` of a float64 1.5 1, `float32(c)` of 1e300 +Inf. Operations
// and conversions of typed constants that fit, durations, iota and shifts
// by a variable still run. gc is go run's outcome for each program; want
// is the interpreter's error where its text differs from gc's (byte is
// named uint8).
func TestSbirTypedConstantFits(t *testing.T) {
	for _, tc := range []struct{ name, decls, body, gc, want string }{
		{"add", "const c int8 = 100\n", "var i int8 = c + 100\n\tfmt.Println(i)", "10:15: c + 100 (constant 200 of type int8) overflows int8", ""},
		{"define", "const c int8 = 100\n", "x := c + 100\n\tfmt.Println(x)", "10:7: c + 100 (constant 200 of type int8) overflows int8", ""},
		{"mul_arg", "const c int8 = 100\n", "fmt.Println(c * 2)", "10:14: c * 2 (constant 200 of type int8) overflows int8", ""},
		{"sub_unsigned", "const c uint8 = 0\n", "fmt.Println(c - 1)", "10:14: c - 1 (constant -1 of type uint8) overflows uint8", ""},
		{"add_unsigned", "const c uint8 = 255\n", "var u uint8 = c + 1\n\tfmt.Println(u)", "10:16: c + 1 (constant 256 of type uint8) overflows uint8", ""},
		{"nested", "const c int8 = 100\n", "fmt.Println(c*2 - 100)", "10:14: c * 2 (constant 200 of type int8) overflows int8", ""},
		{"shift", "const c int8 = 1\n", "fmt.Println(c << 8)", "10:14: c << 8 (constant 256 of type int8) overflows int8", ""},
		{"shift_const_decl", "const c = uint8(1) << 8\n", "fmt.Println(c)", "7:11: uint8(1) << 8 (constant 256 of type uint8) overflows uint8", ""},
		{"shift_uint", "const k uint = 1\n", "fmt.Println(k << 64)", "10:14: k << 64 (constant 18446744073709551616 of type uint) overflows uint", ""},
		{"div_min", "const c int8 = -128\n", "fmt.Println(c / -1)", "10:14: c / -1 (constant 128 of type int8) overflows int8", ""},
		{"neg", "const c int8 = -128\n", "fmt.Println(-c)", "10:14: -c (constant 128 of type int8) overflows int8", ""},
		{"neg_unsigned", "const c uint8 = 1\n", "fmt.Println(-c)", "10:14: -c (constant -1 of type uint8) overflows uint8", ""},
		{"const_of_const", "const c int16 = 30000\nconst d = c * 2\n", "fmt.Println(d)", "8:11: c * 2 (constant 60000 of type int16) overflows int16", ""},
		{"array_len", "const c int8 = 100\n", "var a [c * 2]int\n\tfmt.Println(len(a))", "10:9: c * 2 (constant 200 of type int8) overflows int8", ""},
		{"duration", "", "fmt.Println(time.Duration(1<<62) * 2)", "10:14: time.Duration(1 << 62) * 2 (constant 9223372036854775808 of int64 type time.Duration) overflows int64", ""},
		{"rune_byte", "const r rune = '\u00e9'\nconst s rune = 256\n", "fmt.Println(byte(r), byte(s))", "11:28: constant 256 overflows byte", "11:28: constant 256 overflows uint8"},
		{"float32_mul", "const f float32 = 3e38\n", "fmt.Println(f * 10)", "10:14: f * 10 (constant 3e+39 of type float32) overflows float32", ""},
		{"conv_int", "const c int16 = 300\n", "fmt.Println(int8(c))", "10:19: constant 300 overflows int8", ""},
		{"conv_nested", "", "fmt.Println(int8(int16(300)))", "9:19: constant 300 overflows int8", ""},
		{"conv_neg_uint", "const c int = -1\n", "fmt.Println(uint(c))", "10:19: constant -1 overflows uint", ""},
		{"conv_float_int", "const f float64 = 1.5\n", "fmt.Println(int(f))", "10:18: cannot convert f (constant 1.5 of type float64) to type int", ""},
		{"conv_float32", "const c float64 = 1e300\n", "fmt.Println(float32(c))", "10:22: cannot convert c (constant 1e+300 of type float64) to type float32", ""},
		{"conv_define", "const c int = 256\n", "b := uint8(c)\n\tfmt.Println(b)", "10:13: constant 256 overflows uint8", ""},
		{"ok_ops", "const c int8 = 100\nconst m uint8 = 255\nconst k uint = 1\n", "fmt.Println(c-100, c/3, c%7, -c, m&0x0f, ^m, m>>4, m/2, k<<63, c > 50)", "0 33 2 -100 15 0 15 127 9223372036854775808 true\n", ""},
		{"ok_limits", "const lo int8 = -127\nconst big int64 = math.MaxInt64\nconst neg = int64(math.MinInt64)\n", "fmt.Println(-lo, lo-1, big-1, big/2, neg+1, uint64(big)*2+1)", "127 -128 9223372036854775806 4611686018427387903 -9223372036854775807 18446744073709551615\n", ""},
		{"ok_floats", "const f float32 = 0.1\nconst g float64 = 7\n", "fmt.Println(f*3, g/2, int(g), int(2.0), float32(g), int8(g)*18)", "0.3 3.5 7 2 7 126\n", ""},
		{"ok_durations", "", "d := time.Duration(5) * time.Second\n\tfmt.Println(d, time.Hour*24*365, 90*time.Minute, time.Duration(1<<62), int64(time.Hour/time.Millisecond))", "5s 8760h0m0s 1h30m0s 1281023h53m38.427387904s 3600000\n", ""},
		{"ok_conv", "const r rune = 'a'\nconst c int = 255\nconst s = \"ab\"\n", "fmt.Println(byte(r), uint8(c), string(rune(65)), s+\"c\", float64(c)/2, int8(-c/2))", "97 255 A abc 127.5 -127\n", ""},
		{"ok_iota", "type W uint8\n\nconst (\n\tA W = 1 << iota\n\tB\n\tC\n\tH W = 1 << 7\n)\n", "fmt.Println(A, B, C, H, A|B|C|H, H>>7)", "1 2 4 128 135 1\n", ""},
		{"ok_var_shift", "const c int = 1\n", "n := 70\n\tfmt.Println(c<<n, c<<62)", "0 4611686018427387904\n", ""},
		{"named", "type W int8\n\nconst w W = 100\n", "fmt.Println(w * 2)", "12:14: w * 2 (constant 200 of int8 type W) overflows int8", ""},
		{"named_neg", "type W uint8\n\nconst w W = 1\n", "fmt.Println(-w)", "12:14: -w (constant -1 of uint8 type W) overflows uint8", ""},
		{"named_conv", "type W int8\n\nconst c int = 300\n", "fmt.Println(W(c))", "12:16: constant 300 overflows W", ""},
		{"named_conv_f", "type F float32\n\nconst c float64 = 1e300\n", "fmt.Println(F(c))", "12:16: cannot convert c (constant 1e+300 of type float64) to type F", ""},
		{"named_conv_f2", "type F int\n\nconst c F = 1e3\n", "fmt.Println(float32(c), int8(c))", "12:31: constant 1000 overflows int8", ""},
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
