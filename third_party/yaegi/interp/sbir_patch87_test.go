package interp_test

import (
	"testing"

	"github.com/traefik/yaegi/interp"
)

// TestSbirRootPanic checks sbir patch 87: after an evaluation whose
// top-level statements panicked, recover in a function the host calls
// directly takes that panic (once), and SetRootPanic sets what it takes.
func TestSbirRootPanic(t *testing.T) {
	i := interp.New(interp.Options{})
	v, err := i.Eval(`func take() any { return recover() }`)
	if err != nil {
		t.Fatal(err)
	}
	if v, err = i.Eval(`take`); err != nil {
		t.Fatal(err)
	}
	take := v.Interface().(func() any)
	if _, err := i.Eval(`panic("boom")`); err == nil {
		t.Fatal("the panic was not reported")
	}
	if p := i.RootPanic(); p == nil {
		t.Fatal("RootPanic() = nil after a panic of the statements")
	}
	if got := take(); got != "boom" {
		t.Errorf("recover in a function the host calls = %v, want boom", got)
	}
	if p := i.RootPanic(); p != nil {
		t.Errorf("RootPanic() = %v after recover took it, want nil", p)
	}
	if got := take(); got != nil {
		t.Errorf("a second recover = %v, want nil", got)
	}
	i.SetRootPanic("again")
	if got := take(); got != "again" {
		t.Errorf("recover after SetRootPanic = %v, want again", got)
	}
}
