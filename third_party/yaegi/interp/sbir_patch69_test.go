package interp_test

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirPanicChain checks sbir patch 69: a panic raised in a deferred
// call while another was under way reports the earlier one as gc prints
// it (the lines before "goroutine 1 [running]:" of go run's output).
func TestSbirPanicChain(t *testing.T) {
	for _, c := range []struct {
		name, main string
		want       []string
	}{
		{"recovered then wrapped", `
	defer func() {
		r := recover()
		panic(fmt.Errorf("wrapped: %v", r))
	}()
	panic(errors.New("original"))`, []string{"panic: original [recovered]", "\tpanic: wrapped: original"}},
		{"not recovered", `
	defer func() { panic("second") }()
	panic("first")`, []string{"panic: first", "\tpanic: second"}},
		{"three", `
	defer func() {
		recover()
		panic("again")
	}()
	defer func() { panic("middle") }()
	panic("last")`, []string{"panic: last", "\tpanic: middle [recovered]", "\tpanic: again"}},
		{"repanicked", `
	defer func() { panic(recover()) }()
	panic("same")`, []string{"panic: same [recovered, repanicked]"}},
		{"an earlier recovery is over", `
	func() {
		defer func() { fmt.Println("recovered", recover()) }()
		defer func() { panic("deferred") }()
		panic("one")
	}()
	panic("plain")`, []string{"panic: plain"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			i := interp.New(interp.Options{Stdout: &out, Stderr: &out})
			if err := i.Use(stdlib.Symbols); err != nil {
				t.Fatal(err)
			}
			_, err := i.Eval("package main\n\nimport (\n\t\"errors\"\n\t\"fmt\"\n)\n\nvar _ = errors.New\n\nfunc main() {" + c.main + "\n\tfmt.Println()\n}\n")
			var p interp.Panic
			if !errors.As(err, &p) {
				t.Fatalf("%v, want a Panic", err)
			}
			if got := p.GoTrace(); !reflect.DeepEqual(got, c.want) {
				t.Errorf("GoTrace() = %q, want %q", got, c.want)
			}
		})
	}
}
