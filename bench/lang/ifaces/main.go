// Ifaces calls methods through interfaces in a loop: value receivers of
// two struct types behind one interface, and a pointer receiver behind
// another.
package main

import (
	"fmt"
	"os"
	"time"
)

const n = 1_000_000 // small: 10_000

type shape interface {
	area() float64
	sides() int
}

type rect struct{ w, h float64 }
type circle struct{ r float64 }

func (r rect) area() float64   { return r.w * r.h }
func (r rect) sides() int      { return 4 }
func (c circle) area() float64 { return 3 * c.r * c.r }
func (c circle) sides() int    { return 0 }

type counter interface{ add(x int) }

type tally struct{ total, calls int }

func (t *tally) add(x int) {
	t.total += x
	t.calls++
}

func main() {
	start := time.Now()
	shapes := []shape{rect{1, 2}, circle{1}, rect{3, 4}}
	area := 0.0
	sides := 0
	t := &tally{}
	var c counter = t
	for i := 0; i < n; i++ {
		s := shapes[i%3]
		area += s.area()
		sides += s.sides()
		c.add(i % 7)
	}
	fmt.Fprintf(os.Stderr, "bench-seconds %.6f\n", time.Since(start).Seconds())
	fmt.Println("area", int(area), "sides", sides, "total", t.total, "calls", t.calls)
}
