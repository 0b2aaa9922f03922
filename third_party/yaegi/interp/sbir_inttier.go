package interp

import (
	"go/constant"
	"math"
	"reflect"
	"strconv"
	"sync"
	"sync/atomic"
	"unsafe"
)

// sbir patch S9: a function that computes only on ints and bools runs as
// Go closures over a window of int64 registers: its int tier.
//
// A call of an interpreted function costs ~100 ns after S1-S8 (its frame
// of reflect.Values, the argument and result copies, runFrame's loop,
// the defer that catches its panics), and recursive code like fib is
// almost nothing but calls: 3.2x CPython's time. A function whose
// parameters, result, locals and every expression are ints (int, int64)
// or bools, whose statements are blocks, ifs, fors, assignments,
// increments, break, continue and return, and which calls only functions
// of the same kind, has no value the interpreter's machinery is needed
// for: no pointer, no interface, no closure, no global variable, no
// output. Such a function is compiled, at its first call, to closures
// reading and writing int64 registers (a bool is 0 or 1), each call of
// another such function taking a window of a stack of registers.
//
// Every operation is Go's own on int64 (int is 64 bits where the tier is
// used), so overflow wraps and shifts behave as gc's do. The tier is a
// pure function of its arguments: it reads no global and writes nothing
// outside its registers. That is what makes its one escape hatch exact:
// when anything panics in it (a division by zero, a negative shift
// count), or a function it calls was declared again in a later cell, the
// call it was running starts again in the interpreter from the same
// arguments, which raises the panic with its position, as before, or
// calls the new declaration. An interrupt (the run's id changing) is
// checked at every call and loop iteration, as runFrame checks it at
// every node.

// The int tier's state for one function: undecided until its first call.
const (
	intTierUnknown uint32 = iota
	intTierYes
	intTierNo
)

// intTier is one function's int tier, kept in its frameShape.
type intTier struct {
	state  atomic.Uint32
	fn     atomic.Pointer[intFunc]
	mu     sync.Mutex   // held while compiling
	panics atomic.Int32 // calls that panicked in the tier (intTier.run)
}

// intTierMaxPanics is how many calls of a function may panic in the int
// tier, each then running again in the interpreter, before the function
// leaves the tier for good (dropIntFunc).
const intTierMaxPanics = 4

// intFunc is a function compiled for the int tier.
type intFunc struct {
	def    *node
	params []bool // whether each parameter is a bool
	result bool   // whether the result is a bool
	size   int    // registers: the result, the parameters, the locals
	body   intStmt
	rtype  reflect.Type // the result's type
	// resTyp is rtype's descriptor (typeWord) when the result is an int of
	// eight bytes or a bool, else nil: a destination of that type is set
	// at its address (sbir patches S15, S17).
	resTyp unsafe.Pointer
	void   bool       // it has no result (register 0 is unused): sbir patch S17
	method *intMethod // its receiver, for a method (sbir patch S17)
	writes bool       // it writes a variable outside it (sbir_inttier_outer.go)
	panics bool       // it may panic, or call a function that may
	loops  bool       // it has a loop, which panics when the run is stopped
	leaf   leafCache  // its leaf form, for typed callbacks (sbir patch S14)
}

// Registers hold an int, or a bool as 0 or 1.
type (
	intExpr  func(r []int64, t *intRun) int64
	boolExpr func(r []int64, t *intRun) bool
	intStmt  func(r []int64, t *intRun) intCtl
)

// intCtl is how a statement ends: the next statement runs, or the
// function returns, or the loop around it breaks or continues.
type intCtl uint8

const (
	ctlNext intCtl = iota
	ctlReturn
	ctlBreak
	ctlContinue
)

