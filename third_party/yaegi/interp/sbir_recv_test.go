package interp_test

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirReceivedValuesAreVariables checks sbir patch 140: a value
// received from a channel into a variable (v := <-ch, v = <-ch, return
// <-ch) is a variable the program can write: v++, *p += x, a field, an
// element, append, a deferred function setting the named result. Without
// the patch each write panicked ("reflect.Value.SetInt using
// unaddressable value"), and a T received into a fmt.Stringer variable
// printed as a struct. A definition in a loop gives each closure its own
// variable; an assignment sets the variable a closure shares. Both ways
// of receiving run: cancellable (the default) and blocking
// (YAEGI_FAST_CHAN). The want text is go run's.
func TestSbirReceivedValuesAreVariables(t *testing.T) {
	const src = `package main

import "fmt"

type T struct{ X int }

func (t T) String() string { return fmt.Sprint("T", t.X) }

func recvResult() (r int) {
	ch := make(chan int, 1)
	ch <- 4
	defer func() { r++ }()
	return <-ch
}

func recvAny() any {
	ch := make(chan string, 1)
	ch <- "s"
	return <-ch
}

func main() {
	ch := make(chan int, 8)
	for i := 1; i <= 8; i++ {
		ch <- i
	}
	v := <-ch
	v++
	var w int
	w = <-ch
	w *= 10
	p := &v
	*p += 100
	fmt.Println(v, w)

	c := 0
	inc := func() { c++ }
	c = <-ch
	inc()
	fmt.Println(c)

	var fs []func() int
	for i := 0; i < 3; i++ {
		x := <-ch
		x *= 10
		fs = append(fs, func() int { x++; return x })
	}
	fmt.Println(fs[0](), fs[1](), fs[2](), fs[0]())

	blocking := make(chan int)
	go func() { blocking <- 7 }()
	b := <-blocking
	b--
	close(blocking)
	z := <-blocking
	z -= 1
	fmt.Println(b, z)

	ts := make(chan T, 2)
	ts <- T{1}
	ts <- T{2}
	t := <-ts
	t.X += 5
	var s fmt.Stringer
	s = <-ts
	fmt.Println(t, s)
	s = T{3}
	fmt.Println(s)

	as := make(chan any, 1)
	as <- 3
	a := <-as
	a = "y"
	ss := make(chan []int, 1)
	ss <- []int{1}
	sl := <-ss
	sl = append(sl, 2)
	arr := make(chan [2]int, 1)
	arr <- [2]int{1, 2}
	ar := <-arr
	ar[1] = 9
	fmt.Println(a, sl, ar, recvResult(), recvAny())
}
`
	const want = `102 20
4
41 51 61 42
6 -1
T6 T2
T3
y [1 2] [1 9] 5 s
`
	for _, fast := range []string{"", "1"} {
		t.Run("fastchan="+fast, func(t *testing.T) {
			t.Setenv("YAEGI_FAST_CHAN", fast)
			var out bytes.Buffer
			i := interp.New(interp.Options{Stdout: &out})
			if err := i.Use(stdlib.Symbols); err != nil {
				t.Fatal(err)
			}
			if _, err := i.Eval(src); err != nil {
				t.Fatalf("%v\noutput so far:\n%s", err, out.String())
			}
			if got := out.String(); got != want {
				t.Errorf("output:\n%s\nwant (go run's):\n%s", got, want)
			}
		})
	}
}
