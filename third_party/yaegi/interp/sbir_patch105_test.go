package interp_test

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirIntConstantToComplex checks sbir patch 105: an untyped integer
// constant given to a complex type (a variable, a result, an argument, an
// element, a map value) is that complex number, as in gc (the want text
// is go run's). Without the patch the program failed to compile with
// reflect's "value of type int cannot be converted to type complex128".
func TestSbirIntConstantToComplex(t *testing.T) {
	src := `package main

import "fmt"

func g(c complex128) complex128 { return c * 2 }
func h() complex64              { return 16777217 }

func main() {
	var c complex128 = 3
	var d complex64 = 1<<30 + 1
	xs := []complex128{1, 2}
	m := map[string]complex64{"a": 4}
	fmt.Println(c, d, g(3), xs, m, h(), c+1, d*2)
}
`
	var out, stderr bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out, Stderr: &stderr})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(src); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	const want = "(3+0i) (1.0737418e+09+0i) (6+0i) [(1+0i) (2+0i)] map[a:(4+0i)] (1.6777216e+07+0i) (4+0i) (2.1474836e+09+0i)\n"
	if got := out.String(); got != want {
		t.Errorf("output:\n%s\nwant (go run's):\n%s", got, want)
	}
}
