package interp

import (
	"reflect"
	"sync"
	"sync/atomic"
)

// sbir patch S8: the frames of a function that nothing can hold after
// its call returns are used again by its later calls.
//
// Each call of an interpreted function used to allocate its frame (the
// frame, its slice of Values, and the values themselves: two objects
// since S2) and drop it when the call returned: in a recursive fib that
// was most of the call's cost, and the collector's work that followed it
// most of the rest. A frame can be used again when no reference to it,
// or to the values it holds, outlives the call. The function's body
// decides that, once, at its first call (reusableFrames): nothing in it
// may make a closure (which keeps the frame), start a goroutine or defer
// a call (which run after or beside it), take an address (&x, a slice of
// an array, a method called on an addressable value: pointers into the
// values), use a function or method as a value (a wrapper keeping the
// frame as its ancestor), range over a function (a yield closure), call
// recover, or hold an interface anywhere in the types it touches (the
// interpreter's interface values may refer to the value they were made
// from, not a copy). Anything else reads and writes its values through
// the frame's slots, and copies what it hands on: results, arguments,
// elements and fields are set with reflect.Value.Set.
//
// A frame is taken from the function's pool at the call and given back
// after the caller has copied its results, with its values zeroed (a
// new call starts from zero values, as gc's locals do) and its slots
// restored to them (the interpreter sometimes points a slot at another
// value rather than setting it). A call that panics does not give its
// frame back. Recursion takes a frame per level; goroutines calling the
// same function take frames of their own (sync.Pool).

// Whether a function's frames can be used again: reuseUnknown until its
// first call.
const (
	reuseUnknown uint32 = iota
	reuseYes
	reuseNo
)

// framePool holds the frames of one function that calls may use again.
type framePool struct {
	state atomic.Uint32 // reuseUnknown, reuseYes, reuseNo
	pool  sync.Pool     // of *pooledFrame
}

// pooledFrame is a frame that goes back to its function's pool.
type pooledFrame struct {
	frame
	def   *node           // the function whose frame it is
	init  []reflect.Value // the slots as allocated: restored before reuse
	store reflect.Value   // the struct holding the values (S2), or invalid
}

// spareFrame is the frame a call site (or a callback) keeps for its next
// call: taking and giving back a frame there is an atomic swap, where a
// sync.Pool's Get and Put were a tenth of a call's cost. A site whose
// spare is taken (by a recursive call through the same site, or another
// goroutine) uses the function's pool.
type spareFrame = atomic.Pointer[pooledFrame]

// callFrameAt is callFrame for a call site with a spare frame.
func callFrameAt(spare *spareFrame, anc *frame, def *node, id uint64) (*frame, *pooledFrame) {
	if pf := spare.Swap(nil); pf != nil {
		if pf.def == def {
			return pf.descend(anc, id), pf
		}
		// The site calls another function now (a function value, or a
		// declaration made again): the frame goes back to its own.
		pf.def.shape.frames.pool.Put(pf)
	}
	return callFrame(anc, def, id)
}

// releaseFrameAt gives back pf, a frame callFrameAt returned for def, its
// values zeroed: it becomes the site's spare, or goes back to def's pool
// (or, under a test that spoils frames, is spoiled and dropped). A nil pf
// is a frame of its own.
func releaseFrameAt(spare *spareFrame, def *node, pf *pooledFrame) {
	if pf == nil || spoiled(def, pf) {
		return
	}
	clearFrame(pf)
	if !spare.CompareAndSwap(nil, pf) {
		def.shape.frames.pool.Put(pf)
	}
}

// reusable reports whether the frames of def, whose shape s is, can be
// used again, deciding it at the first call.
func (s *frameShape) reusable(def *node) bool {
	switch s.frames.state.Load() {
	case reuseYes:
		return true
	case reuseNo:
		return false
	}
	st := reuseNo
	if reusableFrames(def) {
		st = reuseYes
	}
	s.frames.state.Store(st)
	return st == reuseYes
}

// noDeferredCalls reports whether a frame of def can have no deferred
// call and no recovered panic of its own: frames of functions whose
// frames are used again (runFrame skips its locks for them).
func noDeferredCalls(def *node) bool {
	return def != nil && def.shape != nil && def.shape.frames.state.Load() == reuseYes
}

