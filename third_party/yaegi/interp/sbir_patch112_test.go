package interp_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirLogicalOperandType checks sbir patch 112: x && y and x || y are
// of the type of their typed operand when the other is untyped (a
// constant, a comparison, or !, && or || of those), as in gc: with f of a
// defined boolean type Flag, true && f and len(s) > 0 && f are Flags, at
// package level and in functions. Without the patch the left operand's
// type was taken (bool at package level): b.String() failed to compile
// ("undefined selector: String"), and without those calls %T printed bool,
// fmt printed "true" for "on", and var s fmt.Stringer = true && h panicked
// ("method not found: String"). The program runs as a file, as cells and
// with main's body at the top level; the want text is go run's.
func TestSbirLogicalOperandType(t *testing.T) {
	const src = `package main

import "fmt"

type Flag bool

func (f Flag) String() string {
	if f {
		return "on"
	}
	return "off"
}

const traced Flag = true

var f Flag = true
var g1 = true && f
var g2 = 1 < 2 && f
var g3 = f || false
var g4 = len("a") > 0 && f
var g5 = (len("a") > 0) || traced

func main() {
	fmt.Printf("%T %T %T %T %T\n", g1, g2, g3, g4, g5)
	fmt.Println(g1, g2, g3, g4, g5)
	const a = true && traced
	var h Flag = false
	b := true && h
	c := h || true
	d := len("ab") > 1 && h
	e := (len("ab") > 1) || h
	var x bool = true && len("a") > 0
	fmt.Printf("%T %T %T %T %T\n", a, b, c, d, e)
	fmt.Println(a, b, c, d, e, b.String(), (true && h).String())
	var s fmt.Stringer = true && h
	fmt.Printf("%v %T %v\n", s, x, x)
}
`
	const want = `main.Flag main.Flag main.Flag main.Flag main.Flag
on on on on on
main.Flag main.Flag main.Flag main.Flag main.Flag
on off on off on off off
off bool true
`
	decls := src[:strings.Index(src, "func main")]
	body := src[strings.Index(src, "func main() {\n")+len("func main() {\n") : strings.LastIndex(src, "}")]
	for _, form := range []struct {
		name  string
		evals []string
	}{
		{"file", []string{src}},
		{"cells", []string{decls, src[strings.Index(src, "func main"):]}}, // declaring main runs it
		{"top level", []string{decls, body}},
	} {
		t.Run(form.name, func(t *testing.T) {
			var out bytes.Buffer
			i := interp.New(interp.Options{Stdout: &out})
			if err := i.Use(stdlib.Symbols); err != nil {
				t.Fatal(err)
			}
			for k, e := range form.evals {
				if _, err := i.Eval(e); err != nil {
					t.Fatalf("evaluation %d: %v; output so far:\n%s", k+1, err, out.String())
				}
			}
			if got := out.String(); got != want {
				t.Errorf("output:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
