package interp

import (
	"reflect"
	"unsafe"
)

// sbir patch S12: a call site tells a function value the interpreter made
// by reading its closure object, not by looking its address up.
//
// S3 records each function value the interpreter makes in a map keyed by
// the address of its closure object, and a call of a func value looks the
// address up: a weak pointer tells a live record from one left by a dead
// object whose memory now holds another. Those two weak pointers (one for
// the object, one for the captured frame), the map and the hash of the
// site's cache were a quarter of a closure call's instructions, and making
// a closure paid for the record, two weak pointers and a cleanup.
//
// A Go func value points to its closure object, whose first word is the
// code the function runs (the code pointer reflect.Value.Pointer returns);
// the words after it are what the function literal captures, laid out by
// the literal's own closure type: every closure of one literal has the
// same layout. The interpreter makes its function values in two ways
// (callback.makeFunc): a typed Go closure of callback.typedFunc, which
// captures its *callback first, or a reflect.MakeFunc value, whose closure
// object is reflect's makeFuncImpl and whose body is now the method value
// madeFunc.call, a closure of the code of (*madeFunc).call-fm holding its
// receiver. So a value is the interpreter's exactly when its code is one
// of those closures' and the callback is then read from it, with no map,
// no weak pointer and nothing that may be stale: the code of a function
// belongs to that function alone, and a live value's object is its own.
//
// Which words hold what is not part of Go's specification: it is read from
// closures made when the package starts (probeClosures), and a layout that
// does not show what is expected turns the reading off; the values are then
// recorded and looked up as S3 does.

// closureLayout says how to read a callback out of the closure objects of
// the function values the interpreter makes. Set once, when the package
// starts, and never changed.
type closureLayout struct {
	typed    []uintptr // code of typedFunc's closures, which hold their *callback in word 1
	stub     uintptr   // code of reflect.MakeFunc values (reflect's makeFuncStub)
	fnWord   int       // the word of a MakeFunc value's object holding its body; 0: unknown
	madeCode uintptr   // code of the method value madeFunc.call
}

// closures is the layout of this binary's closures, set by init.
var closures closureLayout

func init() { closures = probeClosures() }

const wordSize = unsafe.Sizeof(uintptr(0))

// word returns the i-th word of the object at p as a pointer.
func word(p unsafe.Pointer, i int) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Add(p, uintptr(i)*wordSize))
}

// codeOf returns the code pointer of the closure object at p.
func codeOf(p unsafe.Pointer) uintptr {
	return *(*uintptr)(p)
}

// madeFunc is the body of a reflect.MakeFunc value the interpreter makes:
// the method value m.call, whose closure object holds m, so that
// madeCallback finds the callback from the value.
type madeFunc struct {
	cb   *callback
	body func([]reflect.Value) []reflect.Value
}

// call runs the body.
func (m *madeFunc) call(in []reflect.Value) []reflect.Value { return m.body(in) }

// makeFuncValue returns reflect.MakeFunc(t, body) for the function that c
// runs, with a body that madeCallback recognizes.
func (c *callback) makeFuncValue(t reflect.Type, body func([]reflect.Value) []reflect.Value) reflect.Value {
	return reflect.MakeFunc(t, (&madeFunc{cb: c, body: body}).call)
}

// madeCallback returns the callback that the closure object at p (of a
// non-nil func value) runs, if the interpreter made it with makeFunc, or
// nil.
func madeCallback(p unsafe.Pointer) *callback {
	l := &closures
	code := codeOf(p)
	if code != l.stub || l.fnWord == 0 {
		for _, c := range l.typed {
			if c == code {
				return (*callback)(word(p, 1))
			}
		}
		return nil
	}
	body := word(p, l.fnWord)
	if body == nil || codeOf(body) != l.madeCode {
		return nil
	}
	return (*madeFunc)(word(body, 1)).cb
}

// typedCallbackTypes are the types callback.typedFunc makes Go closures
// of. A type it has and this list lacks is read no faster: its values
// are recorded (S3).
var typedCallbackTypes = []reflect.Type{
	typeRuneBool, typeRuneRune, typeIntIntBool, typeIntInt, typeIntBool,
	typeNoneInt, typeStringString, typeStringBool, typeNone,
}

// probeClosures makes a closure of each kind makeFunc makes and reads
// where its callback is. A kind whose closures do not show it where
// expected is left out: its values are recorded and looked up (S3).
func probeClosures() (l closureLayout) {
	defer func() {
		if recover() != nil {
			l = closureLayout{}
		}
	}()
	for _, t := range typedCallbackTypes {
		c := probeCallback(t)
		v, ok := c.typedFunc(t)
		if !ok {
			continue
		}
		if p := funcObject(v); p != nil && word(p, 1) == unsafe.Pointer(c) {
			l.typed = append(l.typed, codeOf(p))
		}
	}
	c := probeCallback(typeNone)
	m := &madeFunc{cb: c}
	body := m.call
	v := reflect.MakeFunc(typeNone, body)
	p, q := funcObject(v), funcObject(reflect.ValueOf(body))
	if p == nil || q == nil || word(q, 1) != unsafe.Pointer(m) {
		return l
	}
	// makeFuncImpl: a code pointer, a stack map, an argument size, a
	// register bitmap, the function type, then the body, in six words
	// (Go 1.17 to 1.26, which this module's go.mod is within).
	for i := 1; i < 6; i++ {
		if word(p, i) == q {
			l.stub, l.fnWord, l.madeCode = codeOf(p), i, codeOf(q)
			break
		}
	}
	for _, c := range l.typed {
		if c == l.stub || c == l.madeCode {
			return closureLayout{} // cannot be: the reading is wrong
		}
	}
	return l
}

// probeCallback returns a callback for a function of type t whose frame
// holds its results and then its arguments, as a declared function's.
func probeCallback(t reflect.Type) *callback {
	var types []reflect.Type
	for i := 0; i < t.NumOut(); i++ {
		types = append(types, t.Out(i))
	}
	for i := 0; i < t.NumIn(); i++ {
		types = append(types, t.In(i))
	}
	return &callback{def: &node{types: types}, numRet: t.NumOut()}
}

// directCallee returns the function and the frame that calling the func
// value whose closure object is at p runs, when the interpreter interp
// made it as a function (not a method value) with a body: what S3 would
// have recorded for it.
func (interp *Interpreter) directCallee(p unsafe.Pointer) (*node, *frame, bool) {
	cb := madeCallback(p)
	if cb == nil {
		return nil, nil, false
	}
	def := cb.def
	if cb.rcvr != nil || def == nil || def.interp != interp || len(def.child) < 4 || def.child[3].start == nil {
		return nil, nil, true
	}
	return def, cb.anc, true
}
