package interp_test

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// interfaceCalls is a program for sbir patch S18, calls through
// interfaces run directly: value and pointer receivers of several types
// at one site (ten types at one: more than a site remembers), a value
// copied into an interface, promoted methods (of an embedded struct and
// of an embedded interface: getMethodByName's way), a nil pointer with
// a pointer method (which runs) and a value method (which panics), a nil
// interface, variadic methods, several results, errors, sort.Interface,
// compiled types (time.Duration, *strings.Builder), type switches,
// method values and expressions, defer and goroutines. The wanted output
// is go run's.
const interfaceCalls = `package main

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
)

type shape interface {
	area() float64
	name() string
}

type rect struct{ w, h float64 }
type circle struct{ r float64 }
type square struct{ rect }       // promoted methods from an embedded struct
type labelled struct{ shape }    // methods of an embedded interface
type counted struct{ n *int }    // a pointer inside a value receiver

func (r rect) area() float64     { return r.w * r.h }
func (r rect) name() string      { return "rect" }
func (c circle) area() float64   { return 3 * c.r * c.r }
func (c circle) name() string    { return "circle" }
func (l labelled) name() string  { return "labelled " + l.shape.name() }
func (c counted) area() float64  { *c.n++; return float64(*c.n) }
func (c counted) name() string   { return "counted" }

type mover interface {
	move(dx, dy int) (int, int)
	pos() string
}

type point struct{ x, y int }

func (p *point) move(dx, dy int) (int, int) { p.x += dx; p.y += dy; return p.x, p.y }
func (p *point) pos() string {
	if p == nil {
		return "nowhere"
	}
	return fmt.Sprint(p.x, ",", p.y)
}

type summer interface{ sum(xs ...int) int }
type adder struct{ base int }

func (a adder) sum(xs ...int) int {
	s := a.base
	for _, x := range xs {
		s += x
	}
	return s
}

type notFound struct{ key string }

func (e *notFound) Error() string { return "not found: " + e.key }

func find(k string) error {
	if k == "" {
		return nil
	}
	return &notFound{k}
}

type byLen []string

func (b byLen) Len() int           { return len(b) }
func (b byLen) Less(i, j int) bool { return len(b[i]) < len(b[j]) }
func (b byLen) Swap(i, j int)      { b[i], b[j] = b[j], b[i] }

// many types at one call site: more than a site remembers
type k0 struct{}
type k1 struct{}
type k2 struct{}
type k3 struct{}
type k4 struct{}
type k5 struct{}
type k6 struct{}
type k7 struct{}
type k8 struct{}
type k9 struct{}

type kinder interface{ kind() int }

func (k0) kind() int { return 0 }
func (k1) kind() int { return 1 }
func (k2) kind() int { return 2 }
func (k3) kind() int { return 3 }
func (k4) kind() int { return 4 }
func (k5) kind() int { return 5 }
func (k6) kind() int { return 6 }
func (k7) kind() int { return 7 }
func (k8) kind() int { return 8 }
func (k9) kind() int { return 9 }

func try(name string, f func()) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Println(name, "panic:", r)
		}
	}()
	f()
}

func main() {
	n := 0
	shapes := []shape{rect{1, 2}, circle{1}, square{rect{3, 3}}, labelled{circle{2}}, counted{&n}}
	total := 0.0
	var names []string
	for i := 0; i < 10; i++ {
		s := shapes[i%len(shapes)]
		total += s.area()
		names = append(names, s.name())
	}
	fmt.Println(total, n, strings.Join(names[:5], "|"))

	// a value in an interface is a copy
	r := rect{2, 2}
	var s shape = r
	r.w = 10
	fmt.Println(s.area(), r.area())

	// pointer receivers through an interface write the pointee
	p := &point{}
	var m mover = p
	for i := 0; i < 3; i++ {
		m.move(i, 2*i)
	}
	x, y := m.move(1, 1)
	fmt.Println(x, y, m.pos(), p.x)
	var nilp *point
	m = nilp
	fmt.Println(m.pos())
	try("nil pointer, pointer method writing", func() { m.move(1, 1) })
	var g shape = (*rect)(nil)
	try("nil pointer, value method", func() { g.area() })
	var none shape
	try("nil interface", func() { none.area() })

	// variadic, multiple results, errors, sort.Interface, compiled types
	var sm summer = adder{10}
	xs := []int{1, 2, 3}
	fmt.Println(sm.sum(), sm.sum(1, 2), sm.sum(xs...))
	err := find("k")
	nf, ok := err.(*notFound)
	fmt.Println(err.Error(), ok, nf.key, find("") == nil, errors.Unwrap(err) == nil)
	words := byLen{"ccc", "a", "bb"}
	var si sort.Interface = words
	sort.Sort(si)
	fmt.Println(words, si.Len(), si.Less(0, 1))
	d := 1500 * time.Millisecond
	var st fmt.Stringer = d
	fmt.Println(st.String())
	var sb strings.Builder
	var wr interface{ WriteString(string) (int, error) } = &sb
	wr.WriteString("hi")
	fmt.Println(sb.String())

	// a type switch and an interface result
	for _, v := range shapes[:2] {
		switch t := v.(type) {
		case rect:
			fmt.Println("rect", t.w, v.name())
		case circle:
			fmt.Println("circle", t.r, v.name())
		}
	}

	// one site, ten types
	ks := []kinder{k0{}, k1{}, k2{}, k3{}, k4{}, k5{}, k6{}, k7{}, k8{}, k9{}}
	sum := 0
	for i := 0; i < 100; i++ {
		sum += ks[i%10].kind() * (i + 1)
	}
	fmt.Println(sum)

	// method values and expressions, defer and go through interfaces
	f := s.area
	fmt.Println(f())
	h := shape.name
	fmt.Println(h(circle{}))
	func() {
		defer fmt.Println("deferred", s.name())
		defer s.area()
	}()
	var wg sync.WaitGroup
	var mu sync.Mutex
	pts := make([]mover, 4)
	for i := range pts {
		pts[i] = &point{}
	}
	for i := range pts {
		wg.Add(1)
		go func(mv mover) {
			defer wg.Done()
			for j := 0; j < 200; j++ {
				mu.Lock()
				mv.move(1, j)
				mu.Unlock()
			}
		}(pts[i])
	}
	wg.Wait()
	fmt.Println(pts[0].pos(), pts[3].pos())
}
`

