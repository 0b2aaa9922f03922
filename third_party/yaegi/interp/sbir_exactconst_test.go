package interp_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirExactConstantExpressions checks sbir patch 150: an untyped
// constant expression given a type is computed exactly and converted to the
// type once, as gc does, whether it declares a variable or a constant,
// assigns one, or is converted, passed, returned, stored in a literal or
// compared. Without the patch `var f float32 = 1<<60 + 1<<36 + 1` added the
// last 1 in float32 (1.1529215e+18 where gc prints 1.1529216e+18, as 2^60 +
// 2^36 is halfway between two float32s), float64's 1<<53 + 1 + 1 lost both
// ones, 0.1 + 0.2 - 0.3 was not 0, `(1<<30 + 1<<6 + 1) * 1 << 30` failed with
// "shift of type float32", and a float constant converted to float32 or
// complex64 was rounded twice, or failed. Each program runs as a file (the
// declarations in main) and with main's statements evaluated one by one at
// the top level (global variables); the want texts are go run's.
func TestSbirExactConstantExpressions(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"float32", `package main

import "fmt"

const C float32 = 1<<60 + 1<<36 + 1
const big = 1 << 100

var g float32 = 1<<60 + 1<<36 + 1

func main() {
	var f float32 = 1<<60 + 1<<36 + 1
	const l float32 = 1<<60 + 1<<36 + 1
	p := float32((1<<60 + 1<<36) + 1)
	var q float32 = -(1<<60 + 1<<36) - 1
	var h float32 = 1<<60 + 1<<36 + 0.5
	var k float32 = 1<<60 + 1<<36 + 1.0
	var m float32 = (1<<30 + 1<<6 + 1) * 1 << 30
	var z float32 = big>>40 + 1<<36 + 1
	var e float32 = 0.1 + 0.2 - 0.3
	var r float32 = 7/2 + 0.5
	fmt.Println(C, g, f, l, p, q)
	fmt.Println(h, k, m, z, e, r)
	f = 1<<60 + 1<<36 + 1
	g = 1<<60 + 1<<36 + 1
	fmt.Println(f, g)
}
`, `1.1529216e+18 1.1529216e+18 1.1529216e+18 1.1529216e+18 1.1529216e+18 -1.1529216e+18
1.1529216e+18 1.1529216e+18 1.1529216e+18 1.1529216e+18 0 3.5
1.1529216e+18 1.1529216e+18
`},
		{"float64", `package main

import "fmt"

const C float64 = 1<<53 + 1 + 1
const big = 1 << 100

var g float64 = 1<<53 + 1 + 1

func main() {
	var d float64 = 1<<53 + 1 + 1
	const l float64 = 1<<53 + 1 + 1
	var w float64 = big/(1<<47) + 1 + 1
	var e float64 = 0.1 + 0.2 - 0.3
	var n float64 = -(1<<53 + 1) - 1
	fmt.Println(C, g, d, l, w, e, n)
	d = 1<<53 + 1 + 1
	g = 1<<53 + 1 + 1
	fmt.Println(d, g)
}
`, `9.007199254740994e+15 9.007199254740994e+15 9.007199254740994e+15 9.007199254740994e+15 9.007199254740994e+15 0 -9.007199254740994e+15
9.007199254740994e+15 9.007199254740994e+15
`},
		{"complex64", `package main

import "fmt"

var g complex64 = 1<<60 + 1<<36 + 1

func main() {
	var c complex64 = 1<<60 + 1<<36 + 1
	var d complex64 = 1<<60 + 1<<36 + 1.0
	var e complex128 = 1<<53 + 1 + 1
	var i complex64 = (1<<60+1<<36+1)*1i + 0.5
	fmt.Println(g, c, d, e, i)
}
`, `(1.1529216e+18+0i) (1.1529216e+18+0i) (1.1529216e+18+0i) (9.007199254740994e+15+0i) (0.5+1.1529216e+18i)
`},
		{"integers", `package main

import "fmt"

var g int8 = 100 + 100 - 150

func main() {
	var i int8 = 100 + 100 - 150
	var u uint8 = 1<<8 - 1<<7 - 1
	var j int64 = 1<<60 + 1 + 0.0
	var v uint64 = 1<<63 + 1 + 0.0
	var w int16 = 300 * 300 / 1000
	fmt.Println(g, i, u, j, v, w)
	i = 100 + 100 - 150
	fmt.Println(i)
}
`, `50 50 127 1152921504606846977 9223372036854775809 90
50
`},
		{"uses", `package main

import "fmt"

type pt struct{ X float32 }

const k = 1<<60 + 1<<36 + 1

func arg(f float32) float32 { return f }
func ret() float32          { return 1<<60 + 1<<36 + 1 }

func main() {
	x := float32(1 << 60)
	f := float32(1<<60 + 1<<36 + 1)
	fmt.Println(f, float32(k), arg(1<<60+1<<36+1), ret())
	fmt.Println(pt{1<<60 + 1<<36 + 1}, []float32{1<<60 + 1<<36 + 1}, map[string]float32{"a": 1<<60 + 1<<36 + 1})
	fmt.Println(x == 1<<60+1<<36+1, x != 1<<60+1<<36+1, f == 1<<60+1<<36+1)
	var y float32
	y = x + (1<<36 + 1)
	const t float32 = 1<<60 + 1<<36
	fmt.Println(y, t, t+1)
}
`, `1.1529216e+18 1.1529216e+18 1.1529216e+18 1.1529216e+18
{1.1529216e+18} [1.1529216e+18] map[a:1.1529216e+18]
false true true
1.1529215e+18 1.1529215e+18 1.1529215e+18
`},
	} {
		decls := tc.src[:strings.Index(tc.src, "func main")]
		main := tc.src[strings.Index(tc.src, "func main() {\n")+len("func main() {\n") : strings.LastIndex(tc.src, "}")]
		forms := map[string][]string{
			"file":      {tc.src},
			"top level": append([]string{decls}, strings.Split(strings.TrimSpace(main), "\n")...),
		}
		for form, evals := range forms {
			t.Run(tc.name+"/"+form, func(t *testing.T) {
				var out bytes.Buffer
				i := interp.New(interp.Options{Stdout: &out})
				if err := i.Use(stdlib.Symbols); err != nil {
					t.Fatal(err)
				}
				for k, e := range evals {
					if _, err := i.Eval(e); err != nil {
						t.Fatalf("evaluation %d (%s): %v; output so far:\n%s", k+1, strings.TrimSpace(e), err, out.String())
					}
				}
				if got := out.String(); got != tc.want {
					t.Errorf("output:\n%s\nwant (go run's):\n%s", got, tc.want)
				}
			})
		}
	}
}
