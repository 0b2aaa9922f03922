package interp

// Range over functions (Go 1.23): sbir patch 8a.
//
// The loop calls the function with a yield function that runs the loop body
// in the frame of the enclosing function, as the body of any other loop runs:
// its variables, defers and return values are the enclosing function's. The
// body leaves through sentinel nodes that record in a frame slot how it ended
// and stop its execution; yield then returns true (next iteration) or false
// (break, return, or a jump to a label outside the loop), and once the
// function returns, the loop continues at the recorded place. No goroutine is
// involved, so nothing outlives a loop that is left early.

import (
	"reflect"
)

// States of a range-over-func loop, stored in the loop's frame slot.
const (
	rangeFuncRunning = -1 // the body is running; left as is by a return statement
	rangeFuncNext    = 0  // the body ended or continued: yield returns true
	rangeFuncReturn  = 1  // the body returned from the enclosing function
	rangeFuncJump    = 2  // + i: the body left the loop for jumps[i].tnext
)

// rangeFuncLoop is the compiled form of a range statement over a function,
// kept in the rangeStmt node's val.
type rangeFuncLoop struct {
	state  int          // frame index of the loop's state
	kindex int          // frame index of the first iteration variable, or -1
	vindex int          // frame index of the second iteration variable, or -1
	yield  reflect.Type // type of the yield function the range function takes
	cont   *node        // sentinel: next iteration
	jumps  []*node      // sentinels: leave the loop for their tnext
}

// rangeFuncError is a run-time error raised as the gc runtime raises it when
// a range function misbehaves.
type rangeFuncError string

func (e rangeFuncError) Error() string { return "runtime error: " + string(e) }

// RuntimeError marks rangeFuncError as a runtime.Error.
func (e rangeFuncError) RuntimeError() {}

// The gc runtime's messages (runtime/panic.go).
const (
	rangeDoneError         = rangeFuncError("range function continued iteration after function for loop body returned false")
	rangePanicError        = rangeFuncError("range function continued iteration after loop body panic")
	rangeExhaustedError    = rangeFuncError("range function continued iteration after whole loop exit")
	rangeMissingPanicError = rangeFuncError("range function recovered a loop body panic and did not resume panicking")
)

// rangeFuncArgs returns the types of the values yielded by a function of type
// t, and the type of its yield function, if a range statement can range over
// it: func(yield func() bool), func(yield func(V) bool) or
// func(yield func(K, V) bool), named or not, interpreted or compiled.
func rangeFuncArgs(t *itype) ([]*itype, reflect.Type, bool) {
	for t != nil && t.cat == linkedT {
		t = t.val
	}
	if t == nil {
		return nil, nil, false
	}
	switch t.cat {
	case funcT:
		if len(t.arg) != 1 || len(t.ret) != 0 {
			return nil, nil, false
		}
		y := t.arg[0]
		for y != nil && y.cat == linkedT {
			y = y.val
		}
		if y == nil {
			return nil, nil, false
		}
		switch y.cat {
		case funcT:
			if len(y.ret) != 1 || len(y.arg) > 2 || !isBool(y.ret[0]) {
				return nil, nil, false
			}
			for _, a := range y.arg {
				if a.cat == variadicT {
					return nil, nil, false
				}
			}
			return y.arg, t.arg[0].TypeOf(), true
		case valueT:
			args, ok := rangeFuncYieldArgs(y.rtype)
			return args, y.rtype, ok
		}
	case valueT:
		rt := t.rtype
		if rt == nil || rt.Kind() != reflect.Func || rt.NumIn() != 1 || rt.NumOut() != 0 {
			return nil, nil, false
		}
		args, ok := rangeFuncYieldArgs(rt.In(0))
		return args, rt.In(0), ok
	}
	return nil, nil, false
}

