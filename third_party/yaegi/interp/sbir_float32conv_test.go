package interp_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirIntToFloat32 checks sbir patch 151: an integer converted to a
// float32 type is rounded once, as gc rounds it. Without the patch
// reflect's Convert went through float64, and float32(x) with x := 1<<60 +
// 1<<36 + 1 was 1.1529215e+18 where gc prints 1.1529216e+18 (a defined
// float32 type, a uint64, a value from an interface, a function's argument
// and a loop's elements alike), and so was float32(n) of a typed constant,
// const n int64 = 1<<60 + 1<<36 + 1, folded when compiled. The program runs
// as a file and with main's statements evaluated one by one at the top
// level; the want text is go run's.
func TestSbirIntToFloat32(t *testing.T) {
	const src = `package main

import "fmt"

type F float32

const n int64 = 1<<60 + 1<<36 + 1
const m = 1<<60 + 1<<36 + 1

func half(n int64) float32 { return float32(n) / 2 }

func scale(xs []int) []float32 {
	out := make([]float32, len(xs))
	for i, x := range xs {
		out[i] = float32(x)
	}
	return out
}

func main() {
	x := 1<<60 + 1<<36 + 1
	u := uint64(x)
	var v any = x
	fmt.Println(float32(x), F(x), float32(u), float32(v.(int)), half(int64(x)))
	fmt.Println(scale([]int{x, 1<<24 + 1, -(1<<40 + 1<<16 + 1)}))
	fmt.Println(float32(int8(-3)), float32(uint8(200)), float32(uintptr(1<<30+1)), float64(x))
	fmt.Printf("%T %v\n", F(u), float32(x) == float32(u))
	const c = float32(n)
	var g float32 = float32(n)
	fmt.Println(float32(n), c, g, F(n), float32(int64(m)), float32(uint64(m)))
}
`
	const want = `1.1529216e+18 1.1529216e+18 1.1529216e+18 1.1529216e+18 5.764608e+17
[1.1529216e+18 1.6777216e+07 -1.0995118e+12]
-3 200 1.0737418e+09 1.1529215733263237e+18
main.F true
1.1529216e+18 1.1529216e+18 1.1529216e+18 1.1529216e+18 1.1529216e+18 1.1529216e+18
`
	decls := src[:strings.Index(src, "func main")]
	main := src[strings.Index(src, "func main() {\n")+len("func main() {\n") : strings.LastIndex(src, "}")]
	forms := map[string][]string{
		"file":      {src},
		"top level": append([]string{decls}, strings.Split(strings.TrimSpace(main), "\n")...),
	}
	for form, evals := range forms {
		t.Run(form, func(t *testing.T) {
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
			if got := out.String(); got != want {
				t.Errorf("output:\n%s\nwant (go run's):\n%s", got, want)
			}
		})
	}
}
