package interp_test

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirStructLiteralIntoInterfaceLocation checks sbir patch 230: a
// struct literal assigned to an interface that is not a variable of the
// function itself (a slice, array or map element, a field, a pointer's
// target, a variable a closure captured) holds the struct. The literal
// stored a valueInterface in its own slot, of the struct's type, and the
// program stopped with "reflect.Set: value of type interp.valueInterface
// is not assignable to type struct". The wanted output is go run's.
func TestSbirStructLiteralIntoInterfaceLocation(t *testing.T) {
	src := `package main

import "fmt"

type L interface{ Val() int }
type sq struct{ s int }

func (q sq) Val() int { return q.s }

type E struct{}

func (q E) Val() int { return -1 }

type H struct {
	l L
	a any
	e error
}

type myErr struct{ c int }

func (m myErr) Error() string { return fmt.Sprint("err", m.c) }

func main() {
	sl := make([]L, 3)
	sl[0] = sq{1}
	sl[1] = sq{s: 2}
	sl[2] = E{}
	var arr [2]L
	arr[0] = sq{3}
	m := map[string]L{}
	m["a"] = sq{4}
	var h H
	h.l = sq{5}
	h.a = sq{6}
	h.e = myErr{7}
	hp := &H{}
	hp.l = sq{8}
	hp.e = myErr{9}
	var x L
	var y any
	var z error
	func() {
		x = sq{10}
		y = sq{11}
		z = myErr{12}
	}()
	as := make([]any, 1)
	as[0] = sq{13}
	es := make([]error, 1)
	es[0] = myErr{14}
	pl := new(L)
	*pl = sq{15}
	fmt.Println(sl[0].Val(), sl[1].Val(), sl[2].Val(), arr[0].Val(), m["a"].Val(), h.l.Val(), h.a, h.e, hp.l.Val(), hp.e)
	fmt.Println(x.Val(), y, z, as[0], es[0], (*pl).Val())
	_, ok := as[0].(sq)
	_, ok2 := y.(L)
	fmt.Println(ok, ok2)
}
`
	want := "1 2 -1 3 4 5 {6} err7 8 err9\n10 {11} err12 {13} err14 15\ntrue true\n"
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(src); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if got := out.String(); got != want {
		t.Errorf("output:\n%s\nwant (go run's):\n%s", got, want)
	}
}
