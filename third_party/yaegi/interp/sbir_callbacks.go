package interp

import "reflect"

// sbir patch S6: interpreted functions handed to compiled code as
// func(rune) bool (strings.FieldsFunc), func(int, int) bool (sort.Slice,
// and Less of sort.Interface), and the other signatures below are Go
// functions of that type rather than reflect.MakeFunc values.
//
// A call through a MakeFunc value goes through reflect's trampoline:
// the arguments are copied into new allocations and a slice of Values,
// the results are checked and copied back. For a callback called once per
// character or per comparison that was most of the cost. The typed
// function writes its arguments into the new frame's slots and reads its
// result from the frame as Go values. It is used only when the frame
// holds the arguments and results at the places and of the types of the
// function type; anything else still gets a MakeFunc value.

// callback is an interpreted function as compiled code calls it: what
// the body of its MakeFunc value does, and what a typed function does.
type callback struct {
	def    *node                      // the function
	call   *node                      // the node runCfg reports calls from
	anc    *frame                     // the frame the call's frame descends from
	rcvr   func(*frame) reflect.Value // the method value's receiver, or nil
	numRet int                        // results; the arguments follow them (and the receiver)
	spare  spareFrame                 // a frame for the next call (sbir patch S8)
}

// first returns the index of the first argument's slot.
func (c *callback) first() int {
	if c.rcvr != nil {
		return c.numRet + 1
	}
	return c.numRet
}

// fits reports whether the function's frame holds the arguments and the
// results of t at their places, with t's types.
func (c *callback) fits(t reflect.Type) bool {
	d, first := c.def.types, c.first()
	if t.IsVariadic() || t.NumOut() != c.numRet || len(d) < first+t.NumIn() {
		return false
	}
	for i := 0; i < t.NumOut(); i++ {
		if d[i] != t.Out(i) {
			return false
		}
	}
	for i := 0; i < t.NumIn(); i++ {
		if d[first+i] != t.In(i) {
			return false
		}
	}
	return true
}

// enter returns a new frame for a call of the function's latest
// declaration (sbir patch 52: a later evaluation may have declared it
// again, with the same signature), with the receiver in place.
// The frame may be one used before (sbir patch S8): the typed function
// gives it back with leave once it has read the results.
func (c *callback) enter() (*frame, *node, *pooledFrame) {
	def := c.def
	if def.latest != nil {
		def = currentDecl(def)
	}
	// sbir patch 114: compiled code calls in the latest evaluation's run.
	fr, pf := callFrameAt(&c.spare, c.anc, def, c.anc.root.runid())
	if c.rcvr != nil {
		setReceiver(fr.data[c.numRet], c.rcvr(c.anc))
	}
	return fr, def, pf
}

// leave gives back the frame enter returned for def, once its results
// are read.
func (c *callback) leave(def *node, pf *pooledFrame) {
	releaseFrameAt(&c.spare, def, pf)
}

// run runs the body of def, the declaration enter returned, in fr.
func (c *callback) run(fr *frame, def *node) {
	runCfg(def.child[3].start, fr, def, c.call)
}

// typedFunc returns a function of type t running c, or false.
func (c *callback) typedFunc(t reflect.Type) (reflect.Value, bool) {
	var fn interface{}
	a := c.first()
	switch t {
	case typeRuneBool:
		fn = func(r rune) bool {
			if res, ok := c.intTier(int64(r), 0, 1); ok { // sbir patch S19
				return res != 0
			}
			fr, def, pf := c.enter()
			fr.data[a].SetInt(int64(r))
			c.run(fr, def)
			res := fr.data[0].Bool()
			c.leave(def, pf)
			return res
		}
	case typeRuneRune:
		fn = func(r rune) rune {
			if res, ok := c.intTier(int64(r), 0, 1); ok { // sbir patch S19
				return rune(res)
			}
			fr, def, pf := c.enter()
			fr.data[a].SetInt(int64(r))
			c.run(fr, def)
			res := rune(fr.data[0].Int())
			c.leave(def, pf)
			return res
		}
	case typeIntIntBool:
		fn = func(i, j int) bool {
			if res, ok := c.intTier(int64(i), int64(j), 2); ok { // sbir patch S9c
				return res != 0
			}
			fr, def, pf := c.enter()
			fr.data[a].SetInt(int64(i))
			fr.data[a+1].SetInt(int64(j))
			c.run(fr, def)
			res := fr.data[0].Bool()
			c.leave(def, pf)
			return res
		}
	case typeIntInt:
		fn = func(i, j int) {
			fr, def, pf := c.enter()
			fr.data[a].SetInt(int64(i))
			fr.data[a+1].SetInt(int64(j))
			c.run(fr, def)
			c.leave(def, pf)
		}
	case typeIntBool:
		fn = func(i int) bool {
			if res, ok := c.intTier(int64(i), 0, 1); ok { // sbir patch S9c
				return res != 0
			}
			fr, def, pf := c.enter()
			fr.data[a].SetInt(int64(i))
			c.run(fr, def)
			res := fr.data[0].Bool()
			c.leave(def, pf)
			return res
		}
	case typeNoneInt:
		fn = func() int {
			if res, ok := c.intTier(0, 0, 0); ok { // sbir patch S9c
				return int(res)
			}
			fr, def, pf := c.enter()
			c.run(fr, def)
			res := int(fr.data[0].Int())
			c.leave(def, pf)
			return res
		}
	case typeStringString:
		fn = func(s string) string {
			fr, def, pf := c.enter()
			fr.data[a].SetString(s)
			c.run(fr, def)
			res := fr.data[0].String()
			c.leave(def, pf)
			return res
		}
	case typeStringBool:
		fn = func(s string) bool {
			fr, def, pf := c.enter()
			fr.data[a].SetString(s)
			c.run(fr, def)
			res := fr.data[0].Bool()
			c.leave(def, pf)
			return res
		}
	case typeNone:
		fn = func() {
			fr, def, pf := c.enter()
			c.run(fr, def)
			c.leave(def, pf)
		}
	default:
		return reflect.Value{}, false
	}
	if !c.fits(t) {
		return reflect.Value{}, false
	}
	return reflect.ValueOf(fn), true
}

var (
	typeRuneBool     = reflect.TypeOf((func(rune) bool)(nil))
	typeRuneRune     = reflect.TypeOf((func(rune) rune)(nil))
	typeIntIntBool   = reflect.TypeOf((func(int, int) bool)(nil))
	typeIntInt       = reflect.TypeOf((func(int, int))(nil))
	typeIntBool      = reflect.TypeOf((func(int) bool)(nil))
	typeNoneInt      = reflect.TypeOf((func() int)(nil))
	typeStringString = reflect.TypeOf((func(string) string)(nil))
	typeStringBool   = reflect.TypeOf((func(string) bool)(nil))
	typeNone         = reflect.TypeOf((func())(nil))
)

// makeFunc returns the function of type t that runs c: a typed function
// when typedFunc has one, else a reflect.MakeFunc value with body slow.
func (c *callback) makeFunc(t reflect.Type, slow func([]reflect.Value) []reflect.Value) reflect.Value {
	if fn, ok := c.typedFunc(t); ok {
		return fn
	}
	return c.makeFuncValue(t, slow) // sbir patch S12
}
