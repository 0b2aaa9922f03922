package interp_test

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirCapturedAssigned checks that a closure assigning a struct
// literal or a received value to a variable it captured sets that
// variable (sbir patch 100): in a closure called in place, in one inside
// another, in a goroutine's, and in one made in a method. Each left the
// variable as it was ({0 0} and 0 instead of the values below, which are
// go run's).
func TestSbirCapturedAssigned(t *testing.T) {
	const src = `package main

import (
	"fmt"
	"sync"
)

type pt struct{ x, y int }

type acc struct{ last pt }

func (a *acc) run(xs []int) pt {
	var got pt
	each := func(v int) { got = pt{v, v * v} }
	for _, x := range xs {
		each(x)
	}
	a.last = got
	return got
}

func main() {
	var lit pt
	var recv int
	c := make(chan int, 1)
	set := func(a int) {
		lit = pt{a, a}
		c <- a * 2
		recv = <-c
	}
	set(3)
	var nested pt
	var nrecv int
	outer := func(a int) {
		inner := func() {
			nested = pt{a, -a}
			c <- a * 100
			nrecv = <-c
		}
		inner()
	}
	outer(4)
	var wg sync.WaitGroup
	var fromGo pt
	var doneVal int
	done := make(chan int, 1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		fromGo = pt{7, 8}
		done <- 9
		doneVal = <-done
	}()
	wg.Wait()
	a := &acc{}
	fmt.Println(lit, recv, nested, nrecv, fromGo, doneVal, a.run([]int{1, 2, 5}), a.last)
}`
	const want = "{3 3} 6 {4 -4} 400 {7 8} 9 {5 25} {5 25}\n"
	var out, stderr bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out, Stderr: &stderr})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(src); err != nil {
		t.Fatalf("%v\n%s%s", err, out.String(), stderr.String())
	}
	if got := out.String(); got != want {
		t.Errorf("output:\n%s\nwant (go run's):\n%s", got, want)
	}
}