// intFuncOf returns def's int tier, compiling it at the first call, or
// nil when def has none.
func intFuncOf(def *node) *intFunc {
	s := def.shape
	if s == nil {
		return nil
	}
	switch s.ints.state.Load() {
	case intTierYes:
		return s.ints.fn.Load()
	case intTierNo:
		return nil
	}
	s.ints.mu.Lock()
	defer s.ints.mu.Unlock()
	if s.ints.state.Load() == intTierUnknown {
		st := intTierNo
		fn := compileIntFunc(def)
		if fn != nil {
			s.ints.fn.Store(fn)
			st = intTierYes
			def.interp.intTiers.Add(1)
			if fn.method != nil {
				def.interp.intMethods.Add(1)
			}
		}
		s.ints.state.Store(st)
	}
	return s.ints.fn.Load()
}

// forgetIntFunc makes def's int tier be compiled again at its next call:
// a function it calls was declared again.
func forgetIntFunc(def *node) {
	s := def.shape
	s.ints.mu.Lock()
	s.ints.fn.Store(nil)
	s.ints.state.Store(intTierUnknown)
	s.ints.mu.Unlock()
}

// panicked notes that a call of def panicked in the int tier, and keeps
// def out of the tier from now on when that happened intTierMaxPanics
// times (intTier.run).
func panicked(def *node) {
	def.interp.intDeopts.Add(1)
	s := def.shape
	if s.ints.panics.Add(1) < intTierMaxPanics {
		return
	}
	s.ints.mu.Lock()
	s.ints.fn.Store(nil)
	s.ints.state.Store(intTierNo)
	s.ints.mu.Unlock()
}

// compileIntFunc compiles def, and the functions it calls, for the int
// tier, or returns nil when one of them has anything the tier does not
// do.
func compileIntFunc(def *node) (fn *intFunc) {
	defer func() {
		// currentDecl panics for a function declared again with another
		// signature; reflect for a type the interpreter cannot make. The
		// interpreter reports those.
		if recover() != nil {
			fn = nil
		}
	}()
	if strconv.IntSize != 64 || def.interp == nil || def.interp.debugger != nil || def.interp.noIntTier {
		return nil
	}
	c := &intCompiler{funcs: map[*node]*intFunc{}}
	fn, ok := c.function(def)
	if !ok {
		return nil
	}
	return fn
}

// intCompiler compiles functions for the int tier.
type intCompiler struct {
	funcs map[*node]*intFunc // compiled or being compiled
	fn    *intFunc           // the function being compiled
	regs  map[int]int        // its frame indexes' registers
}

// intKind reports whether t is a type the int tier computes on, and
// whether it is bool.
func intKind(t *itype) (ok, isBool bool) {
	if t == nil || t.cat == builtinT || t.cat == funcT {
		return false, false
	}
	rt := t.TypeOf()
	if rt == nil {
		return false, false
	}
	switch rt.Kind() {
	case reflect.Int, reflect.Int64:
		return true, false
	case reflect.Bool:
		return true, true
	}
	return false, false
}

// function compiles def, a function declaration.
func (c *intCompiler) function(def *node) (*intFunc, bool) {
	if fn, ok := c.funcs[def]; ok {
		return fn, true
	}
	if (def.kind != funcDecl && def.kind != funcLit) || def.debug != nil || len(def.child) < 4 || def.child[3] == nil ||
		def.typ == nil || def.typ.cat != funcT {
		return nil, false
	}
	ft := def.typ
	if len(ft.ret) > 1 || len(def.types) == 0 {
		return nil, false
	}
	fn := &intFunc{def: def, size: 1 + len(ft.arg), void: len(ft.ret) == 0}
	if !fn.void && !fn.resultKind(ft.ret[0]) {
		return nil, false
	}
	for _, a := range ft.arg {
		ok, isBool, _ := intKindNarrow(a) // sbir patch S19: runes too
		if !ok {
			return nil, false
		}
		fn.params = append(fn.params, isBool)
	}
	c.funcs[def] = fn
	outer, outerRegs := c.fn, c.regs
	c.fn, c.regs = fn, map[int]int{}
	defer func() { c.fn, c.regs = outer, outerRegs }()
	if len(def.child[0].child) != 0 && !c.receiver(def, len(ft.ret)) {
		return nil, false
	}
	if !c.signatureSlots(def) {
		return nil, false
	}
	body, ok := c.stmt(def.child[3])
	if !ok || (fn.writes && fn.panics) {
		return nil, false
	}
	if fn.method != nil {
		body = fn.method.withLoads(body)
		fn.method.regs = nil
	}
	fn.body = body
	return fn, true
}

