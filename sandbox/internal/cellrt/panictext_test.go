package cellrt

import (
	"errors"
	"strconv"
	"testing"
)

type (
	code   int
	name   string
	ratio  float64
	flag   bool
	point  struct{ X int }
	status int
)

func (s status) String() string { return "status " + strconv.Itoa(int(s)) }

// TestPanicText: a panic's value reads as gc prints it after "panic: "
// (recorded with go1.26: panic: main.Code(3), panic: main.S("x"), ...).
func TestPanicText(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{code(3), "cellrt.code(3)"},
		{name("x"), `cellrt.name("x")`},
		{ratio(2.5), "cellrt.ratio(2.5)"},
		{flag(true), "cellrt.flag(true)"},
		{3, "3"},
		{1.5, "1.5"},
		{"plain", "plain"},
		{errors.New("an error"), "an error"},
		{status(4), "status 4"},
		{point{1}, "{1}"},
	} {
		if got := panicText(tc.v); got != tc.want {
			t.Errorf("panicText(%#v) = %q; want %q", tc.v, got, tc.want)
		}
	}
}
