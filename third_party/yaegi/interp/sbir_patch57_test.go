package interp_test

import (
	"bytes"
	"testing"
)

// TestSbirPanicInDeferredCall checks sbir patch 57: a deferred call that
// panics replaces the function's panic (or starts one), and the deferred
// calls registered before it still run and may recover it, as in gc.
func TestSbirPanicInDeferredCall(t *testing.T) {
	var out bytes.Buffer
	i := newPatch51Interp(t, &out)
	srcs := []string{`func f() {
	defer func() { fmt.Println("recovered:", recover()) }()
	defer fmt.Println("still runs")
	defer func() {
		recover()
		panic("second")
	}()
	panic("first")
}`, `func g() {
	defer func() { fmt.Println("recovered:", recover()) }()
	defer func() { panic("from a deferred call") }()
	fmt.Println("g returns")
}`, `f()
g()`}
	for _, src := range srcs {
		if _, err := i.Eval(src); err != nil {
			t.Fatalf("Eval(%q): %v", src, err)
		}
	}
	want := "still runs\nrecovered: second\ng returns\nrecovered: from a deferred call\n"
	if got := out.String(); got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}
