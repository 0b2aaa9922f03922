package interp_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"
)

// intTierMethods is a program for sbir patch S17, methods in the int
// tier: pointer receivers whose fields are read and written at their
// offsets (through embedded structs too), value receivers whose fields
// are copied at the call, an addressable struct and slice elements as
// receivers, a map element (not addressable) and method values and
// expressions (the interpreter's path), nil receivers (which must panic
// as gc's code does), a method that may divide by zero, methods without
// a result, unnamed and blank receivers, a method calling a function of
// the tier, a method of a defined int (no struct: the interpreter's),
// and goroutines calling methods at once. The wanted output is go run's.
const intTierMethods = `package main

import (
	"fmt"
	"sync"
)

type stats struct {
	n, sum int
}

type account struct {
	name     string
	balance  int
	deposits int
	refused  int
	frozen   bool
	st       stats
	*audit
}

type audit struct{ checks int }

func (a *account) deposit(x int) {
	a.balance += x
	a.deposits++
	a.st.n++
	a.st.sum += x
}

func (a *account) withdraw(x int) bool {
	if a.frozen || x > a.balance {
		a.refused++
		return false
	}
	a.balance -= x
	return true
}

func (a *account) swap() { a.balance, a.deposits = a.deposits, a.balance }

func (a account) rich() bool { return a.balance > 1000 }

// a value receiver written: its copy only
func (a account) spend(x int) int {
	a.balance -= x
	a.deposits = 0
	return a.balance + a.deposits
}

func (a *account) freeze(on bool) { a.frozen = on }

func (a *account) mean() int { return a.st.sum / a.st.n } // may panic: reads only

func (a *account) sumTo(k int) int {
	s := 0
	for i := 0; i < k; i++ {
		s += a.balance % (i + 1)
	}
	return s
}

func (a *account) checks() int { return a.audit.checks } // through a pointer: interpreter

func (*account) unnamed(x int) int { return x * 2 }

func (_ account) blank(x int) int { return x + 1 }

func twice(x int) int { return 2 * x }

func (a *account) doubled() int { return twice(a.balance) }

type celsius int

func (c celsius) warm() celsius { return c*9/5 + 32 }

type ledger struct{ accts []account }

func try(name string, f func()) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Println(name, "panic:", r)
		}
	}()
	f()
}

func main() {
	a := &account{name: "a", audit: &audit{checks: 3}}
	rich := 0
	for i := 0; i < 3000; i++ {
		if i%3 == 0 {
			a.withdraw(i % 250)
		} else {
			a.deposit(i % 100)
		}
		if a.rich() {
			rich++
		}
	}
	fmt.Println(a.balance, a.deposits, a.refused, rich, a.st)
	fmt.Println(a.spend(100), a.balance, a.deposits)
	a.freeze(true)
	fmt.Println(a.withdraw(1), a.refused, a.frozen)
	a.freeze(false)
	fmt.Println(a.withdraw(1), a.mean(), a.sumTo(50), a.checks(), a.unnamed(21), a.blank(1), a.doubled())
	a.swap()
	fmt.Println(a.balance, a.deposits)

	// an addressable struct: the pointer method writes it
	var b account
	b.deposit(5)
	b.deposit(7)
	fmt.Println(b.balance, b.deposits, b.rich(), b.spend(2), b.balance)

	// slice elements, a map element (not addressable), a method value
	l := ledger{accts: make([]account, 3)}
	for i := range l.accts {
		l.accts[i].deposit(i * 10)
		l.accts[i].deposit(1)
	}
	fmt.Println(l.accts[2].balance, l.accts[1].rich())
	m := map[string]account{"k": {balance: 2000}}
	fmt.Println(m["k"].rich(), m["k"].spend(5))
	f := a.deposit
	f(1000)
	g := (*account).withdraw
	fmt.Println(g(a, 10), a.balance)
	var v celsius = 100
	fmt.Println(v.warm())

	// nil receivers panic as gc's code does
	var z *account
	try("deposit", func() { z.deposit(1) })
	try("rich", func() { z.rich() })
	try("mean", func() { (&account{}).mean() })

	// goroutines, each on its own account and on a shared one under a lock
	var wg sync.WaitGroup
	var mu sync.Mutex
	shared := &account{}
	accts := make([]*account, 4)
	for k := range accts {
		accts[k] = &account{}
		wg.Add(1)
		go func(x *account) {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				x.deposit(i)
				mu.Lock()
				shared.deposit(1)
				mu.Unlock()
			}
		}(accts[k])
	}
	wg.Wait()
	fmt.Println(accts[0].balance, accts[3].deposits, shared.balance)
}
`

