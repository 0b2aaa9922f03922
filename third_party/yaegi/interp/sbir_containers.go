package interp

import (
	"reflect"
	"strings"
)

// sbir patch 203: values of defined types given to compiled containers
// keep their types.
//
// A value of an interpreted defined type passed as an `any` argument of
// a compiled function is passed bare (compiled code sees its reflect
// value), so what a compiled container hands back had lost its type:
// after sm.Store("a", celsius(1)), sm.Load("a") gave an int (%T int, the
// String method not called, v.(int) true), the same for container/list,
// container/heap, context values, sync.Pool and atomic.Value; and
// sync.Map keys celsius(3) and 3 were one key.
//
// The containers that only hold what they are given get the value as a
// valueInterface, which comes back as interpreted code made it. Those
// that also compare what they hold (sync.Map's keys and
// CompareAndSwap, atomic.Value's CompareAndSwap) get the canonical key
// form of patch 202, a typedKey compared by type and value, turned back
// into a valueInterface in their results and in the arguments of the
// callbacks they call (sync.Map.Range).

// containerHold says how a compiled container holds its `any` arguments.
type containerHold int

const (
	holdTyped containerHold = iota + 1 // as a valueInterface, handed back as given
	holdCanon                          // as a typedKey, compared, restored when handed back
)

// containerCalls are the compiled functions and methods that hold `any`
// arguments for interpreted code, by receiver type or package path and
// name, with the arguments they hold (nil: every `any` argument).
var containerCalls = map[string]map[string]containerSpec{
	"sync.Map": {
		"Store": {holdCanon, nil}, "Load": {holdCanon, nil}, "LoadOrStore": {holdCanon, nil},
		"LoadAndDelete": {holdCanon, nil}, "Delete": {holdCanon, nil}, "Swap": {holdCanon, nil},
		"CompareAndSwap": {holdCanon, nil}, "CompareAndDelete": {holdCanon, nil}, "Range": {holdCanon, nil},
	},
	"atomic.Value": {
		"Store": {holdCanon, nil}, "Load": {holdCanon, nil}, "Swap": {holdCanon, nil}, "CompareAndSwap": {holdCanon, nil},
	},
	"list.List": {
		"PushBack": {holdTyped, nil}, "PushFront": {holdTyped, nil},
		"InsertBefore": {holdTyped, nil}, "InsertAfter": {holdTyped, nil},
	},
	"sync.Pool":      {"Put": {holdTyped, nil}},
	"container/heap": {"Push": {holdTyped, nil}},
	// The key of WithValue is compared by context with ==; patch 64
	// refuses keys that the interpreter cannot tell apart.
	"context": {"WithValue": {holdTyped, []int{2}}},
}

// containerSpec is how one container function holds its arguments.
type containerSpec struct {
	hold containerHold
	args []int // the arguments held, by position; nil for every `any` one
}

// holds reports whether the spec holds the argument at position i.
func (s containerSpec) holds(i int) bool {
	if s.args == nil {
		return true
	}
	for _, a := range s.args {
		if a == i {
			return true
		}
	}
	return false
}

// containerOf returns the spec of the compiled call n, if it is a call of
// a container.
func containerOf(n *node) (containerSpec, bool) {
	pkg, name := calleeName(n)
	spec, ok := containerCalls[strings.TrimLeft(pkg, "*")][name]
	return spec, ok
}

// containerCall returns the argument values and the call function of the
// compiled call n with the arguments child: for a container, the `any`
// arguments it holds keep their types, and a container that compares
// gets canonical values and has its results restored. held reports
// whether n is such a call (which must then go through callFn).
func containerCall(n *node, child []*node, rcvrOffset int, values []func(*frame) reflect.Value,
	callFn func(reflect.Value, []reflect.Value) []reflect.Value,
) ([]func(*frame) reflect.Value, func(reflect.Value, []reflect.Value) []reflect.Value, bool) {
	spec, ok := containerOf(n)
	if !ok || len(values) != len(child) || n.action == aCallSlice {
		return values, callFn, false
	}
	ft := n.child[0].typ.rtype
	kts := &n.interp.keyTypes
	out := append([]func(*frame) reflect.Value(nil), values...)
	for i, c := range child {
		in := i + rcvrOffset
		if in >= ft.NumIn() || !holdsBareRT(ft.In(in)) || !spec.holds(i) {
			continue
		}
		v := heldArg(c)
		if v == nil {
			continue
		}
		if spec.hold == holdCanon {
			raw := v
			v = func(f *frame) reflect.Value { return kts.canon(raw(f)) }
		}
		out[i] = v
	}
	if spec.hold == holdCanon {
		call := callFn
		callFn = func(fn reflect.Value, in []reflect.Value) []reflect.Value {
			res := call(fn, in)
			for i, r := range res {
				res[i] = restoreAny(r)
			}
			return res
		}
	}
	return out, callFn, true
}

// heldArg returns the value of the argument c as a container holds it:
// a value of a defined type as a valueInterface, an interface's value as
// it is (a valueInterface stays one). nil leaves the argument as callBin
// made it.
func heldArg(c *node) func(*frame) reflect.Value {
	switch {
	case isRegularCall(c):
		if ret := c.child[0].typ.ret; len(ret) == 1 && isEmptyInterface(ret[0]) {
			ind := c.findex
			return func(f *frame) reflect.Value { return f.data[ind] }
		}
		return nil
	case isBinCall(c, c.scope):
		return nil
	case c.typ == nil:
		return nil
	case isEmptyInterface(c.typ) && isInterfaceSrc(c.typ):
		return genValue(c)
	case !isInterface(c.typ) && keepsTypeInAny(c.typ):
		// A constant argument was converted to the parameter's
		// interface type (convertLiteralValue): take the value it holds.
		value := genValue(c)
		return func(f *frame) reflect.Value {
			v := value(f)
			for v.IsValid() && v.Kind() == reflect.Interface && !v.IsNil() {
				v = v.Elem()
			}
			if vi, ok := heldVI(v); ok {
				return reflect.ValueOf(vi)
			}
			return reflect.ValueOf(valueInterface{c, copyIfVariable(v)})
		}
	}
	return nil
}

// restoreAny returns v, a value compiled code hands to interpreted code
// as an `any`, with a typedKey it holds turned back into the
// valueInterface it stands for (sbir patches 202 and 203).
func restoreAny(v reflect.Value) reflect.Value {
	if !v.IsValid() || v.Kind() != reflect.Interface || v.IsNil() || v.Elem().Type() != typedKeyType {
		return v
	}
	r := reflect.New(v.Type()).Elem()
	r.Set(restoreHeld(v.Elem()))
	return r
}

// isBinEmptyInterface reports whether t is the empty interface as a
// compiled function's parameter or result has it (a valueT).
func isBinEmptyInterface(t *itype) bool {
	return t != nil && t.cat == valueT && t.rtype != nil && t.rtype.Kind() == reflect.Interface && t.rtype.NumMethod() == 0
}

// goFormatHeld returns the goValue of the valueInterface v holds, as
// genGoFormatInterface passes it to fmt, if v holds one.
func goFormatHeld(f *frame, v reflect.Value, wrapsErrors bool, src *srcTypes) (reflect.Value, bool) {
	for v.IsValid() && v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	vi, ok := heldVI(v)
	if !ok || vi.node == nil || vi.node.typ == nil || !useGoFormat(vi.node.typ, wrapsErrors) {
		return reflect.Value{}, false
	}
	return reflect.ValueOf(goValue{v: vi.value, t: vi.node.typ, f: f, src: src}), true
}
