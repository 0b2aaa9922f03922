package interp_test

import "testing"

// TestSbirMethodExpressionsAndValues checks sbir patch 68: method
// expressions of interpreted interface types (Namer.Name is a function
// taking the receiver first), %T of func types as gc prints them, and
// method values of value-receiver methods binding a copy of the
// receiver when they are evaluated. The outputs are go run's.
func TestSbirMethodExpressionsAndValues(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"interface method expressions", `package main

import "fmt"

type P struct{}

type Namer interface {
	Name(prefix string, n int) (string, error)
	Count() int
}

type dog struct{ n string }

func (d dog) Name(p string, n int) (string, error) { return fmt.Sprint(p, d.n, n), nil }
func (d *dog) Count() int                           { return len(d.n) }

func two(p P, s string) (int, error) { return 0, nil }
func vari(xs ...int) int             { return len(xs) }

func main() {
	fmt.Printf("%T\n", two)
	f := func(a P, b string) {}
	fmt.Printf("%T|%T|%T\n", f, vari, func() {})
	nm := Namer.Name
	fmt.Printf("%T\n", nm)
	fmt.Println(nm(&dog{"rex"}, "dog:", 2))
	cnt := Namer.Count
	fmt.Println(cnt(&dog{"fido"}))
	defer func() { fmt.Println("recovered:", recover()) }()
	var none Namer
	fmt.Println(cnt(none))
}
`, "func(main.P, string) (int, error)\nfunc(main.P, string)|func(...int) int|func()\nfunc(main.Namer, string, int) (string, error)\ndog:rex2 <nil>\n4\nrecovered: runtime error: invalid memory address or nil pointer dereference\n"},
		{"method values", `package main

import (
	"fmt"
	"sort"
)

type Pt struct{ X, Y int }

func (p Pt) Sum() int     { return p.X + p.Y }
func (p *Pt) Move(dx int) { p.X += dx }

type Named struct {
	Pt
	name string
}

func (n Named) Label() string { return fmt.Sprint(n.name, n.Sum()) }

type Temp float64

func (t Temp) F() float64 { return float64(t)*9/5 + 32 }

func main() {
	p := Pt{1, 2}
	sum := p.Sum
	move := p.Move
	move(10)
	fmt.Println(sum(), p.Sum())
	pp := &p
	s2 := pp.Sum
	pp.X = 100
	fmt.Println(s2(), pp.Sum())
	n := Named{Pt{1, 1}, "n"}
	lab, nsum := n.Label, n.Sum
	n.X, n.name = 5, "m"
	fmt.Println(lab(), nsum(), n.Label())
	t := Temp(100)
	ff := t.F
	t = 0
	fmt.Println(ff(), t.F())
	var fs []func() int
	for i := range 3 {
		q := Pt{i, i}
		fs = append(fs, q.Sum)
		q.X = 50
	}
	for _, f := range fs {
		fmt.Print(f(), " ")
	}
	fmt.Println()
	pts := []Pt{{3, 0}, {1, 0}, {2, 0}}
	sort.Slice(pts, func(i, j int) bool { return pts[i].Sum() < pts[j].Sum() })
	fmt.Println(pts)
	sumExpr := Pt.Sum
	moveExpr := (*Pt).Move
	moveExpr(&p, 1)
	fmt.Printf("%d %T %T\n", sumExpr(p), sumExpr, moveExpr)
}
`, "3 13\n13 102\nn2 2 m6\n212 32\n0 2 4 \n[{1 0} {2 0} {3 0}]\n103 func(main.Pt) int func(*main.Pt, int)\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := runProgram(t, c.src); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}
