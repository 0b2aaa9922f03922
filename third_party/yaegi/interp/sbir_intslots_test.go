package interp

import (
	"reflect"
	"testing"
	"unsafe"
)

type sbirCelsius int

// TestSbirIntSlots checks sbir patch S16's intOf, setInt and setBool
// against reflect's own methods on the Values S7's operators meet: a
// settable int, bool and defined int type (stored at their address), and
// Values that are not settable (a copy, a read-only field) or of another
// kind, which go through reflect: setInt and setBool panic as SetInt and
// SetBool do.
func TestSbirIntSlots(t *testing.T) {
	if !valueWordsOK {
		t.Skip("reflect.Value has another layout: S16 is off")
	}
	x, c, b := 3, sbirCelsius(4), false
	vx, vc, vb := reflect.ValueOf(&x).Elem(), reflect.ValueOf(&c).Elem(), reflect.ValueOf(&b).Elem()
	setInt(vx, -7)
	setInt(vc, 1<<40)
	setBool(vb, true)
	if x != -7 || c != 1<<40 || !b || intOf(vx) != -7 || intOf(vc) != 1<<40 {
		t.Errorf("x=%d c=%d b=%v intOf=%d,%d; want -7 %d true", x, c, b, intOf(vx), intOf(vc), 1<<40)
	}
	if w := (*valueWords)(unsafe.Pointer(&vx)); w.flag != flagsOf.setInt {
		t.Errorf("a settable int's flag %#x, want %#x: the fast path is never taken", w.flag, flagsOf.setInt)
	}
	if got := intOf(reflect.ValueOf(42)); got != 42 {
		t.Errorf("intOf of a copy: %d, want 42", got)
	}
	if got := intOf(reflect.ValueOf(int64(-5))); got != -5 {
		t.Errorf("intOf of an int64: %d, want -5", got)
	}
	var s struct{ n int }
	ro := reflect.ValueOf(&s).Elem().Field(0) // unexported: read-only
	for _, c := range []struct {
		name string
		f    func()
		ref  func()
	}{
		{"setInt copy", func() { setInt(reflect.ValueOf(1), 2) }, func() { reflect.ValueOf(1).SetInt(2) }},
		{"setInt read-only", func() { setInt(ro, 2) }, func() { ro.SetInt(2) }},
		{"setInt string", func() { setInt(reflect.ValueOf(new(string)).Elem(), 2) }, func() { reflect.ValueOf(new(string)).Elem().SetInt(2) }},
		{"setBool copy", func() { setBool(reflect.ValueOf(true), false) }, func() { reflect.ValueOf(true).SetBool(false) }},
		{"setBool int", func() { setBool(vx, false) }, func() { vx.SetBool(false) }},
	} {
		if got, want := panicOf(c.f), panicOf(c.ref); got != want || want == "" {
			t.Errorf("%s: panic %q, want reflect's %q", c.name, got, want)
		}
	}
	if s.n != 0 || x != -7 {
		t.Errorf("a refused store wrote: s.n=%d x=%d", s.n, x)
	}
}

// panicOf returns the text of f's panic, or "".
func panicOf(f func()) (msg string) {
	defer func() {
		if p := recover(); p != nil {
			msg = reflect.ValueOf(p).String()
			if e, ok := p.(error); ok {
				msg = e.Error()
			}
		}
	}()
	f()
	return ""
}
