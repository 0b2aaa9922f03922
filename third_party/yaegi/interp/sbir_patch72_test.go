package interp_test

import (
	"strings"
	"testing"
)

// TestSbirCompilePanicPosition checks sbir patch 72: a panic while
// compiling (reflect.StructOf refuses two blank fields, which gc accepts)
// in global type analysis or cfg's pre-order comes out as a panic whose
// value is an error at the position of the node being compiled, as
// post-order panics already did, and is not wrapped twice.
func TestSbirCompilePanicPosition(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"type padded struct{ _ int; _ string }\nvar p padded", "2:5: global type analysis panic: reflect.StructOf: duplicate field"},
		{"func f() {\n\tvar q struct{ _ int; _ bool }\n\t_ = q\n}", "2:6: "},
	} {
		i, _, _ := newTestInterp(t)
		got := compilePanic(t, i.Compile, tc.src)
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("Compile(%q) panicked with %q, want it to start with %q", tc.src, got, tc.want)
		}
		if strings.Count(got, "panic:") > 1 {
			t.Errorf("Compile(%q) panicked with %q: wrapped twice", tc.src, got)
		}
	}
}

// compilePanic returns the message of the error compile panics with.
func compilePanic[P any](t *testing.T, compile func(string) (P, error), src string) (msg string) {
	t.Helper()
	defer func() {
		r := recover()
		err, ok := r.(error)
		if !ok {
			t.Fatalf("Compile(%q) panicked with %v (%T), want an error", src, r, r)
		}
		msg = err.Error()
	}()
	_, err := compile(src)
	t.Fatalf("Compile(%q) returned %v, want a panic", src, err)
	return ""
}
