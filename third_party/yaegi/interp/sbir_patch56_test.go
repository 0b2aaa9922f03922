package interp_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/traefik/yaegi/interp"
)

// TestSbirPanicValueKeepsItsType checks sbir patch 56: a panic with a
// value of a type the script declares keeps the type, for the script's
// recover (an error type is still an error, a named type still
// asserts to itself) and for the host (Panic.Message is what gc prints
// after "panic: ").
func TestSbirPanicValueKeepsItsType(t *testing.T) {
	var out bytes.Buffer
	i := newPatch51Interp(t, &out)
	srcs := []string{`import "errors"`,
		`type statusErr struct{ status int }`,
		`func (e statusErr) Error() string { return fmt.Sprintf("status %d", e.status) }`,
		`type Code int`,
		`func catch(f func()) (r any) { defer func() { r = recover() }(); f(); return nil }`,
		`r := catch(func() { panic(statusErr{503}) })
err, ok := r.(error)
var se statusErr
se, _ = err.(statusErr)
fmt.Println(ok, err, se.status)
c, ok := catch(func() { panic(Code(3)) }).(Code)
fmt.Println(c, ok)
s, ok := catch(func() { panic("plain") }).(string)
fmt.Println(s, ok)`,
	}
	for _, src := range srcs {
		if _, err := i.Eval(src); err != nil {
			t.Fatalf("Eval(%q): %v", src, err)
		}
	}
	if got, want := out.String(), "true status 503 503\n3 true\nplain true\n"; got != want {
		t.Errorf("recovered: output %q, want %q", got, want)
	}
	for _, c := range []struct{ src, want string }{
		{"panic(statusErr{42})", "status 42"},
		{"panic(Code(3))", "main.Code(3)"},
		{"panic(1.5)", "+1.500000e+000"},
		{`panic("boom")`, "boom"},
		{`panic(errors.New("e"))`, "e"},
	} {
		_, err := i.Eval(c.src)
		var p interp.Panic
		if !errors.As(err, &p) {
			t.Fatalf("%s: %v, want a Panic", c.src, err)
		}
		if got := p.Message(); got != c.want {
			t.Errorf("%s: Message() = %q, want %q as gc prints it", c.src, got, c.want)
		}
	}
}