// callFrame returns a frame, with zero values, for a call of def whose
// frame descends from anc, in the run id: one used before when def allows
// it (pf is then the frame to give back with releaseFrameAt once the
// results are copied).
//
// sbir patch 114: the run id is the caller's (or, for a call from compiled
// code, the latest evaluation's), not anc's. A closure's anc is the frame
// it captured, whose id is that of the evaluation that made it: after an
// interrupt (which changes the interpreter's id) every call of a closure
// made in an earlier cell started with a stale id, and runFrame ran none
// of its body: it returned zero values, a silent wrong answer.
func callFrame(anc *frame, def *node, id uint64) (*frame, *pooledFrame) {
	s := def.shape
	if s == nil || !s.reusable(def) {
		return newCallFrame(anc, def, id), nil
	}
	pf, _ := s.frames.pool.Get().(*pooledFrame)
	if pf == nil {
		pf = newPooledFrame(def, s)
	}
	return pf.descend(anc, id), pf
}

// newCallFrame allocates a frame, with zero values, for a call of def
// whose frame descends from anc, in the run id.
func newCallFrame(anc *frame, def *node, id uint64) *frame {
	f := newFrame(anc, len(def.types), id)
	newFrameValues(f.data, def.types, def.shape)
	return f
}

// descend makes pf's frame descend from anc, in the run id, as newFrame
// does, and returns it.
func (pf *pooledFrame) descend(anc *frame, id uint64) *frame {
	f := &pf.frame
	f.anc, f.root, f.done, f.id = anc, anc.root, anc.done, id
	return f
}

// newPooledFrame allocates a frame for the values of def.
func newPooledFrame(def *node, s *frameShape) *pooledFrame {
	types := def.types
	slots := make([]reflect.Value, 2*len(types))
	pf := &pooledFrame{def: def, init: slots[len(types):]}
	pf.data = slots[:len(types):len(types)]
	newFrameValues(pf.init, types, s)
	if s.typ != nil && len(types) > 1 {
		// The values are the fields of one struct (S2): zeroed at once.
		pf.store = reflect.NewAt(s.typ, pf.init[0].Addr().UnsafePointer()).Elem()
	}
	copy(pf.data, pf.init)
	return pf
}

// spoiled reports whether a test had pf, a frame given back by a call of
// def, spoiled rather than used again (Interpreter.spoilFrame).
func spoiled(def *node, pf *pooledFrame) bool {
	if def.interp == nil || def.interp.spoilFrame == nil {
		return false
	}
	def.interp.spoilFrame(pf.init)
	pf.anc, pf.root = nil, nil
	return true
}

// clearFrame zeroes the values of pf and points its slots at them again.
func clearFrame(pf *pooledFrame) {
	if pf.store.IsValid() {
		pf.store.SetZero()
	} else {
		for _, v := range pf.init {
			v.SetZero()
		}
	}
	// sbir patch S10: one copy of the slots rather than a comparison of
	// each and a copy of those that changed. A call of sort.Slice's less
	// over a slice of structs points eight of its sixteen slots elsewhere
	// (the element, then its field, four times): the comparisons were a
	// sixth of a call. The copy writes every pointer of the slots through
	// the write barrier while the collector marks (a few percent of the
	// time at the worker's GOGC of 400), where the comparisons wrote only
	// the changed slots.
	copy(pf.data, pf.init)
	pf.anc, pf.root, pf.done = nil, nil, reflect.SelectCase{}
}

// enclosingFunc returns the function declaration or literal whose body
// holds n, or nil at the top level.
func enclosingFunc(n *node) *node {
	for a := n.anc; a != nil; a = a.anc {
		if a.kind == funcDecl || a.kind == funcLit {
			return a
		}
	}
	return nil
}

// setSameKind sets dst to src, as dst.Set(src) does. When both are ints,
// float64s, strings or bools it uses the setter of the kind: the type
// checker has made them the same type, and Set's assignability check and
// move through the type's descriptor were a tenth of a call's cost (an
// argument and a result).
func setSameKind(dst, src reflect.Value) {
	k := src.Kind()
	if dst.Kind() == k {
		switch k {
		case reflect.Int:
			setInt(dst, intOf(src)) // sbir patch S16
			return
		case reflect.Int64:
			dst.SetInt(src.Int())
			return
		case reflect.Float64:
			dst.SetFloat(src.Float())
			return
		case reflect.String:
			dst.SetString(src.String())
			return
		case reflect.Bool:
			setBool(dst, src.Bool()) // sbir patch S16
			return
		}
	}
	dst.Set(src)
}
