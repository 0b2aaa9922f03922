package interp

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// scriptPanic is the Go panic value of panic(v) for v of a type the
// script declares with a name or methods (sbir patch 56). Panicking with
// the bare value lost its type: recover gave the script a struct that was
// no longer an error (`r.(error)` false after `panic(MyErr{})`), and a
// host reporting an uncaught panic printed the struct's fields where gc
// prints its Error(), String() or `main.Code(3)`.
type scriptPanic struct {
	value valueInterface // what recover gives the script: v with its type
	shown reflect.Value  // v as an error or a fmt.Stringer, or invalid
	name  string         // v's type as gc names it, "main.Code"
}

var (
	errorRType    = reflect.TypeOf((*error)(nil)).Elem()
	stringerRType = reflect.TypeOf((*fmt.Stringer)(nil)).Elem()
)

// genPanicValue returns how panic's argument n is made a Go panic value:
// a *scriptPanic for a value of a script type with a name or methods, the
// value itself otherwise.
func genPanicValue(n *node) func(*frame) reflect.Value {
	value := genValue(n)
	t := n.typ
	if t == nil || t.cat == valueT || t.cat == nilT || isInterface(t) {
		return value
	}
	var shown func(*frame) reflect.Value
	switch {
	case hasStringMethod(t, "Error"):
		shown = genInterfaceWrapper(n, errorRType)
	case hasStringMethod(t, "String"):
		shown = genInterfaceWrapper(n, stringerRType)
	}
	name := ""
	if t.name != "" && t.path != "" {
		name = t.path + "." + t.name
	}
	if shown == nil && name == "" {
		return value
	}
	return func(f *frame) reflect.Value {
		v := value(f)
		// The interface's node holds the value itself: code asserting
		// the recovered value to an interface reads it from the node
		// in whatever frame it runs.
		held := &node{interp: n.interp, typ: t, findex: notInFrame, val: v, pos: n.pos}
		p := &scriptPanic{value: valueInterface{held, v}, name: name}
		if shown != nil {
			p.shown = shown(f)
		}
		return reflect.ValueOf(p)
	}
}

// scriptPanicOf returns the *scriptPanic a Go panic value holds.
func scriptPanicOf(rec any) (*scriptPanic, bool) {
	if v, ok := rec.(reflect.Value); ok && v.IsValid() && v.CanInterface() {
		rec = v.Interface()
	}
	p, ok := rec.(*scriptPanic)
	return p, ok
}

// hasStringMethod reports whether t has a method name() string.
func hasStringMethod(t *itype, name string) bool {
	m, _ := t.lookupMethod(name)
	if m == nil || m.typ == nil || m.typ.cat != funcT {
		return false
	}
	return len(m.typ.arg) == 0 && len(m.typ.ret) == 1 && m.typ.ret[0].cat == stringT
}

// Message returns the panic's value as gc prints an uncaught panic's
// ("panic: " followed by this): an error's Error(), a Stringer's String(),
// a string as is, a value of a named basic type as `main.Code(3)`, floats
// in the runtime's format; any other value as fmt prints it (gc prints
// its address). sbir patch 56.
func (e Panic) Message() string {
	v := e.Value
	if rv, ok := v.(reflect.Value); ok {
		if !rv.IsValid() || !rv.CanInterface() {
			return "nil"
		}
		v = rv.Interface()
	}
	if p, ok := v.(*scriptPanic); ok {
		if p.shown.IsValid() && p.shown.CanInterface() {
			return fmt.Sprint(p.shown.Interface())
		}
		raw := valueInterfaceValue(p.value.value)
		if s, ok := basicText(raw); ok {
			return p.name + "(" + s + ")"
		}
		return fmt.Sprint(raw)
	}
	switch x := v.(type) {
	case nil:
		return "nil"
	case error:
		return x.Error()
	case fmt.Stringer:
		return x.String()
	}
	rv := reflect.ValueOf(v)
	s, ok := basicText(rv)
	if !ok {
		return fmt.Sprint(v)
	}
	if t := rv.Type(); t.Name() != "" && t.PkgPath() != "" {
		return t.String() + "(" + s + ")"
	}
	if rv.Kind() == reflect.String {
		return rv.String()
	}
	return s
}

// basicText formats a value of a basic kind as the runtime's print does.
func basicText(v reflect.Value) (string, bool) {
	switch v.Kind() {
	case reflect.Bool:
		return strconv.FormatBool(v.Bool()), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(v.Uint(), 10), true
	case reflect.Float32, reflect.Float64:
		return runtimeFloat(v.Float()), true
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		return "(" + runtimeFloat(real(c)) + runtimeFloat(imag(c)) + "i)", true
	case reflect.String:
		return strconv.Quote(v.String()), true
	}
	return "", false
}

// runtimeFloat formats f as the runtime's print does: +1.500000e+000.
func runtimeFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "+Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	}
	s := strconv.FormatFloat(f, 'e', 6, 64)
	if !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	mant, exp, _ := strings.Cut(s, "e")
	sign, digits := exp[:1], exp[1:]
	for len(digits) < 3 {
		digits = "0" + digits
	}
	return mant + "e" + sign + digits
}
