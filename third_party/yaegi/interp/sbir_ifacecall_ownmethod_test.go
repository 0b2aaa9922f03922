package interp_test

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirInterfaceCallOwnMethodBeforePromoted checks sbir patch 231: a
// method called through an interpreted interface is the one declared on
// the value's type itself, not one of the same name that reflect finds
// promoted from an embedded compiled field (struct{ time.Duration }) or
// on the compiled type a defined type is made from (type D
// time.Duration): calls, assertions, method values, defer and go
// statements all printed time.Duration's String. The wanted output is go
// run's.
func TestSbirInterfaceCallOwnMethodBeforePromoted(t *testing.T) {
	src := `package main

import (
	"fmt"
	"strings"
	"time"
)

type Str interface{ String() string }

type Len interface{ Len() int }

type DS struct{ time.Duration }

func (d DS) String() string { return "own " + d.Duration.String() }

type PS struct{ *strings.Builder }

func (p PS) String() string { return "ps " + p.Builder.String() }
func (p *PS) Len() int      { return -1 }

type MyDur time.Duration

func (d MyDur) String() string { return fmt.Sprint("mydur ", int64(d)) }

func main() {
	d := DS{time.Minute}
	var s Str = d
	fmt.Println(s.String(), s)
	var a any = d
	fmt.Println(a.(Str).String(), a.(fmt.Stringer).String())
	f := s.String
	fmt.Println(f())
	defer func() { fmt.Println("deferred", s.String()) }()
	defer fmt.Println(s.String())
	p := &PS{&strings.Builder{}}
	p.WriteString("x")
	s = p
	var l Len = p
	fmt.Println(s.String(), l.Len(), p.Builder.Len())
	done := make(chan bool)
	go func() { fmt.Println("go", s.String()); done <- true }()
	<-done
	s = MyDur(3)
	fmt.Println(s.String(), s)
	for _, x := range []Str{d, p, MyDur(4), time.Second} {
		fmt.Println(x.String())
	}
}
`
	want := `own 1m0s own 1m0s
own 1m0s own 1m0s
own 1m0s
ps x -1 1
go ps x
mydur 3 mydur 3
own 1m0s
ps x
mydur 4
1s
own 1m0s
deferred mydur 3
`
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