// resultKind records the kind of the function's one result, t, and
// reports whether the tier computes on it.
func (fn *intFunc) resultKind(t *itype) bool {
	ok, isBool, _ := intKindNarrow(t) // sbir patch S19: runes too
	if !ok {
		return false
	}
	fn.result, fn.rtype = isBool, t.TypeOf()
	switch rt := fn.rtype; {
	case rt == nil:
	case !isBool && rt.Size() == 8 && (rt.Kind() == reflect.Int || rt.Kind() == reflect.Int64):
		fn.resTyp = typeWord(rt)
	case isBool && rt.Kind() == reflect.Bool:
		fn.resTyp = typeWord(rt) // sbir patch S17
	}
	return true
}

// signatureSlots maps the frame indexes of def's result and parameters
// to their registers: a call puts the result first and the parameters
// after it, in order (numRet, argStart in call), as the frame's types
// list them. A function without a result keeps register 0, unused; a
// method's receiver, after the result in the frame, has no register
// (sbir patch S17).
func (c *intCompiler) signatureSlots(def *node) bool {
	numRet := 1
	if c.fn.void {
		numRet = 0
	}
	slot := numRet
	if c.fn.method != nil {
		slot++
	}
	if len(def.types) < slot+len(c.fn.params) {
		return false
	}
	if numRet == 1 {
		c.regs[0] = 0
	}
	for i := range c.fn.params {
		c.regs[slot+i] = 1 + i
	}
	return true
}

// local returns the register of n, an identifier of a variable of the
// function being compiled, giving it one at its declaration (define).
func (c *intCompiler) local(n *node, define bool) (int, bool) {
	if n.kind != identExpr || n.ident == "_" || n.level != 0 || n.findex < 0 || n.findex >= len(c.fn.def.types) {
		return 0, false
	}
	if !define && (n.sym == nil || n.sym.kind != varSym) {
		return 0, false
	}
	if r, ok := c.regs[n.findex]; ok {
		return r, true
	}
	if !define {
		return 0, false
	}
	r := c.fn.size
	c.fn.size++
	c.regs[n.findex] = r
	return r, true
}

// intConst returns the value of n when it is a constant the tier can
// hold.
func intConst(n *node) (int64, bool) {
	v := n.rval
	if !v.IsValid() {
		return 0, false
	}
	switch n.kind {
	case basicLit, binaryExpr, unaryExpr, parenExpr:
		// A literal, or an operation the compiler folded to a constant.
	case identExpr:
		if n.sym == nil || n.sym.kind != constSym {
			return 0, false
		}
	case selectorExpr:
		// A compiled package's constant (math.MaxInt64), which the
		// compiler may have converted to its type: not one of its
		// variables, whose values are addressable and change.
		if len(n.child) == 0 || n.child[0].typ == nil || n.child[0].typ.cat != binPkgT ||
			(vConstantValue(v) == nil && v.CanAddr()) {
			return 0, false
		}
	default:
		return 0, false
	}
	if c := vConstantValue(v); c != nil {
		if c.Kind() == constant.Bool {
			return b2i(constant.BoolVal(c)), true
		}
		ci := constant.ToInt(c)
		if ci.Kind() != constant.Int {
			return 0, false
		}
		return constant.Int64Val(ci)
	}
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int(), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if u := v.Uint(); u <= math.MaxInt64 {
			return int64(u), true
		}
	case reflect.Bool:
		return b2i(v.Bool()), true
	}
	return 0, false
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
