package interp_test

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirCommaOkDefinitionsDeclareNewVariables checks sbir patch 141:
// v, ok := m[k], v, ok := x.(T), v, ok := <-ch and a select case's
// case v := <-ch and case v, ok := <-ch declare new variables at each
// run, so that closures made in a loop each keep their own (and one that
// writes its variable changes no other's), and so do pointers to them.
// Without the patch every closure saw the last iteration's value (12 12
// 12 12). A function with no closure and no address (lookups) sets its
// plain variables in place (no allocation), same answer. An assignment
// (n, found = m[i]) still sets the one variable a closure shares. Both
// ways of receiving run: cancellable (the default) and blocking
// (YAEGI_FAST_CHAN). The want text is go run's.
func TestSbirCommaOkDefinitionsDeclareNewVariables(t *testing.T) {
	const src = `package main

import "fmt"

// lookups has no closure nor address: its variables are set in place.
func lookups(m map[int]int, ch chan int) (int, int) {
	s, n := 0, 0
	for i := 0; i < 3; i++ {
		v, ok := m[i]
		r := <-ch
		r++
		if ok {
			s += v * r
			n++
		}
	}
	return s, n
}

// pointers keeps the address of each iteration's variable.
func pointers(m map[int]int) []*int {
	var ps []*int
	for i := 0; i < 3; i++ {
		v, ok := m[i]
		if ok {
			ps = append(ps, &v)
		}
	}
	return ps
}

func main() {
	m := map[int]int{0: 10, 1: 11, 2: 12}
	is := []any{20, 21, 22}
	ch := make(chan int, 9)
	for i := 0; i < 9; i++ {
		ch <- 30 + i
	}
	var fs [6][]func() int
	for i := 0; i < 3; i++ {
		v, ok := m[i]
		w, isInt := is[i].(int)
		r, open := <-ch
		fs[0] = append(fs[0], func() int { return v })
		fs[1] = append(fs[1], func() int { return w })
		fs[2] = append(fs[2], func() int { return r })
		select {
		case s := <-ch:
			fs[3] = append(fs[3], func() int { return s })
		}
		select {
		case t, more := <-ch:
			fs[4] = append(fs[4], func() int { t++; return t })
			_ = more
		}
		u, _ := m[i]
		u *= 2
		fs[5] = append(fs[5], func() int { return u })
		_, _, _ = ok, isInt, open
	}
	n, found := 0, false
	get := func() int { return n }
	for i := 0; i < 3; i++ {
		n, found = m[i] // an assignment: the same variable
	}
	for _, f := range fs {
		fmt.Println(f[0](), f[1](), f[2](), f[0]())
	}
	fmt.Println(get(), found)
	for i := 0; i < 3; i++ {
		ch <- i
	}
	ps := pointers(m)
	fmt.Println(lookups(m, ch))
	fmt.Println(*ps[0], *ps[1], *ps[2])
}
`
	const want = `10 11 12 10
20 21 22 20
30 33 36 30
31 34 37 31
33 36 39 34
20 22 24 20
12 true
68 3
10 11 12
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