const interfaceCallsWant = `55 2 rect|circle|rect|labelled circle|counted
4 20
4 7 4,7 4
nowhere
nil pointer, pointer method writing panic: runtime error: invalid memory address or nil pointer dereference
nil pointer, value method panic: runtime error: invalid memory address or nil pointer dereference
nil interface panic: runtime error: invalid memory address or nil pointer dereference
10 13 16
not found: k true k true true
[a bb ccc] 3 true
1.5s
hi
rect 1 rect
circle 1 circle
23550
4
circle
deferred rect
200,19900 200,19900
`

func TestSbirInterfaceCalls(t *testing.T) {
	var out, errs bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out, Stderr: &errs})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(interfaceCalls); err != nil {
		t.Fatalf("%v\n%s%s", err, out.String(), errs.String())
	}
	if got := out.String(); got != interfaceCallsWant {
		t.Errorf("output:\n%s\nwant (go run's):\n%s", got, interfaceCallsWant)
	}
	// Sites that ran methods directly: area and name of rect, circle and
	// counted, name of labelled; move and pos of *point (and pos at
	// nil); sum; Error; Len and Less; ten kinds; name in the type switch
	// (two types); area of the value copy and of the nil *rect.
	if n := interp.InterfaceMethodsLearnt(i); n < 20 {
		t.Errorf("%d methods were run directly through interfaces, want 20 or more", n)
	}
}
