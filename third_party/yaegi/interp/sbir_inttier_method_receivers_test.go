package interp_test

import (
	"fmt"
	"testing"

	"github.com/traefik/yaegi/interp"
)

// intTierMethodReceivers is a program of receivers that S17's tests did
// not cover, from a red team of sbir patch S17 that found no fault in
// them: one method body of a generic struct given receivers of several
// layouts; receivers through arrays, pointers and pointers to pointers;
// calls that panic in the tier and run again in the interpreter whose
// receiver is a channel receive or a call's result (computed once); the
// receiver read after the arguments' calls, as gc reads it; fields and
// results of compiled defined int types and a bool result. The wanted
// output is go run's.
const intTierMethodReceivers = `package main

import (
	"fmt"
	"time"
)

type Num[T ~int | ~int64 | ~int32] struct {
	pre T
	v   T
	c   int
}

func (n *Num[T]) add(d T) T { n.v += d; n.c++; n.pre = n.v - 1; return n.v }
func (n Num[T]) twice() T   { return n.v * 2 }

type In struct{ a, b int }

func (i *In) inc()          { i.a++; i.b += 2 }
func (i *In) div(v int) int { return i.a / v }
func (i In) vdiv(v int) int { return i.b / v }
func (i In) vm(d int) int   { return i.a*100 + d }
func (i *In) bump() int     { i.a++; return i.a }

type W struct {
	arr [3]In
	p   *In
	pp  **In
}

type Clock struct {
	d    time.Duration
	when time.Month
	on   bool
}

func (c *Clock) add(x time.Duration) time.Duration { c.d += x; return c.d }
func (c Clock) dur() time.Duration                 { return c.d * 2 }
func (c *Clock) next() time.Month                  { c.when++; return c.when }
func (c *Clock) flip() bool                        { c.on = !c.on; return c.on }

var calls int

func pick(ps []*In) *In { calls++; return ps[calls%len(ps)] }

func try(name string, f func()) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Println(name, "panic:", r)
		}
	}()
	f()
}

func main() {
	// Generic structs: one method body, receivers of several layouts.
	a, b, d := &Num[int]{}, &Num[int32]{}, Num[int64]{}
	for i := 0; i < 100; i++ {
		a.add(i)
		b.add(int32(i) * 1000000)
		d.add(int64(i))
	}
	fmt.Println(*a, a.twice(), *b, b.twice(), d, d.twice())

	// Receivers through arrays, pointers and pointers to pointers.
	var w W
	w.p = &In{}
	w.pp = &w.p
	ws := []W{w, w}
	for i := 0; i < 3; i++ {
		w.arr[i].inc()
		ws[1].arr[i].inc()
		w.p.inc()
		(*w.pp).inc()
		(&w.arr[0]).inc()
		(*(&ws[0])).arr[2].inc()
	}
	fmt.Println(w.arr, *w.p, ws[0].arr, ws[1].arr)

	// A call that panics in the tier runs again in the interpreter: its
	// receiver, a channel receive or a call's result, is not computed
	// twice.
	ch := make(chan *In, 3)
	ch <- &In{1, 1}
	ch <- &In{2, 2}
	ch <- nil
	try("chan div", func() { fmt.Println((<-ch).div(0)) })
	fmt.Println(len(ch), (<-ch).div(1), len(ch))
	try("chan nil", func() { (<-ch).inc() })
	ps := []*In{{10, 0}, {20, 0}, {30, 0}}
	try("call div", func() { fmt.Println(pick(ps).div(0)) })
	try("call vdiv", func() { fmt.Println(pick(ps).vdiv(0)) })
	fmt.Println(calls, pick(ps).bump(), calls)

	// The receiver is read after the arguments' calls, as gc reads it.
	v := In{1, 0}
	fmt.Println(v.vm(v.bump()), v.vm(v.bump())+v.vm(v.bump()), v.a)

	// Fields and results of compiled defined int types, a bool result.
	var c Clock
	c.add(time.Second)
	var s fmt.Stringer = c.add(time.Millisecond)
	var x interface{} = c.dur()
	fmt.Println(s, x, c.next(), c.next(), c.flip())
	on := c.flip()
	fmt.Printf("%v %T %T\n", on, c.dur(), c.next())
}
`

const intTierMethodReceiversWant = `{4949 4950 100} 9900 {655032703 655032704 100} 1310065408 {4949 4950 100} 9900
[{4 8} {1 2} {1 2}] {6 12} [{0 0} {0 0} {3 6}] [{1 2} {1 2} {1 2}]
chan div panic: runtime error: integer divide by zero
2 2 1
chan nil panic: runtime error: invalid memory address or nil pointer dereference
call div panic: runtime error: integer divide by zero
call vdiv panic: runtime error: integer divide by zero
3 11 3
202 707 4
1.001s 2.002s January February true
false time.Duration time.Month
`

func TestSbirIntTierMethodReceivers(t *testing.T) {
	for _, tier := range []bool{true, false} {
		t.Run(fmt.Sprintf("tier=%v", tier), func(t *testing.T) {
			i, out, errs := intTierInterp(t, tier)
			if _, err := i.Eval(intTierMethodReceivers); err != nil {
				t.Fatalf("%v\n%s%s", err, out.String(), errs.String())
			}
			if got := out.String(); got != intTierMethodReceiversWant {
				t.Errorf("output:\n%s\nwant (go run's):\n%s", got, intTierMethodReceiversWant)
			}
			checkIntTierUsed(t, i, tier)
			// add and twice (one each for the generic struct), inc,
			// div, vdiv, vm, bump, and Clock's four.
			if n := interp.IntTierMethods(i); tier && n < 11 {
				t.Errorf("%d methods ran in the int tier, want 11 or more", n)
			}
		})
	}
}