// rangeFuncYieldArgs returns the argument types of a compiled yield function type.
func rangeFuncYieldArgs(y reflect.Type) ([]*itype, bool) {
	if y.Kind() != reflect.Func || y.IsVariadic() || y.NumIn() > 2 || y.NumOut() != 1 || y.Out(0).Kind() != reflect.Bool {
		return nil, false
	}
	args := make([]*itype, y.NumIn())
	for i := range args {
		args[i] = valueTOf(y.In(i))
	}
	return args, true
}

// addRangeFunc declares the variables of range statement n over a function
// yielding values of types args, and makes n a range-over-func loop.
func (s *scope) addRangeFunc(n *node, args []*itype, yield reflect.Type) error {
	k, o := n.child[0], n.child[1]
	var v *node
	if len(n.child) == 4 {
		v, o = n.child[1], n.child[2]
	}
	switch {
	case len(args) == 0 && (k.ident != "_" || v != nil):
		return o.cfgErrorf("range over %s permits no iteration variables", rangeOperandName(o))
	case len(args) == 1 && v != nil:
		return o.cfgErrorf("range over %s permits only one iteration variable", rangeOperandName(o))
	}
	rf := &rangeFuncLoop{yield: yield, kindex: -1, vindex: -1}
	rf.state = s.add(s.getType("int"))
	ktyp := s.getType("int") // unused slot of "for range f"
	if len(args) > 0 {
		ktyp = args[0]
	}
	kindex := s.add(ktyp)
	s.sym[k.ident] = &symbol{index: kindex, kind: varSym, typ: ktyp}
	k.typ, k.findex = ktyp, kindex
	if len(args) > 0 {
		rf.kindex = kindex
	}
	if v != nil {
		vindex := s.add(args[1])
		s.sym[v.ident] = &symbol{index: vindex, kind: varSym, typ: args[1]}
		v.typ, v.findex = args[1], vindex
		rf.vindex = vindex
	}
	n.val = rf
	n.gen = rangeFunc
	return nil
}

func rangeOperandName(o *node) string {
	if o.ident != "" {
		return o.ident
	}
	return "function"
}

// wire sets the control flow of range-over-func loop n: the operand, then n,
// whose exec runs the whole loop. The body starts at n.tnext and ends at the
// cont sentinel; break, continue and goto statements in the body (and the
// exits of inner range-over-func loops) that leave it are redirected to
// sentinels of this loop.
func (rf *rangeFuncLoop) wire(n *node) {
	o, body := n.child[len(n.child)-2], n.lastChild()
	n.start = o.start
	o.tnext = n
	n.tnext = body.start
	rf.cont = rf.sentinel(n, rangeFuncNext, nil)
	body.tnext = rf.cont

	targets := map[*node]*node{}
	retarget := func(s *node) {
		t := s.tnext
		switch {
		case t == nil, t == body, t.hasAnc(body):
			// Not resolved yet (forward goto) or inside the body.
		case t == n:
			s.tnext = rf.cont
		default:
			j := targets[t]
			if j == nil {
				j = rf.sentinel(n, rangeFuncJump+len(rf.jumps), t)
				rf.jumps = append(rf.jumps, j)
				targets[t] = j
			}
			s.tnext = j
		}
	}
	body.Walk(func(c *node) bool {
		switch c.kind {
		case funcLit:
			return false
		case breakStmt, continueStmt, gotoStmt:
			retarget(c)
		case rangeStmt:
			if inner, ok := c.val.(*rangeFuncLoop); ok {
				for _, j := range inner.jumps {
					retarget(j)
				}
			}
		}
		return true
	}, nil)
}

// sentinel returns a node that records state in the loop's frame slot and
// ends the execution of the body.
func (rf *rangeFuncLoop) sentinel(n *node, state int, target *node) *node {
	s := &node{anc: n, interp: n.interp, pos: n.pos, scope: n.scope, action: aNop, tnext: target}
	s.start = s
	index := rf.state
	s.gen = func(s *node) {
		s.exec = func(f *frame) bltn {
			f.data[index].SetInt(int64(state))
			return nil
		}
	}
	return s
}