const intTierMethodsWant = `212 2000 116 1274 {2000 99000}
112 212 2000
false 117 true
true 49 540 3 42 2 422
2000 211
12 2 false 10 12
21 false
true 1995
true 2990
212
deposit panic: runtime error: invalid memory address or nil pointer dereference
rich panic: runtime error: invalid memory address or nil pointer dereference
mean panic: runtime error: integer divide by zero
124750 500 2000
`

func TestSbirIntTierMethods(t *testing.T) {
	for _, tier := range []bool{true, false} {
		t.Run(fmt.Sprintf("tier=%v", tier), func(t *testing.T) {
			i, out, errs := intTierInterp(t, tier)
			if _, err := i.Eval(intTierMethods); err != nil {
				t.Fatalf("%v\n%s%s", err, out.String(), errs.String())
			}
			if got := out.String(); got != intTierMethodsWant {
				t.Errorf("output:\n%s\nwant (go run's):\n%s", got, intTierMethodsWant)
			}
			checkIntTierUsed(t, i, tier)
			// deposit, withdraw, swap, rich, spend, freeze, mean,
			// sumTo, unnamed, blank, doubled: checks reads through a
			// pointer, warm's receiver is no struct.
			if n := interp.IntTierMethods(i); tier && n != 11 {
				t.Errorf("%d methods ran in the int tier, want 11", n)
			}
		})
	}
}

// TestSbirIntTierMethodsRedeclared checks methods of the int tier across
// evaluations, as cells run them (sbir patch S17): a method declared
// again calls its new body, a struct declared again with its fields in
// another order is read at its new offsets, and a value of the old struct
// kept from before still gives the interpreter's answer. Each evaluation's
// output is compared with the interpreter's own (the tier off).
func TestSbirIntTierMethodsRedeclared(t *testing.T) {
	cells := []string{
		`type acct struct{ a, b int; on bool }
func (x *acct) put(v int) { x.a += v; x.b++ }
func (x acct) sum() int { return x.a + x.b }
var old = &acct{}`,
		`for i := 0; i < 10; i++ { old.put(i) }; fmt.Println(old.a, old.b, old.sum())`,
		`func (x *acct) put(v int) { x.a -= v; x.on = !x.on }`,
		`for i := 0; i < 10; i++ { old.put(i) }; fmt.Println(old.a, old.b, old.on, old.sum())`,
		`type acct struct{ on bool; pad string; b, a int }
func (x *acct) put(v int) { x.a += 2 * v; x.b-- }
func (x acct) sum() int { return x.a * x.b }
var cur = &acct{}`,
		`for i := 0; i < 10; i++ { cur.put(i) }; fmt.Println(cur.a, cur.b, cur.sum())`,
		`fmt.Println(old.a, old.b, old.on)`,
	}
	var want []string
	for _, tier := range []bool{false, true} {
		i, out, errs := intTierInterp(t, tier)
		if _, err := i.Eval(`import "fmt"`); err != nil {
			t.Fatal(err)
		}
		for k, c := range cells {
			out.Reset()
			_, err := i.Eval(c)
			got := fmt.Sprintf("%s%v", out.String(), err)
			if !tier {
				want = append(want, got)
				continue
			}
			if got != want[k] {
				t.Errorf("cell %d with the tier:\n%s\nwithout:\n%s\n%s", k, got, want[k], errs.String())
			}
		}
		if tier && interp.IntTierMethods(i) < 4 {
			t.Errorf("%d methods ran in the int tier, want 4 or more", interp.IntTierMethods(i))
		}
	}
}

// TestSbirIntTierMethodInterrupted checks that a method of the int tier
// that loops writing its receiver stops when its evaluation is stopped
// (the evaluation returns), and that its receiver holds what it wrote
// (sbir patch S17).
func TestSbirIntTierMethodInterrupted(t *testing.T) {
	i, out, errs := intTierInterp(t, true)
	if _, err := i.Eval(`
type ctr struct{ n, laps int }
func (c *ctr) spin() { for { c.n++; if c.n == 1<<20 { c.n = 0; c.laps++ } } }
var c = &ctr{}`); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := i.Eval("c.spin()")
		done <- err
	}()
	// Stop once the method runs in the tier.
	deadline := time.Now().Add(time.Minute * slowFactor())
	for interp.IntTierMethods(i) == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if interp.IntTierMethods(i) == 0 {
		t.Fatal("the method did not run in the int tier within a minute")
	}
	interp.StopRunning(i)
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("the interrupted evaluation: %v", err)
		}
	case <-time.After(time.Minute * slowFactor()):
		t.Fatal("still running a minute after it was stopped")
	}
	v, err := i.Eval("c.n + c.laps<<20 > 0")
	if err != nil || !v.Bool() {
		t.Errorf("after the interrupt: c.n + c.laps<<20 > 0 = %v, %v, want true\n%s%s", v, err, out.String(), errs.String())
	}
}
