package interp_test

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirInterpretedIfaceToCompiledIface checks that a struct held in an
// interpreted interface keeps itself as the receiver of its methods when
// the interface value is converted to a compiled one (io.Closer): the
// method got the struct's last field (its name), and reflect.Set panicked
// (upstream's _test/issue-1260.go).
func TestSbirInterpretedIfaceToCompiledIface(t *testing.T) {
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	src := `package main

import (
	"fmt"
	"io"
)

type Sink interface{ io.Closer }

type File struct{ name string }

func (f File) Close() error { fmt.Println("close", f.name); return nil }

type Wrapped struct{ File }

func open(name string) Sink { return File{name} }

func main() {
	s := open("a")
	var c io.Closer = s
	fmt.Println(c.Close())
	var w Sink = Wrapped{File{"w"}}
	all := append([]io.Closer{}, s, open("b"), w)
	fmt.Println(len(all), all[1].Close(), all[2].Close())
	f := File{"before"}
	s = f
	c = s
	f.name = "after"
	c.Close()
}
`
	if _, err := i.Eval(src); err != nil {
		t.Fatal(err)
	}
	want := "close a\n<nil>\nclose b\nclose w\n3 <nil> <nil>\nclose before\n"
	if got := out.String(); got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}
