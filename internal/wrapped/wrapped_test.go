package wrapped

import (
	"fmt"
	"testing"
)

// bundlerWrapper has the shape yaegi extract gives an interface wrapper.
type bundlerWrapper struct {
	IValue      interface{}
	WMIMEBundle func() map[string]any
}

func (w bundlerWrapper) MIMEBundle() map[string]any { return w.WMIMEBundle() }

func TestValue(t *testing.T) {
	type point struct{ X, Y int }
	type notWrapper struct {
		IValue int
		Other  string
	}
	for _, tc := range []struct {
		in   any
		want string
		ok   bool
	}{
		{bundlerWrapper{IValue: point{1, 2}}, "{1 2}", true},
		{point{1, 2}, "{1 2}", false},
		{notWrapper{3, "x"}, "{3 x}", false},
		{struct{ IValue any }{IValue: 5}, "{5}", false}, // no method fields: not a wrapper
		{[]int{1}, "[1]", false},                        // uncomparable, and no struct
		{nil, "<nil>", false},
		{42, "42", false},
	} {
		v, ok := Value(tc.in)
		if got := fmt.Sprint(v); got != tc.want || ok != tc.ok {
			t.Errorf("Value(%#v) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// stringerWrapper is a wrapper that carries String.
type stringerWrapper struct {
	IValue  interface{}
	WString func() string
}

func (w stringerWrapper) String() string { return w.WString() }

func TestPrintable(t *testing.T) {
	b := bundlerWrapper{IValue: 7}
	s := stringerWrapper{IValue: 7, WString: func() string { return "seven" }}
	for _, tc := range []struct {
		in   any
		want string
	}{
		{b, "7"},
		{s, "seven"},
		{[]int{1}, "[1]"},
	} {
		if got := fmt.Sprint(Printable(tc.in)); got != tc.want {
			t.Errorf("Printable(%T) prints %q, want %q", tc.in, got, tc.want)
		}
	}
}
