package interp_test

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirInterpretedIfaceStructToCompiledIface checks sbir patch 232: a
// struct held in an interpreted interface, assigned to a compiled one
// (fmt.Stringer, error), is the value the compiled interface holds:
// fmt prints it through its methods, and an assertion back to the
// struct's type finds it. The wrapper held the struct's last field:
// printing panicked inside fmt ("%!v(PANIC=Format method: reflect.Set:
// value of type string is not assignable ...)") and the assertion
// failed. The wanted output is go run's.
func TestSbirInterpretedIfaceStructToCompiledIface(t *testing.T) {
	src := `package main

import (
	"errors"
	"fmt"
)

type Stringer interface{ String() string }

type Named struct {
	n string
	k int
}

func (x Named) String() string { return fmt.Sprint("named ", x.n, x.k) }

type Err interface{ Error() string }

type E struct {
	code int
	msg  string
}

func (e E) Error() string { return fmt.Sprint(e.code, e.msg) }

func main() {
	var st Stringer = Named{"y", 1}
	var fs fmt.Stringer = st
	fmt.Println(fs)
	fmt.Printf("%v %s %d\n", fs, fs, 3)
	n, ok := fs.(Named)
	fmt.Println(n.k, ok, fs.String())
	var e Err = E{404, "nf"}
	var err error = e
	fmt.Println(err, err.Error())
	w := fmt.Errorf("wrap: %w", err)
	fmt.Println(w, errors.Is(w, err))
	list := []fmt.Stringer{st, Named{"z", 2}}
	fmt.Println(list)
}
`
	want := "named y1\nnamed y1 named y1 3\n1 true named y1\n404nf 404nf\nwrap: 404nf true\n[named y1 named z2]\n"
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
