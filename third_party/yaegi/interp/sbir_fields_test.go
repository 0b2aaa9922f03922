package interp_test

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirMethodFieldsAndReceivers runs programs whose methods read and
// update int fields through their receivers (sbir patch S11b) and whose
// call sites set pointer and value receivers without reflect (S11a):
// fields of pointer and value receivers and of local structs, updated
// with +=, -=, *=, ++ and --, compared and added on either side of the
// operator, named int types, int64 and int32 fields, promoted fields, a
// linked list, overflow, value receivers that are copies (changed by the
// method, or changed through another pointer during the call), a
// receiver variable assigned in the method, receivers that change
// between calls at one site, goroutines, recursion, and nil pointers
// (patch 104: a value method called through a nil pointer fails with
// gc's runtime error, not reflect's "Set on zero Value"). Each runs with
// frames used again and with frames spoiled when given back (S8). The
// wanted outputs are go run's.
func TestSbirMethodFieldsAndReceivers(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"fields and receivers", `package main

import (
	"fmt"
	"math"
)

type account struct {
	balance  int
	deposits int64
	refused  int
	rate     float64
	small    int32
	name     string
}

type money int

type wallet struct {
	cash money
	acct *account
}

type inner struct{ n int }
type outer struct {
	inner
	m int
}

type list struct {
	next *list
	v    int
}

func (a *account) deposit(x int) {
	a.balance += x
	a.deposits++
	a.small += 2
}

func (a *account) withdraw(x int) bool {
	if x > a.balance {
		a.refused++
		return false
	}
	a.balance -= x
	return true
}

func (a *account) ops(x int) (int, int, int, bool, bool, bool) {
	a.balance *= 3
	a.balance -= 7
	a.refused--
	s := a.balance + x
	d := x - a.balance
	m := a.refused * 5
	return s, d, m, a.balance == x, 10 != a.refused, a.balance <= 2
}

func (a account) rich() bool { return a.balance > 1000 }

func (a account) spend() int {
	a.balance -= 100 // a copy: the caller's account is unchanged
	return a.balance
}

func (a account) sum(b *account) int {
	b.balance += 1000 // a is a copy made before the call
	return a.balance + b.balance
}

func (a *account) swap() int {
	a = &account{balance: 5} // the receiver variable only
	a.balance++
	return a.balance
}

func (w *wallet) add(x money) money {
	w.cash += x
	w.cash++
	return w.cash
}

func (o *outer) bump() int {
	o.n++ // promoted field
	o.m += 2
	return o.n + o.m
}

func (l *list) total() int {
	s := 0
	for p := l; p != nil; p = p.next {
		p.v += 1
		s += p.v
	}
	return s
}

func local(k int) (int, bool) {
	var s account
	s.balance += k
	s.balance *= 2
	s.refused++
	if s.balance > 10 {
		return s.balance - 1, true
	}
	return s.balance + s.refused, s.refused == 1
}

func over() (int, int64) {
	a := &account{balance: math.MaxInt, deposits: math.MinInt64}
	a.balance++
	a.deposits--
	return a.balance, a.deposits
}

func main() {
	acct := &account{rate: 1.5, name: "x"}
	rich := 0
	for i := 0; i < 3000; i++ {
		if i%3 == 0 {
			acct.withdraw(i % 250)
		} else {
			acct.deposit(i % 100)
		}
		if acct.rich() {
			rich++
		}
	}
	fmt.Println(acct.balance, acct.deposits, acct.refused, acct.small, rich)
	fmt.Println(acct.spend(), acct.balance)
	b := &account{balance: 1}
	fmt.Println(acct.sum(b), acct.balance, b.balance)
	fmt.Println(acct.sum(acct), acct.balance)
	fmt.Println(acct.swap(), acct.balance)
	fmt.Println(acct.ops(4))
	fmt.Println(acct.ops(-4))
	w := &wallet{acct: acct}
	fmt.Println(w.add(3), w.add(4), w.cash)
	o := &outer{}
	fmt.Println(o.bump(), o.bump(), o.n, o.m)
	l := &list{v: 1, next: &list{v: 2, next: &list{v: 3}}}
	fmt.Println(l.total(), l.total())
	fmt.Println(local(3))
	fmt.Println(local(30))
	fmt.Println(over())
	var v account
	v.balance = 2000
	fmt.Println(v.rich(), (&v).rich())
}
`, "212 2000 116 4000 1274\n112 212\n1213 212 1001\n1424 1212\n6 1212\n3633 -3625 575 false true false\n10876 -10884 570 false true false\n4 9 9\n3 6 2 4\n9 12\n7 true\n59 true\n-9223372036854775808 9223372036854775807\ntrue true\n"},
		{"nil pointers, goroutines, changing receivers", `package main

import (
	"fmt"
	"sync"
)

type counter struct{ n, hits int }

func (c *counter) inc(k int) {
	c.n += k
	c.hits++
}

func (c counter) get() int { return c.n }

func (c counter) big() bool { return c.n >= 100 }

type box struct{ c *counter }

func main() {
	// a nil pointer: gc's runtime error, for a field and a value method
	var p *counter
	func() {
		defer func() { fmt.Println("recovered:", recover()) }()
		p.inc(1)
	}()
	func() {
		defer func() { fmt.Println("recovered:", recover()) }()
		fmt.Println(p.get())
	}()
	func() {
		defer func() { fmt.Println("recovered:", recover()) }()
		fmt.Println(p.big())
	}()
	// goroutines, each with its own counter, and one shared under a lock
	var wg sync.WaitGroup
	var mu sync.Mutex
	shared := &counter{}
	cs := make([]*counter, 4)
	for g := 0; g < 4; g++ {
		cs[g] = &counter{}
		wg.Add(1)
		go func(c *counter, g int) {
			defer wg.Done()
			for i := 0; i < 1000; i++ {
				c.inc(g)
				mu.Lock()
				shared.inc(1)
				mu.Unlock()
			}
		}(cs[g], g)
	}
	wg.Wait()
	for _, c := range cs {
		fmt.Print(c.get(), " ", c.hits, " ", c.big(), "; ")
	}
	fmt.Println(shared.get(), shared.hits)
	// receivers that change between calls at one site
	cs2 := []*counter{{n: 1}, {n: 200}, {n: 3}}
	for _, c := range cs2 {
		c.inc(1)
		fmt.Print(c.get(), c.big(), " ")
	}
	fmt.Println()
	// a receiver reached through a field
	b := box{c: &counter{n: 7}}
	b.c.inc(3)
	fmt.Println(b.c.get(), b.c.big())
	// recursion through methods
	fmt.Println(depth(&counter{}, 50))
}

func depth(c *counter, k int) int {
	if k == 0 {
		return c.get()
	}
	c.inc(1)
	r := depth(c, k-1)
	c.inc(1)
	return r + c.get()
}
`, "recovered: runtime error: invalid memory address or nil pointer dereference\nrecovered: runtime error: invalid memory address or nil pointer dereference\nrecovered: runtime error: invalid memory address or nil pointer dereference\n0 1000 false; 1000 1000 true; 2000 1000 true; 3000 1000 true; 4000 4000\n2 false 201 true 4 false \n10 false\n3825\n"},
	}
	for _, tt := range tests {
		for _, spoil := range []bool{false, true} {
			t.Run(tt.name, func(t *testing.T) {
				var out, stderr bytes.Buffer
				i := interp.New(interp.Options{Stdout: &out, Stderr: &stderr})
				if err := i.Use(stdlib.Symbols); err != nil {
					t.Fatal(err)
				}
				if spoil {
					interp.SpoilReleasedFrames(i)
				}
				if _, err := i.Eval(tt.src); err != nil {
					t.Fatalf("%v\n%s%s", err, out.String(), stderr.String())
				}
				if got := out.String(); got != tt.want {
					t.Errorf("spoil %v: output:\n%s\nwant (go run's):\n%s", spoil, got, tt.want)
				}
			})
		}
	}
}