// Stages of one execution of a range-over-func loop, as seen by yield.
const (
	rangeCalling   = iota // in the range function, body not running
	rangeInBody           // the body is running, or panicked
	rangeDone             // the body ended the loop: yield returned false
	rangeExhausted        // the range function returned
)

// rangeFunc generates the execution of range-over-func loop n.
func rangeFunc(n *node) {
	rf := n.val.(*rangeFuncLoop)
	iterator := genFuncValue(n.child[len(n.child)-2])
	body := getExec(n.tnext)
	fnext := getExec(n.fnext)
	jumps := make([]bltn, len(rf.jumps))
	for i, j := range rf.jumps {
		jumps[i] = getExec(j.tnext)
	}
	state, kindex, vindex := rf.state, rf.kindex, rf.vindex
	yieldType := rf.yield
	interp := n.interp
	vTrue, vFalse := []reflect.Value{reflect.ValueOf(true)}, []reflect.Value{reflect.ValueOf(false)}

	n.exec = func(f *frame) bltn {
		fn := iterator(f)
		if fn.Kind() == reflect.Func && fn.IsNil() {
			var nilFunc func()
			nilFunc() // the run-time error gc raises: nil pointer dereference
		}
		stage := rangeCalling
		yield := reflect.MakeFunc(yieldType, func(in []reflect.Value) []reflect.Value {
			interp.checkCallbackArgs(in) // sbir patch 18
			switch stage {
			case rangeInBody:
				panic(rangePanicError)
			case rangeDone:
				panic(rangeDoneError)
			case rangeExhausted:
				panic(rangeExhaustedError)
			}
			// Each iteration has its own variables (Go 1.22): closures
			// made by an earlier iteration keep theirs.
			if kindex >= 0 {
				f.data[kindex] = newRangeVar(f.data[kindex].Type(), in[0])
			}
			if vindex >= 0 {
				f.data[vindex] = newRangeVar(f.data[vindex].Type(), in[1])
			}
			stage = rangeInBody
			f.data[state].SetInt(rangeFuncRunning)
			for exec := body; exec != nil && f.runid() == interp.runid(); {
				exec = exec(f)
			}
			switch f.data[state].Int() {
			case rangeFuncNext:
				stage = rangeCalling
				return vTrue
			case rangeFuncRunning:
				// A return statement, or the run was cancelled.
				f.data[state].SetInt(rangeFuncReturn)
			}
			stage = rangeDone
			return vFalse
		})
		f.data[state].SetInt(rangeFuncNext)
		fn.Call([]reflect.Value{yield})
		if stage == rangeInBody {
			panic(rangeMissingPanicError)
		}
		stage = rangeExhausted
		switch s := int(f.data[state].Int()); {
		case s == rangeFuncReturn:
			return nil
		case s >= rangeFuncJump:
			return jumps[s-rangeFuncJump]
		}
		return fnext
	}
}

// newRangeVar returns a new iteration variable of type t holding src.
func newRangeVar(t reflect.Type, src reflect.Value) reflect.Value {
	v := reflect.New(t).Elem()
	setRangeVar(v, src)
	return v
}

// setRangeVar stores a yielded value in an iteration variable.
func setRangeVar(dst, src reflect.Value) {
	switch {
	case !src.IsValid():
		dst.Set(reflect.Zero(dst.Type()))
	case src.Type().AssignableTo(dst.Type()):
		dst.Set(src)
	case dst.Type() == valueInterfaceType:
		dst.Set(reflect.ValueOf(valueInterface{value: src}))
	default:
		dst.Set(src.Convert(dst.Type()))
	}
}

// rangeOperand returns the expression range statement n ranges over.
func rangeOperand(n *node) *node {
	return n.child[len(n.child)-2]
}
