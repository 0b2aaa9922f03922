package interp

import (
	"reflect"
	"unsafe"
)

// The int tier's variables outside the function (sbir patch S9b): the
// globals of the main package, and the variables a function literal
// captures. They are the interpreter's own values, read and written where
// the interpreter reads and writes them, at every use: another call may
// change them between two.
//
// A call that writes one is not a pure function of its arguments any
// more, and the tier's escape (running the call again in the interpreter
// when it panics) would write twice. So a function that writes a variable
// outside it may contain nothing that can panic: no division or remainder
// by a variable, no shift by a variable count, no call. A function that
// only reads them stays pure: running it again reads them again.

// intLoc is where an assignment of the int tier stores: a register, or a
// variable outside the function.
type intLoc struct {
	reg    int     // the register, when level is 0
	level  int     // how many frames out (globalFrame for a global), or 0, or fieldLevel
	index  int     // the variable's index in that frame
	off    uintptr // a pointer receiver's field's offset, when level is fieldLevel (sbir patch S17)
	isBool bool
	// typ is the type descriptor (typeWord) of an int variable of eight
	// bytes outside the function, or nil (sbir patch S15): one whose value
	// has it is read and written at its address, without reflect's checks
	// of its kind.
	typ unsafe.Pointer
}

// outerLoc returns the location of a variable outside the function, of
// n's type.
func outerLoc(n *node, level, index int, isBool bool) intLoc {
	l := intLoc{level: level, index: index, isBool: isBool}
	if rt := n.typ.TypeOf(); !isBool && rt != nil && rt.Size() == 8 && (rt.Kind() == reflect.Int || rt.Kind() == reflect.Int64) {
		l.typ = typeWord(rt)
	}
	return l
}

// loc returns where n, the left side of an assignment (a declaration when
// define is set), stores.
func (c *intCompiler) loc(n *node, define bool) (intLoc, bool) {
	ok, isBool, _ := intKindNarrow(n.typ) // sbir patch S19: runes too
	if !ok {
		return intLoc{}, false
	}
	if !define {
		if l, ok := c.fieldLoc(n); ok {
			if l.level == fieldLevel {
				c.fn.writes = true
			}
			return l, true
		}
		if level, index, ok := c.outer(n); ok {
			c.fn.writes = true
			return outerLoc(n, level, index, isBool), true
		}
	}
	reg, ok := c.local(n, define)
	return intLoc{reg: reg, isBool: isBool}, ok
}

// outer returns the frame level and index of n when it names a variable
// outside the function being compiled that the tier can reach: a global
// of the main package, or a variable a function literal captures (the
// literal is the call's own function: the tier calls no literal).
func (c *intCompiler) outer(n *node) (level, index int, ok bool) {
	if n.kind != identExpr || n.sym == nil || n.sym.kind != varSym || n.findex < 0 || n.level == 0 {
		return 0, 0, false
	}
	if n.level != globalFrame && (c.fn.def.kind != funcLit || n.level < 1) {
		return 0, 0, false
	}
	return n.level, n.findex, true
}

// outerFrame returns the frame holding a variable level frames out of the
// running call: the root frame for a global, else the frame the literal
// closes over or one around it.
func (t *intRun) outerFrame(level int) *frame {
	switch level {
	case globalFrame:
		return t.anc.root
	case 1:
		return t.anc // a literal's own captured variables (sbir patch S15)
	}
	return getFrame(t.anc, level-1)
}

// load returns the value at l.
func (l intLoc) load() intExpr {
	switch l.level {
	case 0:
		d := l.reg
		return func(r []int64, _ *intRun) int64 { return r[d] }
	case fieldLevel:
		return fieldRead(l.off, l.isBool)
	}
	level, index := l.level, l.index
	if l.isBool {
		return func(_ []int64, t *intRun) int64 { return b2i(t.outerFrame(level).data[index].Bool()) }
	}
	if typ := l.typ; typ != nil {
		return func(_ []int64, t *intRun) int64 {
			v := &t.outerFrame(level).data[index]
			if p := addrOfType(*v, typ); p != nil {
				return *(*int64)(p)
			}
			return v.Int()
		}
	}
	return func(_ []int64, t *intRun) int64 { return t.outerFrame(level).data[index].Int() }
}

// store returns the statement storing e's value at l.
func (l intLoc) store(e intExpr) intStmt {
	switch l.level {
	case 0:
		d := l.reg
		return func(r []int64, t *intRun) intCtl {
			r[d] = e(r, t)
			return ctlNext
		}
	case fieldLevel:
		return fieldStore(l.off, l.isBool, e)
	}
	level, index := l.level, l.index
	if l.isBool {
		return func(r []int64, t *intRun) intCtl {
			v := e(r, t) != 0
			t.outerFrame(level).data[index].SetBool(v)
			return ctlNext
		}
	}
	if typ := l.typ; typ != nil {
		return func(r []int64, t *intRun) intCtl {
			x := e(r, t)
			v := &t.outerFrame(level).data[index]
			if p := addrOfType(*v, typ); p != nil && v.CanSet() {
				*(*int64)(p) = x
			} else {
				v.SetInt(x)
			}
			return ctlNext
		}
	}
	return func(r []int64, t *intRun) intCtl {
		v := e(r, t)
		t.outerFrame(level).data[index].SetInt(v)
		return ctlNext
	}
}

// setTo stores v, computed already, at l (a parallel assignment's).
func (l intLoc) setTo(r []int64, t *intRun, v int64) {
	switch {
	case l.level == 0:
		r[l.reg] = v
	case l.level == fieldLevel:
		p := unsafe.Add(t.recv, l.off)
		if l.isBool {
			*(*bool)(p) = v != 0
		} else {
			*(*int64)(p) = v
		}
	case l.isBool:
		t.outerFrame(l.level).data[l.index].SetBool(v != 0)
	default:
		t.outerFrame(l.level).data[l.index].SetInt(v)
	}
}

// outerRead compiles a read of n when it names a variable outside the
// function.
func (c *intCompiler) outerRead(n *node) (intExpr, bool) {
	level, index, ok := c.outer(n)
	if !ok {
		return nil, false
	}
	_, isBool, _ := intKindNarrow(n.typ)
	return outerLoc(n, level, index, isBool).load(), true
}
