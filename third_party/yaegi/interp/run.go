package interp

//go:generate go run ../internal/cmd/genop/genop.go

import (
	"errors"
	"fmt"
	"go/constant"
	"math"
	"reflect"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"unicode/utf8"
)

// bltn type defines functions which run at CFG execution.
type bltn func(f *frame) bltn

// bltnGenerator type defines a builtin generator function.
type bltnGenerator func(n *node)

var builtin = [...]bltnGenerator{
	aNop:          nop,
	aAddr:         addr,
	aAssign:       assign,
	aAdd:          add,
	aAddAssign:    addAssign,
	aAnd:          and,
	aAndAssign:    andAssign,
	aAndNot:       andNot,
	aAndNotAssign: andNotAssign,
	aBitNot:       bitNot,
	aCall:         call,
	aCallSlice:    call,
	aCase:         _case,
	aCompositeLit: arrayLit,
	aDec:          dec,
	aEqual:        equal,
	aGetFunc:      getFunc,
	aGreater:      greater,
	aGreaterEqual: greaterEqual,
	aInc:          inc,
	aLand:         land,
	aLor:          lor,
	aLower:        lower,
	aLowerEqual:   lowerEqual,
	aMul:          mul,
	aMulAssign:    mulAssign,
	aNeg:          neg,
	aNot:          not,
	aNotEqual:     notEqual,
	aOr:           or,
	aOrAssign:     orAssign,
	aPos:          pos,
	aQuo:          quo,
	aQuoAssign:    quoAssign,
	aRange:        _range,
	aRecv:         recv,
	aRem:          rem,
	aRemAssign:    remAssign,
	aReturn:       _return,
	aSend:         send,
	aShl:          shl,
	aShlAssign:    shlAssign,
	aShr:          shr,
	aShrAssign:    shrAssign,
	aSlice:        slice,
	aSlice0:       slice0,
	aStar:         deref,
	aSub:          sub,
	aSubAssign:    subAssign,
	aTypeAssert:   typeAssertShort,
	aXor:          xor,
	aXorAssign:    xorAssign,
}

var receiverStripperRxp *regexp.Regexp

func init() {
	re := `func\(((.*?(, |\)))(.*))`
	var err error
	receiverStripperRxp, err = regexp.Compile(re)
	if err != nil {
		panic(err)
	}
}

type valueInterface struct {
	node  *node
	value reflect.Value
}

var floatType, complexType reflect.Type

func init() {
	floatType = reflect.ValueOf(0.0).Type()
	complexType = reflect.ValueOf(complex(0, 0)).Type()
}

func (interp *Interpreter) run(n *node, cf *frame) {
	if n == nil {
		return
	}
	var f *frame
	if cf == nil {
		f = interp.frame
	} else {
		f = newFrame(cf, len(n.types), interp.runid())
	}
	interp.mutex.RLock()
	c := reflect.ValueOf(interp.done)
	interp.mutex.RUnlock()

	f.mutex.Lock()
	f.done = reflect.SelectCase{Dir: reflect.SelectRecv, Chan: c}
	f.mutex.Unlock()

	for i, t := range n.types {
		f.data[i] = reflect.New(t).Elem()
	}
	runCfg(n.start, f, n, nil)
}

func isExecNode(n *node, exec bltn) bool {
	if n == nil || n.exec == nil || exec == nil {
		return false
	}

	a1 := reflect.ValueOf(n.exec).Pointer()
	a2 := reflect.ValueOf(exec).Pointer()
	return a1 == a2
}

// originalExecNode looks in the tree of nodes for the node which has exec,
// aside from n, in order to know where n "inherited" that exec from.
func originalExecNode(n *node, exec bltn) *node {
	execAddr := reflect.ValueOf(exec).Pointer()
	var originalNode *node
	seen := make(map[int64]struct{})
	root := n
	for {
		root = root.anc
		if root == nil {
			break
		}
		if _, ok := seen[root.index]; ok {
			continue
		}

		root.Walk(func(wn *node) bool {
			if _, ok := seen[wn.index]; ok {
				return true
			}
			seen[wn.index] = struct{}{}
			if wn.index == n.index {
				return true
			}
			if wn.exec == nil {
				return true
			}
			if reflect.ValueOf(wn.exec).Pointer() == execAddr {
				originalNode = wn
				return false
			}
			return true
		}, nil)

		if originalNode != nil {
			break
		}
	}

	return originalNode
}

// cloned from net/http/server.go , so we can enforce a similar behavior:
// in the stdlib, this error is used as sentinel in panic triggered e.g. on
// request cancellation, in order to catch it and suppress it in a following defer.
// in yaegi, we use it to suppress a "panic" log message that happens in the
// same circumstances.
var errAbortHandler = errors.New("net/http: abort Handler")

// Functions set to run during execution of CFG.

func panicFunc(s *scope) string {
	if s == nil {
		return ""
	}
	def := s.def
	if def == nil {
		return s.pkgID
	}
	switch def.kind {
	case funcDecl:
		if c := def.child[1]; c.kind == identExpr {
			return s.pkgID + "." + c.ident
		}
	case funcLit:
		if def.anc != nil {
			return panicFunc(def.anc.scope) + ".func"
		}
	}
	return s.pkgID
}

// runCfg executes a node AST by walking its CFG and running node builtin at each step.
// Exiter is implemented by panic values that end an evaluation the way
// os.Exit ends a program: the deferred functions of the interpreted
// frames they unwind do not run, so recover cannot stop them, and no
// panic trace is printed. A host that must not let interpreted code end
// its process provides os.Exit as a function that panics with such a
// value, and finds it in the Panic that Eval returns (sbir patch 11b).
type Exiter interface {
	ExitStatus() int
}

func runCfg(n *node, f *frame, funcNode, callNode *node) {
	// sbir patch 21: the panic that leaves a frame is raised again here,
	// once the frame's own run has returned, rather than inside its
	// deferred function. A panic raised in a deferred function starts
	// with every frame it unwound still on the stack, and the Go runtime
	// walks them all again: a panic 16,000 interpreted calls deep took
	// 35 s (quadratic) to reach the top. Raised here, it starts above
	// the dead frames, and unwinding is linear.
	if pending, panicking := runFrame(n, f, funcNode, callNode); panicking {
		panic(pending)
	}
}

// callDeferred calls a deferred function, and returns what it panicked
// with when ok is false (sbir patch 57).
func callDeferred(val []reflect.Value) (p interface{}, ok bool) {
	defer func() {
		if !ok {
			p = recover()
		}
	}()
	val[0].Call(val[1:])
	return nil, true
}

// runFrame is runCfg's body; panicking reports a panic that runCfg must
// raise again with pending.
func runFrame(n *node, f *frame, funcNode, callNode *node) (pending interface{}, panicking bool) {
	var exec bltn
	simple := noDeferredCalls(funcNode) // sbir patch S8
	defer func() {
		rec := recover()
		if rec == nil && simple {
			// sbir patch S8: a frame that can have no deferred call and
			// no recovered panic has nothing to do here, and its lock
			// (twice) was a tenth of a recursive call's cost.
			return
		}
		f.mutex.Lock()
		f.recovered = rec
		deferred := f.deferred
		// sbir patch 11b: an exit runs no deferred function (so no
		// recover sees it) and prints no panic trace.
		_, exit := f.recovered.(Exiter)
		// sbir patch 10d: the deferred calls run without the frame's
		// lock: a closure made in this frame takes it when it returns
		// (getFunc), so "fn := func() {...}; defer fn()" hung for good.
		f.mutex.Unlock()
		if exit {
			pending, panicking = f.recovered, true
			return
		}
		for _, val := range deferred {
			f.mutex.Lock()
			before := f.recovered
			f.mutex.Unlock()
			// sbir patch 57: a deferred call that panics replaces the
			// frame's panic, and the deferred calls after it still run
			// (one of them may recover it), as in gc.
			p, ok := callDeferred(val)
			f.mutex.Lock()
			recovered := before != nil && f.recovered == nil
			f.mutex.Unlock()
			if ok {
				if recovered {
					// sbir patch 69: the recovery is complete; the
					// panics it ended are no longer under way.
					n.interp.panics.take()
				}
				continue
			}
			if before != nil {
				// sbir patch 69: the frame's panic was under way.
				n.interp.panics.add(before, recovered, recovered && samePanicValue(before, p))
			}
			if _, exit := p.(Exiter); exit {
				pending, panicking = p, true
				return
			}
			f.mutex.Lock()
			f.recovered = p
			f.mutex.Unlock()
		}
		f.mutex.Lock()
		// sbir patch 8d: the root frame outlives this run (a REPL evaluates
		// again in it); its deferred calls must not run again.
		f.deferred = nil
		if f.recovered != nil {
			oNode := originalExecNode(n, exec)
			if oNode == nil {
				oNode = n
			}
			errorer, ok := f.recovered.(error)
			// in this specific case, the stdlib would/will suppress the panic, so we
			// suppress the logging here accordingly, to get a similar and consistent
			// behavior.
			if !ok || errorer.Error() != errAbortHandler.Error() {
				fmt.Fprintln(n.interp.stderr, oNode.cfgErrorf("panic: %s(...)", panicFunc(oNode.scope)))
			}
			pending, panicking = f.recovered, true
			f.mutex.Unlock()
			return
		}
		f.mutex.Unlock()
	}()

	dbg := n.interp.debugger
	if dbg == nil {
		for exec := n.exec; exec != nil && f.runid() == n.interp.runid(); {
			exec = exec(f)
		}
		return
	}

	if n.exec == nil {
		return
	}

	dbg.enterCall(funcNode, callNode, f)
	defer dbg.exitCall(funcNode, callNode, f)

	for m, exec := n, n.exec; f.runid() == n.interp.runid(); {
		if dbg.exec(m, f) {
			break
		}

		exec = exec(f)
		if exec == nil {
			break
		}

		if m == nil {
			m = originalExecNode(n, exec)
			continue
		}

		switch {
		case isExecNode(m.tnext, exec):
			m = m.tnext
		case isExecNode(m.fnext, exec):
			m = m.fnext
		default:
			m = originalExecNode(m, exec)
		}
	}
	return
}

func stripReceiverFromArgs(signature string) (string, error) {
	fields := receiverStripperRxp.FindStringSubmatch(signature)
	if len(fields) < 5 {
		return "", errors.New("error while matching method signature")
	}
	if fields[3] == ")" {
		return fmt.Sprintf("func()%s", fields[4]), nil
	}
	return fmt.Sprintf("func(%s", fields[4]), nil
}

func typeAssertShort(n *node) {
	typeAssert(n, true, false)
}

func typeAssertLong(n *node) {
	typeAssert(n, true, true)
}

func typeAssertStatus(n *node) {
	typeAssert(n, false, true)
}

func typeAssert(n *node, withResult, withOk bool) {
	c0, c1 := n.child[0], n.child[1]
	value := genValue(c0) // input value
	var value0, value1 func(*frame) reflect.Value
	setStatus := false
	if withResult && withOk && n.anc.child[0].ident == "_" {
		// sbir patch 20b: `_, ok := x.(I)` stores no result (the blank's
		// slot has no type to receive it).
		withResult = false
	}
	switch {
	case withResult && withOk:
		value0 = genValue(n.anc.child[0])       // returned result
		value1 = genValue(n.anc.child[1])       // returned status
		setStatus = n.anc.child[1].ident != "_" // do not assign status to "_"
	case withResult && !withOk:
		value0 = genValue(n) // returned result
	case !withResult && withOk:
		value1 = genValue(n.anc.child[1])       // returned status
		setStatus = n.anc.child[1].ident != "_" // do not assign status to "_"
	}

	typ := c1.typ // type to assert or convert to
	typID := typ.id()
	rtype := typ.refType(nil) // type to assert
	next := getExec(n.tnext)

	switch {
	case isInterfaceSrc(typ):
		n.exec = func(f *frame) bltn {
			valf := value(f)
			v, ok := valf.Interface().(valueInterface)
			if !ok {
				// sbir patch 95: an error of an interpreted type held in
				// its wrapper implements the interpreted interface typ.
				if wv, wok := wrappedAsInterface(valf, typ, n.interp); wok {
					v, ok = wv.Interface().(valueInterface)
				}
			}
			if setStatus {
				defer func() {
					value1(f).SetBool(ok)
				}()
			}
			if !ok {
				if !withOk {
					panic(assertionErrorf("interface conversion: nil is not %v", typID)) // sbir patch 55
				}
				return next
			}
			if c0.typ.cat == valueT || valf.Type() != valueInterfaceType {
				// sbir patch 20b: an empty interface's slot holds the
				// valueInterface as an interface{}; the result's slot is a
				// valueInterface.
				valf = reflect.ValueOf(v)
			}
			if v.node.typ.id() == typID {
				if withResult {
					value0(f).Set(valf)
				}
				return next
			}
			m0 := v.node.typ.methods()
			m1 := typ.methods()
			if len(m0) < len(m1) {
				ok = false
				if !withOk {
					panic(assertionErrorf("interface conversion: %v is not %v", v.node.typ.id(), typID)) // sbir patch 55
				}
				return next
			}

			for k, meth1 := range m1 {
				var meth0 string
				meth0, ok = m0[k]
				if !ok {
					return next
				}
				// As far as we know this equality check can fail because they are two ways to
				// represent the signature of a method: one where the receiver appears before the
				// func keyword, and one where it is just a func signature, and the receiver is
				// seen as the first argument. That's why if that equality fails, we try harder to
				// compare them afterwards. Hopefully that is the only reason this equality can fail.
				if meth0 == meth1 {
					continue
				}
				tm := lookupFieldOrMethod(v.node.typ, k)
				if tm == nil {
					ok = false
					return next
				}

				var err error
				meth0, err = stripReceiverFromArgs(meth0)
				if err != nil {
					ok = false
					return next
				}

				if meth0 != meth1 {
					ok = false
					return next
				}
			}

			if withResult {
				value0(f).Set(valf)
			}
			return next
		}
	case isInterface(typ):
		n.exec = func(f *frame) bltn {
			var leftType reflect.Type
			v := value(f)
			val, ok := v.Interface().(valueInterface)
			if setStatus {
				defer func() {
					value1(f).SetBool(ok)
				}()
			}
			if ok && val.node.typ.cat != valueT {
				m0 := val.node.typ.methods()
				m1 := typ.methods()
				if len(m0) < len(m1) {
					ok = false
					return next
				}

				for k, meth1 := range m1 {
					var meth0 string
					meth0, ok = m0[k]
					if !ok {
						return next
					}
					if meth0 != meth1 {
						ok = false
						return next
					}
				}

				if withResult {
					// sbir patch 164: wrap the value the valueInterface
					// holds; its node is where the value was made, which
					// reads another frame's slot when that was a function
					// returning it (asAny(1).(error)).
					held := val.value
					value0(f).Set(genInterfaceWrapperOf(val.node, rtype, func(*frame) reflect.Value { return held })(f))
				}
				ok = true
				return next
			}

			if ok {
				v = val.value
				leftType = val.node.typ.rtype
			} else {
				v = v.Elem()
				leftType = v.Type()
				ok = true
			}
			ok = v.IsValid()
			if !ok {
				if !withOk {
					panic(assertionErrorf("interface conversion: interface {} is nil, not %s", rtype.String())) // sbir patch 55
				}
				return next
			}
			ok = canAssertTypes(leftType, rtype)
			if !ok {
				if !withOk {
					method := firstMissingMethod(leftType, rtype)
					panic(assertionErrorf("interface conversion: %s is not %s: missing method %s", leftType.String(), rtype.String(), method)) // sbir patch 55
				}
				return next
			}
			if withResult {
				value0(f).Set(v)
			}
			return next
		}
	case isEmptyInterface(n.child[0].typ):
		n.exec = func(f *frame) bltn {
			var ok bool
			if setStatus {
				defer func() {
					value1(f).SetBool(ok)
				}()
			}
			val := value(f)
			concrete := val.Interface()
			ctyp := reflect.TypeOf(concrete)

			exact, same := false, false
			if vv, isVI := concrete.(valueInterface); isVI {
				ctyp = vv.value.Type()
				concrete = vv.value.Interface()
				// sbir patch 60b: a value of a defined non-struct type
				// kept with its type matches that type only, not others
				// its reflect type stands for (Planet is not a string).
				exact = vv.node != nil && isIndistinctDefined(vv.node.typ) && !isInterface(typ)
				if exact {
					same = vv.node.typ.id() == typ.id()
				}
			}
			if ok = same; !exact {
				ok = canAssertTypes(ctyp, rtype)
			}
			if !ok {
				if !withOk {
					// TODO(mpl): think about whether this should ever happen.
					if ctyp == nil {
						panic(assertionErrorf("interface conversion: interface {} is nil, not %s", rtype.String())) // sbir patch 55
					}
					panic(assertionErrorf("interface conversion: interface {} is %s, not %s", assertTypeString(valueNodeType(val), ctyp), assertTypeString(typ, rtype))) // sbir patch 55
				}
				return next
			}
			if withResult {
				if isInterfaceSrc(typ) {
					// TODO(mpl): this requires more work. the wrapped node is not complete enough.
					value0(f).Set(reflect.ValueOf(valueInterface{n.child[0], reflect.ValueOf(concrete)}))
				} else {
					value0(f).Set(reflect.ValueOf(concrete))
				}
			}
			return next
		}
	case n.child[0].typ.cat == valueT || n.child[0].typ.cat == errorT:
		n.exec = func(f *frame) bltn {
			v := value(f).Elem()
			ok := v.IsValid()
			if setStatus {
				defer func() {
					value1(f).SetBool(ok)
				}()
			}
			if !ok {
				if !withOk {
					panic(assertionErrorf("interface conversion: interface {} is nil, not %s", rtype.String())) // sbir patch 55
				}
				return next
			}
			// sbir patch 203: a compiled `any` (sync.Map.Load's result)
			// holding a value of a defined non-struct type kept with its
			// type matches that type only, as patch 60b does for `any`.
			exact, same := false, false
			if vv, isVI := heldVI(v); isVI && vv.node != nil && isIndistinctDefined(vv.node.typ) && !isInterface(typ) {
				exact, same = true, vv.node.typ.id() == typ.id()
			}
			v = valueInterfaceValue(v)
			if vt := v.Type(); vt.Kind() == reflect.Struct && vt.Field(0).Name == "IValue" {
				// Value is retrieved from an interface wrapper.
				v = v.Field(0).Elem()
			}
			if ok = same; !exact {
				ok = canAssertTypes(v.Type(), rtype)
			}
			if !ok {
				if !withOk {
					method := firstMissingMethod(v.Type(), rtype)
					panic(assertionErrorf("interface conversion: %s is not %s: missing method %s", v.Type().String(), rtype.String(), method)) // sbir patch 55
				}
				return next
			}
			if withResult {
				value0(f).Set(v)
			}
			return next
		}
	default:
		n.exec = func(f *frame) bltn {
			v, ok := value(f).Interface().(valueInterface)
			if setStatus {
				defer func() {
					value1(f).SetBool(ok)
				}()
			}
			if !ok || !v.value.IsValid() {
				ok = false
				if !withOk {
					panic(assertionErrorf("interface conversion: interface {} is nil, not %s", rtype.String())) // sbir patch 55
				}
				return next
			}

			ok = canAssertTypes(v.value.Type(), rtype)
			if !ok {
				if !withOk {
					panic(assertionErrorf("interface conversion: interface {} is %s, not %s", v.value.Type().String(), rtype.String())) // sbir patch 55
				}
				return next
			}
			if withResult {
				value0(f).Set(v.value)
			}
			return next
		}
	}
}

func canAssertTypes(src, dest reflect.Type) bool {
	if dest == nil {
		return false
	}
	if src == dest {
		return true
	}
	if dest.Kind() == reflect.Interface && src.Implements(dest) {
		return true
	}
	if src == nil {
		return false
	}
	if src.AssignableTo(dest) {
		return true
	}
	return false
}

func firstMissingMethod(src, dest reflect.Type) string {
	for i := 0; i < dest.NumMethod(); i++ {
		m := dest.Method(i).Name
		if _, ok := src.MethodByName(m); !ok {
			return m
		}
	}
	return ""
}

func convert(n *node) {
	dest := genValue(n)
	c := n.child[1]
	typ := n.child[0].typ.frameType()
	next := getExec(n.tnext)

	if c.isNil() { // convert nil to type
		// TODO(mpl): Try to completely remove, as maybe frameType already does the job for interfaces.
		if isInterfaceSrc(n.child[0].typ) && !isEmptyInterface(n.child[0].typ) {
			typ = valueInterfaceType
		}
		n.exec = func(f *frame) bltn {
			dest(f).Set(reflect.New(typ).Elem())
			return next
		}
		return
	}

	doConvert := true
	var value func(*frame) reflect.Value
	switch {
	case isFuncSrc(c.typ):
		value = genFunctionWrapper(c)
	default:
		value = genValue(c)
	}

	for _, con := range n.interp.hooks.convert {
		if c.typ.rtype == nil {
			continue
		}

		fn := con(c.typ.rtype, typ)
		if fn == nil {
			continue
		}
		n.exec = func(f *frame) bltn {
			fn(value(f), dest(f))
			return next
		}
		return
	}

	if k := typ.Kind(); c.typ.TypeOf().Kind() == reflect.Slice && (k == reflect.Array || k == reflect.Ptr && typ.Elem().Kind() == reflect.Array) {
		// sbir patch 39: a slice too short for the array fails with
		// the runtime's error, not reflect's.
		value = genSliceToArray(value, typ)
	}

	if round := float32FromInt(c.typ.TypeOf(), typ); round != nil { // sbir patch 151
		n.exec = func(f *frame) bltn {
			dest(f).SetFloat(round(value(f)))
			return next
		}
		return
	}

	n.exec = func(f *frame) bltn {
		if doConvert {
			dest(f).Set(value(f).Convert(typ))
		} else {
			dest(f).Set(value(f))
		}
		return next
	}
}

// assignFromCall assigns values from a function call.
func assignFromCall(n *node) {
	ncall := n.lastChild()
	l := len(n.child) - 1
	if n.anc.kind == varDecl && n.child[l-1].isType(n.scope) {
		// Ignore the type in the assignment if it is part of a variable declaration.
		l--
	}
	dvalue := make([]func(*frame) reflect.Value, l)
	mapSet := make([]func(*frame, reflect.Value), l)
	convs := make([]func(*frame) reflect.Value, l) // sbir patch 97
	for i := range dvalue {
		if n.child[i].ident == "_" {
			continue
		}
		if writtenByCall(ncall, i, n.child[i].typ) {
			continue // sbir patch 97
		}
		dvalue[i] = genValue(n.child[i])
		mapSet[i] = genMapEntrySet(n.child[i])
		convs[i] = genResultConversion(ncall, i, n.child[i].typ)
	}
	next := getExec(n.tnext)
	n.exec = func(f *frame) bltn {
		for i, v := range dvalue {
			if v == nil {
				continue
			}
			s := f.data[ncall.findex+i]
			if conv := convs[i]; conv != nil {
				s = conv(f)
			}
			if set := mapSet[i]; set != nil {
				set(f, s) // sbir patch 35
				continue
			}
			c := n.child[i]
			if n.kind == defineXStmt && !c.redeclared {
				// Recreate destination value in case of define statement,
				// to preserve previous value possibly in use by a closure.
				data := getFrame(f, c.level).data
				data[c.findex] = reflect.New(data[c.findex].Type()).Elem()
				data[c.findex].Set(s)
				continue
			}
			v(f).Set(s)
		}
		return next
	}
}

// genMapEntrySet returns a function storing a value in the map entry c
// of a tuple assignment (m[k], err = f()), or nil if c is not a map entry.
// sbir patch 35: the results were set on a copy of the entry's value, and
// the map was left unchanged.
func genMapEntrySet(c *node) func(*frame, reflect.Value) {
	if !isMapEntry(c) {
		return nil
	}
	mapValue := genValue(c.child[0])
	key := genValue(c.child[1])
	if isInterfaceSrc(c.child[1].typ) && !isEmptyInterface(c.child[1].typ) {
		key = genValueInterface(c.child[1])
	}
	key = genMapKey(c.child[0], c.child[1], key) // sbir patch 202
	return func(f *frame, v reflect.Value) {
		m := mapValue(f)
		if v.Kind() == reflect.Interface && m.Type().Elem().Kind() != reflect.Interface {
			v = v.Elem()
		}
		m.SetMapIndex(key(f), v)
	}
}

func assign(n *node) {
	next := getExec(n.tnext)
	dvalue := make([]func(*frame) reflect.Value, n.nleft)
	ivalue := make([]func(*frame) reflect.Value, n.nleft)
	svalue := make([]func(*frame) reflect.Value, n.nleft)
	var sbase int
	if n.nright > 0 {
		sbase = len(n.child) - n.nright
	}

	for i := 0; i < n.nleft; i++ {
		dest, src := n.child[i], n.child[sbase+i]
		if isNamedFuncSrc(src.typ) {
			svalue[i] = genFuncValue(src)
		} else {
			svalue[i] = genDestValue(dest.typ, src)
		}
		if isMapEntry(dest) {
			if isInterfaceSrc(dest.child[1].typ) { // key
				ivalue[i] = genValueInterface(dest.child[1])
			} else {
				ivalue[i] = genValue(dest.child[1])
			}
			ivalue[i] = genMapKey(dest.child[0], dest.child[1], ivalue[i]) // sbir patch 202
			dvalue[i] = genValue(dest.child[0])
		} else {
			dvalue[i] = genValue(dest)
		}
	}

	if n.nleft == 1 {
		// Single assign operation.
		switch s, d, i := svalue[0], dvalue[0], ivalue[0]; {
		case n.child[0].ident == "_":
			n.exec = func(f *frame) bltn {
				return next
			}
		case i != nil:
			n.exec = func(f *frame) bltn {
				d(f).SetMapIndex(i(f), s(f))
				return next
			}
		case n.kind == defineStmt:
			l := n.level
			ind := n.findex
			n.exec = func(f *frame) bltn {
				data := getFrame(f, l).data
				data[ind] = reflect.New(data[ind].Type()).Elem()
				data[ind].Set(s(f))
				return next
			}
		default:
			n.exec = func(f *frame) bltn {
				d(f).Set(s(f))
				return next
			}
		}
		return
	}

	// Multi assign operation.
	index := make([]int, n.nright)
	level := make([]int, n.nright)

	for i := range index {
		index[i] = n.child[i].findex
		level[i] = n.child[i].level
	}

	if n.kind == defineStmt && hasRedeclared(n) {
		n.exec = redefine(n, next, svalue, index, level) // sbir patch 195
		return
	}
	if n.kind == defineStmt {
		// Handle a multiple var declararation / assign. It cannot be a swap.
		n.exec = func(f *frame) bltn {
			for i, s := range svalue {
				if n.child[i].ident == "_" {
					continue
				}
				data := getFrame(f, level[i]).data
				j := index[i]
				data[j] = reflect.New(data[j].Type()).Elem()
				data[j].Set(s(f))
			}
			return next
		}
		return
	}

	// To handle possible swap in multi-assign:
	// evaluate and copy all values in assign right hand side into temporary
	// then evaluate assign left hand side and copy temporary into it
	n.exec = func(f *frame) bltn {
		t := make([]reflect.Value, len(svalue))
		for i, s := range svalue {
			if n.child[i].ident == "_" {
				continue
			}
			// sbir patch 35: the copy has the type of the value to
			// assign (an interface destination's wrapper, say), not the
			// source's.
			v := s(f)
			t[i] = reflect.New(v.Type()).Elem()
			t[i].Set(v)
		}
		for i, d := range dvalue {
			if n.child[i].ident == "_" {
				continue
			}
			if j := ivalue[i]; j != nil {
				d(f).SetMapIndex(j(f), t[i]) // Assign a map entry
			} else {
				d(f).Set(t[i]) // Assign a var or array/slice entry
			}
		}
		return next
	}
}

func not(n *node) {
	dest := genValue(n)
	value := genValue(n.child[0])
	tnext := getExec(n.tnext)

	if n.fnext != nil {
		fnext := getExec(n.fnext)
		n.exec = func(f *frame) bltn {
			if !value(f).Bool() {
				dest(f).SetBool(true)
				return tnext
			}
			dest(f).SetBool(false)
			return fnext
		}
	} else {
		n.exec = func(f *frame) bltn {
			dest(f).SetBool(!value(f).Bool())
			return tnext
		}
	}
}

func addr(n *node) {
	dest := genValue(n)
	next := getExec(n.tnext)
	c0 := n.child[0]
	value := genValue(c0)

	if isInterfaceSrc(c0.typ) || isPtrSrc(c0.typ) {
		i := n.findex
		l := n.level
		n.exec = func(f *frame) bltn {
			getFrame(f, l).data[i] = value(f).Addr()
			return next
		}
		return
	}

	n.exec = func(f *frame) bltn {
		dest(f).Set(value(f).Addr())
		return next
	}
}

func deref(n *node) {
	value := genValue(n.child[0])
	tnext := getExec(n.tnext)
	i := n.findex
	l := n.level

	if n.fnext != nil {
		fnext := getExec(n.fnext)
		n.exec = func(f *frame) bltn {
			r := elemChecked(value(f)) // sbir patch 10c
			if r.Bool() {
				getFrame(f, l).data[i] = r
				return tnext
			}
			return fnext
		}
	} else {
		n.exec = func(f *frame) bltn {
			getFrame(f, l).data[i] = elemChecked(value(f)) // sbir patch 10c
			return tnext
		}
	}
}

func _print(n *node) {
	child := n.child[1:]
	values := make([]func(*frame) reflect.Value, len(child))
	for i, c := range child {
		values[i] = genValue(c)
	}
	// sbir patch 1: like gc, print writes to standard error, with no
	// separators, in the runtime's formats.
	out := n.interp.stderr

	genBuiltinDeferWrapper(n, values, nil, func(args []reflect.Value) []reflect.Value {
		var b []byte
		for _, value := range args {
			b = appendBuiltinPrint(b, value)
		}
		_, _ = out.Write(b)
		return nil
	})
}

func _println(n *node) {
	child := n.child[1:]
	values := make([]func(*frame) reflect.Value, len(child))
	for i, c := range child {
		values[i] = genValue(c)
	}
	// sbir patch 1: like gc, println writes to standard error.
	out := n.interp.stderr

	genBuiltinDeferWrapper(n, values, nil, func(args []reflect.Value) []reflect.Value {
		var b []byte
		for i, value := range args {
			if i > 0 {
				b = append(b, ' ')
			}
			b = appendBuiltinPrint(b, value)
		}
		b = append(b, '\n')
		_, _ = out.Write(b)
		return nil
	})
}

// appendBuiltinPrint formats one argument of the print and println
// builtins as the gc runtime does (runtime/print.go): floats in the
// shortest 'g' form, pointers, maps, channels and functions as hex
// addresses, slices as [len/cap]address, interfaces as a pair.
func appendBuiltinPrint(b []byte, v reflect.Value) []byte {
	if !v.IsValid() {
		return append(b, "0x0"...)
	}
	if vi, ok := v.Interface().(valueInterface); ok {
		v = vi.value
		if !v.IsValid() {
			return append(b, "(0x0,0x0)"...)
		}
		return fmt.Appendf(b, "(%#x,%#x)", typeAddr(v), dataAddr(v))
	}
	switch v.Kind() {
	case reflect.Bool:
		return strconv.AppendBool(b, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(b, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.AppendUint(b, v.Uint(), 10)
	case reflect.Float32:
		return strconv.AppendFloat(b, v.Float(), 'g', -1, 32)
	case reflect.Float64:
		return strconv.AppendFloat(b, v.Float(), 'g', -1, 64)
	case reflect.Complex64:
		return append(b, strconv.FormatComplex(v.Complex(), 'g', -1, 64)...)
	case reflect.Complex128:
		return append(b, strconv.FormatComplex(v.Complex(), 'g', -1, 128)...)
	case reflect.String:
		return append(b, v.String()...)
	case reflect.Pointer, reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return fmt.Appendf(b, "%#x", v.Pointer())
	case reflect.Slice:
		return fmt.Appendf(b, "[%d/%d]%#x", v.Len(), v.Cap(), v.Pointer())
	case reflect.Interface:
		if v.IsNil() {
			return append(b, "(0x0,0x0)"...)
		}
		return fmt.Appendf(b, "(%#x,%#x)", typeAddr(v.Elem()), dataAddr(v.Elem()))
	}
	return fmt.Appendf(b, "%v", v)
}

// typeAddr and dataAddr stand for the two words of an interface value
// printed by print: only their being non-zero is meaningful.
func typeAddr(v reflect.Value) uintptr { return reflect.ValueOf(v.Type()).Pointer() }

func dataAddr(v reflect.Value) uintptr {
	switch v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer, reflect.Slice:
		return v.Pointer()
	}
	if v.CanAddr() {
		return v.Addr().Pointer()
	}
	return 0
}

func _recover(n *node) {
	tnext := getExec(n.tnext)
	dest := genValue(n)

	n.exec = func(f *frame) bltn {
		// sbir patch 10d: a closure's frame is a copy of the frame it was
		// made in (getFunc); the panic being recovered is in the original.
		anc := f.anc
		if anc != nil && anc.orig != nil {
			anc = anc.orig
		}
		if anc == nil || anc.recovered == nil {
			// sbir patch 82: recover called in the global frame (a
			// statement at the top level of what Eval runs) has no
			// caller whose panic it could stop: nil, as in a function
			// that is not panicking.
			// TODO(mpl): maybe we don't need that special case, and we're just forgetting to unwrap the valueInterface somewhere else.
			if isEmptyInterface(n.typ) {
				return tnext
			}
			dest(f).Set(reflect.ValueOf(valueInterface{}))
			return tnext
		}

		if p, ok := scriptPanicOf(anc.recovered); ok {
			// sbir patch 56: the script's own value, with its type, as
			// an interface holds it.
			anc.recovered = nil
			dest(f).Set(reflect.ValueOf(p.value))
			return tnext
		}
		rec := recoveredValue(anc.recovered)
		anc.recovered = nil
		// A compiled panic's value reaches the script as a result does
		// (sbir patch 18b): heap.Init(nil) panics with a *reflect.ValueError.
		n.interp.checkCallbackArgs([]reflect.Value{reflect.ValueOf(&rec).Elem()})
		if rec == nil {
			if !isEmptyInterface(n.typ) {
				dest(f).Set(reflect.ValueOf(valueInterface{}))
			}
			return tnext
		}
		if isEmptyInterface(n.typ) {
			dest(f).Set(reflect.ValueOf(rec))
		} else {
			dest(f).Set(reflect.ValueOf(valueInterface{n, reflect.ValueOf(rec)}))
		}
		return tnext
	}
}

// recoveredValue is what recover gives the script for a Go panic value.
// sbir patch 19: panic panics with the reflect.Value of its argument
// (_panic), so recover gave the script a reflect.Value: recover() of
// panic("x") was not a string, and its methods were the script's.
// Recover what the script panicked with.
func recoveredValue(rec any) any {
	v, ok := rec.(reflect.Value)
	if !ok {
		return rec
	}
	if p, ok := scriptPanicOf(v); ok {
		// sbir patch 56: for a host, the value as an error or Stringer
		// when it is one.
		if p.shown.IsValid() {
			return p.shown.Interface()
		}
		v = p.value.value
	}
	if v.IsValid() {
		v = valueInterfaceValue(v)
	}
	if v.IsValid() && v.Kind() == reflect.Interface {
		v = v.Elem()
	}
	if v.IsValid() && v.CanInterface() {
		return v.Interface()
	}
	return new(runtime.PanicNilError) // as gc's panic(nil)
}

// Recovered returns what the script panicked with, as recover in the
// script would return it: a host that runs deferred calls of its own
// after a panic hands it to them (sbir patch 54).
func (p Panic) Recovered() any { return recoveredValue(p.Value) }

func _panic(n *node) {
	value := genPanicValue(n.child[1]) // sbir patch 56

	n.exec = func(f *frame) bltn {
		panic(value(f))
	}
}

func genBuiltinDeferWrapper(n *node, in, out []func(*frame) reflect.Value, fn func([]reflect.Value) []reflect.Value) {
	next := getExec(n.tnext)

	if n.anc.kind == deferStmt {
		n.exec = func(f *frame) bltn {
			val := make([]reflect.Value, len(in)+1)
			inTypes := make([]reflect.Type, len(in))
			for i, v := range in {
				val[i+1] = deferArg(v(f)) // sbir patch 8b
				inTypes[i] = val[i+1].Type()
			}
			outTypes := make([]reflect.Type, len(out))
			for i, v := range out {
				outTypes[i] = v(f).Type()
			}

			funcType := reflect.FuncOf(inTypes, outTypes, false)
			val[0] = reflect.MakeFunc(funcType, fn)
			f.deferred = append([][]reflect.Value{val}, f.deferred...)
			return next
		}
		return
	}

	n.exec = func(f *frame) bltn {
		val := make([]reflect.Value, len(in))
		for i, v := range in {
			val[i] = v(f)
		}

		dests := fn(val)

		for i, dest := range dests {
			out[i](f).Set(dest)
		}
		return next
	}
}

func genFunctionWrapper(n *node) func(*frame) reflect.Value {
	var def *node
	var ok bool

	if def, ok = n.val.(*node); !ok {
		return genValueAsFunctionWrapper(n)
	}
	start := def.child[3].start
	numRet := len(def.typ.ret)
	var rcvr func(*frame) reflect.Value

	if n.recv != nil {
		rcvr = genValueRecv(n)
	}
	funcType := n.typ.TypeOf()
	closure := def.kind == funcLit
	methodExpr := isMethodExpr(n, def) // sbir patch 9d

	return func(f *frame) reflect.Value {
		if closure {
			// sbir patch 13a (and 10a): a function literal captures the
			// variables as they are now, as getFunc does: a variable declared
			// again later (the next iteration of a loop body) is a new one.
			f = f.clone()
		}
		slow := func(in []reflect.Value) []reflect.Value {
			def, start := def, start
			if def.latest != nil {
				// sbir patch 52: the latest declaration of the function
				// or method, whenever the value was made.
				def = currentDecl(def)
				start = def.child[3].start
			}
			def.interp.checkCallbackArgs(in) // sbir patch 18
			// Allocate and init local frame. All values to be settable and addressable.
			// sbir patch 114: the latest evaluation's run, not the one
			// that made the closure (f is its captured frame).
			fr := newFrame(f, len(def.types), f.root.runid())
			d := fr.data
			newFrameValues(d, def.types, def.shape) // sbir patch S2

			switch {
			case methodExpr:
				// sbir patch 9d: the receiver of a method expression is
				// its first argument.
				src, dest := in[0], d[numRet]
				if src.Kind() == reflect.Ptr && dest.Kind() != reflect.Ptr {
					src = src.Elem()
				}
				dest.Set(src)
				d, in = d[numRet+1:], in[1:]
			case rcvr == nil:
				d = d[numRet:]
			default:
				// Copy method receiver as first argument.
				setReceiver(d[numRet], rcvr(f)) // sbir patch S1
				d = d[numRet+1:]
			}

			// Copy function input arguments in local frame.
			for i, arg := range in {
				if i >= len(d) {
					// In case of unused arg, there may be not even a frame entry allocated, just skip.
					break
				}
				typ := def.typ.arg[i]
				switch {
				case isEmptyInterface(typ) || typ.TypeOf() == valueInterfaceType:
					d[i].Set(restoreAny(arg)) // sbir patch 203: sync.Map.Range's keys
				case isInterfaceSrc(typ):
					d[i].Set(reflect.ValueOf(valueInterface{value: arg.Elem()}))
				default:
					setValue(d[i], arg) // sbir patch 34
				}
			}

			// Interpreter code execution.
			runCfg(start, fr, def, n)

			return fr.data[:numRet]
		}
		if methodExpr {
			return reflect.MakeFunc(funcType, slow)
		}
		// sbir patch S6: a typed function for the common signatures.
		cb := &callback{def: def, call: n, anc: f, rcvr: rcvr, numRet: numRet}
		fn := cb.makeFunc(funcType, slow)
		if rcvr == nil {
			def.interp.recordFunc(fn, def, f) // sbir patch S3
		}
		return fn
	}
}

// isMethodExpr reports whether n is a method expression (T.M or (*T).M)
// of the method def: its function type takes the receiver first
// (sbir patch 9d).
func isMethodExpr(n, def *node) bool {
	for n.kind == parenExpr && len(n.child) == 1 { // sbir patch 38: (T.M)
		n = n.child[0]
	}
	return n != def && n.kind == selectorExpr && n.recv == nil && def.kind == funcDecl &&
		len(def.child) > 0 && len(def.child[0].child) > 0 && n.typ != nil && def.typ != nil &&
		len(n.typ.arg) == len(def.typ.arg)+1
}

func genInterfaceWrapper(n *node, typ reflect.Type) func(*frame) reflect.Value {
	return genInterfaceWrapperOf(n, typ, genValue(n))
}

// genInterfaceWrapperOf is genInterfaceWrapper for the value that value
// returns, of n's type (sbir patch 97: a call's result).
func genInterfaceWrapperOf(n *node, typ reflect.Type, value func(*frame) reflect.Value) func(*frame) reflect.Value {
	if typ == nil || typ.Kind() != reflect.Interface || typ.NumMethod() == 0 || n.typ.cat == valueT {
		return value
	}
	tc := n.typ.cat
	if tc != structT {
		// Always force wrapper generation for struct types, as they may contain
		// embedded interface fields which require wrapping, even if reported as
		// implementing typ by reflect.
		if nt := n.typ.frameType(); nt != nil && nt.Implements(typ) {
			return value
		}
	}

	// Retrieve methods from the interface wrapper, which is a struct where all fields
	// except the first define the methods to implement.
	// As the field name was generated with a prefixed first character (in order to avoid
	// collisions with method names), this first character is ignored in comparisons.
	wrap := getWrapper(n, typ)
	mn := wrapperMethodFields(wrap) // sbir patch 65: IType is no method
	names := make([]string, mn)
	methods := make([]*node, mn)
	indexes := make([][]int, mn)
	for i := 0; i < mn; i++ {
		names[i] = wrap.Field(i + 1).Name[1:]
		methods[i], indexes[i] = n.typ.lookupMethod(names[i])
		if methods[i] == nil && n.typ.cat != nilT {
			// interpreted method not found, look for binary method, possibly embedded
			_, indexes[i], _, _ = n.typ.lookupBinMethod(names[i])
		}
	}

	return func(f *frame) reflect.Value {
		v := value(f)
		if tc != structT && v.Type().Implements(typ) {
			return v
		}
		switch v.Kind() {
		case reflect.Interface:
			if v.IsNil() {
				return reflect.New(typ).Elem()
			}
		case reflect.Chan, reflect.Func, reflect.Map, reflect.Ptr, reflect.Slice:
			// sbir patch 9f: a typed nil in an interface is not a nil
			// interface; its methods get the nil receiver.
			if v.IsNil() && n.typ.cat == nilT {
				return reflect.New(typ).Elem()
			}
		}
		var n2 *node
		dyn := wrapperType(n, v) // sbir patch 65
		held := v                // what an interpreted interface holds, for its methods
		if vi, ok := v.Interface().(valueInterface); ok {
			n2 = vi.node
			for ok {
				held = vi.value
				vi, ok = held.Interface().(valueInterface)
			}
		}
		if tc == structT {
			// sbir patch 11d: the value is the struct itself, not an
			// emulated interface: getConcreteValue would put its last
			// field in the wrapper (HTTPError{404} became 404), which
			// errors.As and assertions back to the type then miss.
			for vi, ok := v.Interface().(valueInterface); ok; vi, ok = v.Interface().(valueInterface) {
				v = vi.value
			}
		} else if n2 != nil {
			// sbir patch 232: the value an interpreted interface holds
			// is the value itself; getConcreteValue's search of an
			// emulated interface's fields put a struct's last field in
			// the wrapper, which fmt printed through the struct's
			// methods ("reflect.Set: value of type string is not
			// assignable") and assertions back to the type missed.
			v = held
		} else {
			v = getConcreteValue(v)
		}
		// sbir patch 25: the interface holds a copy of the value, as
		// gc's conversion does; methods bound to the variable saw every
		// later assignment to it.
		v = copyIfVariable(v)
		w := reflect.New(wrap).Elem()
		w.Field(0).Set(v)
		if mn < wrap.NumField()-1 && dyn != nil {
			w.Field(wrap.NumField() - 1).Set(reflect.ValueOf(dyn)) // sbir patch 65
		}
		for i, m := range methods {
			if m == nil {
				// First direct method lookup on field.
				if r := methodByName(v, names[i], indexes[i]); r.IsValid() {
					w.Field(i + 1).Set(r)
					continue
				}
				if n2 == nil {
					panic(n.cfgErrorf("method not found: %s", names[i]))
				}
				// Method lookup in embedded valueInterface.
				m2, i2 := n2.typ.lookupMethod(names[i])
				if m2 != nil {
					// The receiver is the value the interface holds
					// (copied, patch 25), not getConcreteValue's v,
					// which is a struct's last field when the struct
					// has no compiled methods: File{name}'s Close got
					// the name.
					nod := *m2
					nod.recv = &receiver{nil, copyIfVariable(held), i2} // sbir patch 25
					w.Field(i + 1).Set(genFunctionWrapper(&nod)(f))
					continue
				}
				panic(n.cfgErrorf("method not found: %s", names[i]))
			}
			nod := *m
			nod.recv = &receiver{nil, v, indexes[i]} // sbir patch 25
			w.Field(i + 1).Set(genFunctionWrapper(&nod)(f))
		}
		return w
	}
}

// methodByName returns the method corresponding to name on value, or nil if not found.
// The search is extended on valueInterface wrapper if present.
// If valid, the returned value is a method function with the receiver already set
// (no need to pass it at call).
func methodByName(value reflect.Value, name string, index []int) (v reflect.Value) {
	if vi, ok := value.Interface().(valueInterface); ok {
		if v = getConcreteValue(vi.value).MethodByName(name); v.IsValid() {
			return
		}
	}
	if v = value.MethodByName(name); v.IsValid() {
		return
	}
	for value.Kind() == reflect.Ptr {
		value = value.Elem()
		if checkFieldIndex(value.Type(), index) {
			value = value.FieldByIndex(index)
		}
		if v = value.MethodByName(name); v.IsValid() {
			return
		}
	}
	return
}

func checkFieldIndex(typ reflect.Type, index []int) bool {
	if len(index) == 0 {
		return false
	}
	t := typ
	for t.Kind() == reflect.Ptr {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return false
	}
	i := index[0]
	if i >= t.NumField() {
		return false
	}
	if len(index) > 1 {
		return checkFieldIndex(t.Field(i).Type, index[1:])
	}
	return true
}

func call(n *node) {
	goroutine := n.anc.kind == goStmt
	c0 := n.child[0]
	value := genValue(c0)
	var spare spareFrame // sbir patch S8
	var values []func(*frame) reflect.Value

	numRet := len(c0.typ.ret)
	variadic := variadicPos(n)
	child := n.child[1:]
	tnext := getExec(n.tnext)
	fnext := getExec(n.fnext)
	hasVariadicArgs := n.action == aCallSlice // callSlice implies variadic call with ellipsis.

	// Compute input argument value functions.
	for i, c := range child {
		var arg *itype
		if variadic >= 0 && i >= variadic {
			arg = c0.typ.arg[variadic].val
		} else {
			arg = c0.typ.arg[i]
		}
		switch {
		case isBinCall(c, c.scope):
			// Handle nested function calls: pass returned values as arguments.
			numOut := c.child[0].typ.rtype.NumOut()
			for j := 0; j < numOut; j++ {
				ind := c.findex + j
				if hasVariadicArgs || !isInterfaceSrc(arg) || isEmptyInterface(arg) {
					values = append(values, func(f *frame) reflect.Value { return f.data[ind] })
					continue
				}
				values = append(values, func(f *frame) reflect.Value {
					return reflect.ValueOf(valueInterface{value: f.data[ind]})
				})
			}
		case isRegularCall(c):
			// Arguments are return values of a nested function call.
			cc0 := c.child[0]
			for j := range cc0.typ.ret {
				ind := c.findex + j
				if hasVariadicArgs || !isInterfaceSrc(arg) || isEmptyInterface(arg) {
					values = append(values, func(f *frame) reflect.Value { return f.data[ind] })
					continue
				}
				values = append(values, func(f *frame) reflect.Value {
					return reflect.ValueOf(valueInterface{node: cc0.typ.ret[j].node, value: f.data[ind]})
				})
			}
		default:
			if c.kind == basicLit || c.rval.IsValid() {
				argType := arg.TypeOf()
				convertLiteralValue(c, argType)
			}
			switch {
			case hasVariadicArgs && (variadic < 0 || i >= variadic):
				// The slice spread with ... (sbir patch 98: only that
				// one; the arguments before it are converted as in any
				// call: a declared function passed to a func-typed
				// parameter reached the callee as its *node).
				values = append(values, genValue(c))
			case isInterfaceSrc(arg) && (!isEmptyInterface(arg) || keepsTypeInAny(c.typ)): // sbir patch 200
				values = append(values, genValueInterface(c))
			case isInterfaceBin(arg):
				values = append(values, genInterfaceWrapper(c, arg.rtype))
			case isFuncSrc(arg):
				values = append(values, genFuncValue(c))
			default:
				values = append(values, genValue(c))
			}
		}
	}

	// Compute output argument value functions.
	rtypes := c0.typ.ret
	rvalues := make([]func(*frame) reflect.Value, len(rtypes))
	switch n.anc.kind {
	case defineXStmt, assignXStmt:
		l := n.level
		for i := range rvalues {
			c := n.anc.child[i]
			switch {
			case c.ident == "_":
				// Skip assigning return value to blank var.
			case isInterfaceSrc(c.typ) && !isEmptyInterface(c.typ) && !isInterfaceSrc(rtypes[i]) && n.anc.kind == defineXStmt:
				// sbir patch 97: for an assignment, the result goes to its
				// slot, and assignFromCall wraps it with its type (the
				// valueInterface set here had no type: "method not found").
				rvalues[i] = genValueInterfaceValue(c)
			default:
				j := n.findex + i
				rvalues[i] = func(f *frame) reflect.Value { return getFrame(f, l).data[j] }
			}
		}
	case returnStmt:
		// Function call from a return statement: forward return values (always at frame start).
		for i := range rtypes {
			j := n.findex + i
			// Set the return value location in return value of caller frame.
			rvalues[i] = func(f *frame) reflect.Value { return f.data[j] }
		}
	default:
		// Multiple return values frame index are indexed from the node frame index.
		l := n.level
		for i := range rtypes {
			j := n.findex + i
			rvalues[i] = func(f *frame) reflect.Value { return getFrame(f, l).data[j] }
		}
	}

	if n.anc.kind == deferStmt {
		// Store function call in frame for deferred execution.
		value = genFunctionWrapper(c0)
		n.exec = func(f *frame) bltn {
			val := make([]reflect.Value, len(values)+1)
			val[0] = deferArg(value(f)) // sbir patch 8b
			for i, v := range values {
				val[i+1] = deferArg(v(f))
			}
			f.deferred = append([][]reflect.Value{val}, f.deferred...)
			return tnext
		}
		return
	}

	// sbir patch S1: x.m(...) with an interpreted method m runs m's body
	// in a new frame directly; the receiver goes in the slot after the
	// results and the arguments follow it.
	method, rcvr := directMethod(n, c0)
	// sbir patch S18: x.m(...) through an interface runs x's method
	// directly too; its callee computes the method value only when the
	// call cannot (storeMethod).
	var iface *ifaceSite
	var storeMethod func(*frame)
	var ifaceValue func(*frame) reflect.Value
	if method == nil {
		if iface = ifaceMethodSite(n, c0); iface != nil {
			storeMethod, ifaceValue = storeMethodByName(c0), genValue(c0.child[0])
		}
	}
	argStart := numRet
	if method != nil || iface != nil {
		argStart++
	}

	// sbir patch S3: the call site's last interpreted function value.
	var cache funcCache
	var recv receiverSite // sbir patch S11a

	// resolve returns the function the call runs and the frame its frame
	// descends from, or the func value to call through reflect (bf).
	resolve := func(f *frame) (def *node, anc *frame, bf reflect.Value) {
		def, anc = method, f
		if def == nil {
			// sbir patch S13: the callee is read without f's lock. The
			// only writer that takes it to store a slot (a function
			// literal's evaluation) runs on the goroutine that runs f, as
			// this read does; code on other goroutines (go statements,
			// closures, callbacks) runs in frames of its own and reads f's
			// slots under those frames' locks, so f's lock never kept it
			// out. Its two atomic operations were 15% of a loop of
			// closure calls.
			bf = value(f)
			var ok bool
			// sbir patch S12: a func (a function value) is no *node:
			// no boxing to find out.
			if bf.Kind() != reflect.Func {
				if def, ok = bf.Interface().(*node); ok {
					bf = def.rval
				}
			}
			if ok && def.latest != nil {
				// sbir patch 52: a call of a function or method calls its
				// latest declaration.
				def = currentDecl(def)
				bf = def.rval
			}
			if !ok && !goroutine {
				// sbir patch S3: a function value the interpreter made runs
				// here, in a frame descending from the one it closes over,
				// as its reflect.MakeFunc body would run it.
				if d, a := n.interp.lookupFunc(bf, &cache); d != nil {
					def, anc, bf = d, a, reflect.Value{}
				}
			}
		}
		if def != nil && def.latest != nil && !bf.IsValid() {
			// sbir patches 52, S1 and S3: the method a selector names and
			// a function value the interpreter made call their latest
			// declaration too.
			def = currentDecl(def)
		}
		return def, anc, bf
	}

	// sbir patch S15: the int tier's calls (S9) take a small closure of
	// their own; the general one, whose entry alone (a large frame to
	// set up) cost a tenth of a call of a closure that runs in the tier,
	// runs the others.
	var general func(f *frame, def *node, anc *frame, bf, rv reflect.Value) bltn
	n.exec = func(f *frame) bltn {
		def, anc, bf := resolve(f)
		if def != nil && !bf.IsValid() && (def.kind == funcDecl || def.kind == funcLit) {
			// sbir patch S9: a function that computes only on ints and
			// bools runs in its int tier; when the call panicked there,
			// or called a function declared again, it runs again in the
			// interpreter.
			if fn := intFuncOf(def); fn != nil {
				if res, ok := fn.call(f, anc, values); ok {
					setIntResult(fn, rvalues, f, res)
					if fnext != nil && res == 0 {
						return fnext
					}
					return tnext
				}
			}
		}
		return general(f, def, anc, bf, reflect.Value{})
	}
	// general runs every other call: rv is a method's receiver.
	general = func(f *frame, def *node, anc *frame, bf, rv reflect.Value) bltn {
		// Call bin func if defined
		if bf.IsValid() {
			var callf func([]reflect.Value) []reflect.Value

			// Lambda definitions are necessary here. Due to reflect internals,
			// having `callf = bf.Call` or `callf = bf.CallSlice` does not work.
			//nolint:gocritic
			if hasVariadicArgs {
				callf = func(in []reflect.Value) []reflect.Value { return bf.CallSlice(in) }
			} else {
				callf = func(in []reflect.Value) []reflect.Value { return bf.Call(in) }
			}

			if goroutine {
				// Goroutine's arguments should be copied.
				in := make([]reflect.Value, len(values))
				for i, v := range values {
					value := v(f)
					in[i] = reflect.New(value.Type()).Elem()
					in[i].Set(value)
				}

				n.interp.spawn(func() { callf(in) }) // sbir patch 23
				return tnext
			}

			in := make([]reflect.Value, len(values))
			for i, v := range values {
				in[i] = v(f)
			}
			out := callf(in)
			n.interp.checkCallbackArgs(out) // sbir patch 18b
			for i, v := range rvalues {
				if v != nil {
					setValue(v(f), out[i]) // sbir patch 34
				}
			}
			if fnext != nil && !out[0].Bool() {
				return fnext
			}
			return tnext
		}

		// Init local frame values (sbir patch S2: in one allocation),
		// results included. sbir patch 24: each call starts with zero
		// results of its own, copied to their destinations when it
		// returns. Results written straight into the destinations began
		// with the values left there by the previous call (named results
		// read as "neg" after a call that set them, and a function that
		// recovered returned the previous call's value), and a variable
		// assigned the call's result changed while the call ran.
		// sbir patch S8: a frame used before when def allows it, given
		// back below once the results are copied; a goroutine's frame is
		// its own.
		var nf *frame
		var pf *pooledFrame
		if goroutine {
			nf = newCallFrame(anc, def, f.runid()) // sbir patch 114: the caller's run
		} else {
			nf, pf = callFrameAt(&spare, anc, def, f.runid())
		}
		var vararg reflect.Value

		if method != nil || iface != nil {
			recv.set(def, nf.data[numRet], rv) // sbir patch S11a
		}

		// Init variadic argument vector
		if variadic >= 0 {
			vararg = nf.data[argStart+variadic]
		}

		// Copy input parameters from caller
		if dest := nf.data[argStart:]; len(dest) > 0 {
			for i, v := range values {
				switch {
				case variadic >= 0 && i >= variadic:
					// sbir patch 29: only f(s...) passes s as the
					// variadic slice; f(s) with s of the slice's type
					// (a []any to ...any) is one argument.
					if hasVariadicArgs {
						vararg.Set(v(f))
					} else {
						vararg.Set(reflect.Append(vararg, v(f)))
					}
				default:
					val := v(f)
					if sameBasicKind(dest[i], val) { // sbir patch S11e
						setSameKind(dest[i], val)
						continue
					}
					if val.IsZero() && dest[i].Kind() != reflect.Interface {
						// Work around a recursive struct zero interface issue.
						// Once there is a better way to handle this case, the dest can just be set.
						continue
					}
					// sbir patch S2: only a pointer or an interface can
					// hold a *node; boxing any other value allocates.
					if k := val.Kind(); k != reflect.Ptr && k != reflect.Interface {
						setSameKind(dest[i], val) // sbir patch S8
						continue
					}
					if nod, ok := val.Interface().(*node); ok && nod.recv != nil {
						// An interpreted method is passed as value in a function call.
						// It must be wrapped now, otherwise the receiver will be missing
						// at the method call (#1332).
						// TODO (marc): wrapping interpreted functions should be always done
						// everywhere at runtime to simplify the whole code,
						// but it requires deeper refactoring.
						dest[i] = genFunctionWrapper(nod)(f)
						continue
					}
					dest[i].Set(val)
				}
			}
		}

		// Execute function body
		if goroutine {
			n.interp.spawn(func() { runCfg(def.child[3].start, nf, def, n) }) // sbir patch 23
			return tnext
		}
		runCfg(def.child[3].start, nf, def, n)
		for i, v := range rvalues {
			if v != nil {
				setSameKind(v(f), nf.data[i]) // sbir patch S8
			}
		}

		// Handle branching according to boolean result
		next := tnext
		if fnext != nil && !nf.data[0].Bool() {
			next = fnext
		}
		releaseFrameAt(&spare, def, pf) // sbir patch S8
		return next
	}
	// callMethodAt runs def, a method, with the receiver rv: in its int
	// tier (sbir patch S17) or in a frame.
	callMethodAt := func(f *frame, def *node, rv reflect.Value) bltn {
		if fn := intFuncOf(def); fn != nil && fn.method != nil {
			if res, ok := fn.callMethod(f, rv, values); ok {
				setIntResult(fn, rvalues, f, res)
				if fnext != nil && res == 0 {
					return fnext
				}
				return tnext
			}
		}
		return general(f, def, f, reflect.Value{}, rv)
	}
	switch {
	case method != nil:
		// resolve's steps for a method.
		n.exec = func(f *frame) bltn {
			def := method
			if def.latest != nil {
				def = currentDecl(def)
			}
			return callMethodAt(f, def, rcvr(f))
		}
	case iface != nil:
		n.exec = func(f *frame) bltn {
			def, rv := iface.method(ifaceValue(f))
			if def == nil {
				// getMethodByName's way: the method value, called as
				// any func value.
				storeMethod(f)
				def, anc, bf := resolve(f)
				return general(f, def, anc, bf, reflect.Value{})
			}
			if def.latest != nil {
				def = ifaceCurrentDecl(def, rv) // sbir patch S18 (amended)
			}
			return callMethodAt(f, def, rv)
		}
	case goroutine:
		n.exec = func(f *frame) bltn {
			def, anc, bf := resolve(f)
			return general(f, def, anc, bf, reflect.Value{})
		}
	}
}

// directMethod returns the interpreted method that the call n runs
// directly, and the function that gives its receiver, or nil when the
// call goes through the method value that c0, its callee, computes
// (sbir patch S1). A call of x.m on a concrete type used to make a
// reflect.MakeFunc wrapper of m at every call (getMethod) and call it
// through reflect.Value.Call: a loop calling methods spent most of its
// time there. The callee node then computes nothing (nop). Calls in go
// and defer statements keep the method value: they evaluate it when the
// statement runs.
func directMethod(n, c0 *node) (*node, func(*frame) reflect.Value) {
	if n.anc.kind == goStmt || n.anc.kind == deferStmt || c0.kind != selectorExpr ||
		c0.recv == nil || c0.recv.node == nil || c0.exec != nil || !sameGen(c0.gen, getMethod) {
		return nil, nil
	}
	def, ok := c0.val.(*node)
	if !ok || def.kind != funcDecl || len(def.child) < 4 || def.child[3].start == nil {
		return nil, nil
	}
	c0.gen = nop
	return def, genValueRecv(c0)
}

// sameGen reports whether a and b are the same generator function.
func sameGen(a, b bltnGenerator) bool {
	return a != nil && b != nil && reflect.ValueOf(a).Pointer() == reflect.ValueOf(b).Pointer()
}

// setReceiver stores the receiver value src in dest, the receiver slot of
// a method's frame, taking the address or the element of src when the
// method's receiver is a pointer and src is not, or the other way round.
// A valueInterface wrapper is looked through without boxing src when src
// is not one (sbir patch S1).
func setReceiver(dest, src reflect.Value) {
	for src.IsValid() && (src.Kind() == reflect.Interface || src.Type() == valueInterfaceType) {
		vs, ok := src.Interface().(valueInterface)
		if !ok {
			break
		}
		src = vs.value
	}
	sk, dk := src.Kind(), dest.Kind()
	switch {
	case sk == reflect.Ptr && dk != reflect.Ptr:
		dest.Set(src.Elem())
	case sk != reflect.Ptr && dk == reflect.Ptr:
		dest.Set(src.Addr())
	default:
		dest.Set(src)
	}
}

func getFrame(f *frame, l int) *frame {
	switch l {
	case globalFrame:
		return f.root
	case 0:
		return f
	case 1:
		return f.anc
	case 2:
		return f.anc.anc
	}
	for ; l > 0; l-- {
		f = f.anc
	}
	return f
}

// Callbin calls a function from a bin import, accessible through reflect.
// directTypes are the function types callDirect calls without
// reflect.Value.Call; callBin picks it by type once, when it compiles a
// call, so other calls pay nothing.
var directTypes = map[reflect.Type]bool{
	reflect.TypeOf((func(...interface{}) (int, error))(nil)):         true,
	reflect.TypeOf((func(string, ...interface{}) (int, error))(nil)): true,
	reflect.TypeOf((func(...interface{}) string)(nil)):               true,
	reflect.TypeOf((func(string, ...interface{}) string)(nil)):       true,
}

// callDirect calls v with in. sbir patch 14: the printing signatures of
// fmt (Print, Println, Printf, Sprint, Sprintf, ...) are called directly
// rather than through reflect.Value.Call, which costs more than the
// formatting itself in a loop that prints; any other function goes
// through Call.
func callDirect(v reflect.Value, in []reflect.Value) []reflect.Value {
	switch fn := v.Interface().(type) {
	case func(...interface{}) (int, error):
		n, err := fn(anyArgs(in, 0)...)
		return []reflect.Value{reflect.ValueOf(n), reflect.ValueOf(&err).Elem()}
	case func(string, ...interface{}) (int, error):
		if len(in) == 0 || in[0].Kind() != reflect.String {
			break
		}
		n, err := fn(in[0].String(), anyArgs(in, 1)...)
		return []reflect.Value{reflect.ValueOf(n), reflect.ValueOf(&err).Elem()}
	case func(...interface{}) string:
		return []reflect.Value{reflect.ValueOf(fn(anyArgs(in, 0)...))}
	case func(string, ...interface{}) string:
		if len(in) == 0 || in[0].Kind() != reflect.String {
			break
		}
		return []reflect.Value{reflect.ValueOf(fn(in[0].String(), anyArgs(in, 1)...))}
	}
	return v.Call(in)
}

// gcPrintOperands passes operands of a defined string type to fmt.Print,
// Sprint and Fprint as the strings they print as (sbir patch 42). Those
// functions put a space between two operands when neither is a string,
// and such an operand reaches them as a goValue, a struct, so they put
// spaces where gc does not (fmt.Print(Name("a"), 1) printed "a 1", gc
// prints "a1"). The text is the same: each operand prints as %v.
func gcPrintOperands(a []interface{}) []interface{} {
	for i, x := range a {
		if g, ok := x.(goValue); ok && g.v.IsValid() && g.v.Kind() == reflect.String {
			a[i] = fmt.Sprint(g)
		}
	}
	return a
}

// spacedPrint reports whether f is fmt.Sprint or fmt.Fprint, whose
// spacing depends on which operands are strings (sbir patch 42; the
// interpreter's own Print is fixStdlib's).
func spacedPrint(f reflect.Value) bool {
	if !f.IsValid() || f.Kind() != reflect.Func {
		return false
	}
	p := f.Pointer()
	return p == reflect.ValueOf(fmt.Sprint).Pointer() || p == reflect.ValueOf(fmt.Fprint).Pointer()
}

// gcPrintValues is gcPrintOperands on the arguments of a call.
func gcPrintValues(in []reflect.Value) []reflect.Value {
	for i, v := range in {
		if !v.IsValid() || !v.CanInterface() {
			continue
		}
		if g, ok := v.Interface().(goValue); ok && g.v.IsValid() && g.v.Kind() == reflect.String {
			in[i] = reflect.ValueOf(fmt.Sprint(g))
		}
	}
	return in
}

// anyArgs returns in[from:] as the operands reflect.Value.Call would pass
// to a ...interface{} parameter.
func anyArgs(in []reflect.Value, from int) []interface{} {
	args := make([]interface{}, len(in)-from)
	for i, v := range in[from:] {
		if v.IsValid() {
			args[i] = v.Interface()
		}
	}
	return args
}

func callBin(n *node) {
	tnext := getExec(n.tnext)
	fnext := getExec(n.fnext)
	child := n.child[1:]
	c0 := n.child[0]
	value := genValue(c0)
	var values []func(*frame) reflect.Value
	funcType := c0.typ.rtype
	wt := wrappedType(c0)
	variadic := -1
	if funcType.IsVariadic() {
		variadic = funcType.NumIn() - 1
	}
	// A method signature obtained from reflect.Type includes receiver as 1st arg, except for interface types.
	rcvrOffset := 0
	if recv := c0.recv; recv != nil && !isInterface(recv.node.typ) {
		if variadic > 0 || funcType.NumIn() > len(child) {
			rcvrOffset = 1
		}
	}

	// getMapType returns a reflect type suitable for interface wrapper for functions
	// with some special processing in case of interface{} argument, i.e. fmt.Printf.
	var getMapType func(*itype) reflect.Type
	if lr, ok := n.interp.mapTypes[c0.rval]; ok {
		getMapType = func(typ *itype) reflect.Type {
			for _, rt := range lr {
				if typ.implements(&itype{cat: valueT, rtype: rt}) {
					return rt
				}
			}
			return nil
		}
	}

	// Determine if we should use `Call` or `CallSlice` on the function Value.
	callFn := func(v reflect.Value, in []reflect.Value) []reflect.Value { return v.Call(in) }
	if directTypes[funcType] {
		callFn = callDirect // sbir patch 14
	}
	if n.action == aCallSlice {
		callFn = func(v reflect.Value, in []reflect.Value) []reflect.Value { return v.CallSlice(in) }
	}
	if spacedPrint(c0.rval) && n.action != aCallSlice { // sbir patch 42
		direct := callFn
		callFn = func(v reflect.Value, in []reflect.Value) []reflect.Value { return direct(v, gcPrintValues(in)) }
	}
	if n.interp.checkArg != nil && hasInterfaceResult(funcType) && !isFmtFunc(n.interp, c0.rval) {
		// sbir patch 18b: results of interface type that a compiled
		// function returns reach interpreted code as surely as its
		// callbacks' arguments (errors.Unwrap of a text/template error
		// that wraps a *reflect.ValueError). Functions without such a
		// result (strings.Contains) pay nothing, and neither do the fmt
		// functions the host marked: their errors come from the script's
		// own operands and writer, and a loop of fmt.Println paid ~25 ns a
		// call for nothing.
		call := callFn
		callFn = func(v reflect.Value, in []reflect.Value) []reflect.Value {
			out := call(v, in)
			n.interp.checkCallbackArgs(out)
			return out
		}
	}
	// sbir patch 7: fmt functions format interpreted types as gc does.
	goFormat := isFmtFunc(n.interp, c0.rval) && n.action != aCallSlice
	spreadFmt := isFmtFunc(n.interp, c0.rval) && n.action == aCallSlice // sbir patch 98b
	xmlFunc := isXMLFunc(n.interp, c0)                                  // sbir patch 36
	wrapErr := goFormat && wrapsErrors(n.interp, c0.rval)               // sbir patch 9a
	// sbir patch 65: error operands of a function making an error
	// (fmt.Errorf) stay errors for %w, whatever the host's MapTypes say.
	keepErr := wrapErr || goFormat && funcType.NumOut() == 1 && funcType.Out(0) == errorRType
	// sbir patch 89: encoding/json sees the interpreted methods.
	jsonArgPos, jsonDecode := jsonCallArg(n.interp, c0)
	var jsonRecv func(*frame) reflect.Value // the *json.Decoder of Decode
	if jsonArgPos >= 0 && n.action != aCallSlice {
		callFn = jsonUnwrapped(jsonDecode && jsonArgPos == 1, callFn)
		if jsonDecode && jsonArgPos == 0 {
			jsonRecv = genValue(c0.child[0])
		}
	}
	// sbir patches 75 to 77: errors that name the script's types.
	callFn, reworded := rewordedErrors(n, callFn)
	if goFormat {
		if fi := formatIndex(funcType); fi >= 0 {
			call := callFn
			callFn = func(v reflect.Value, in []reflect.Value) []reflect.Value {
				return call(v, rewriteTypeVerbs(in, fi))
			}
		}
	}

	for i, c := range child {
		switch {
		case isBinCall(c, c.scope):
			// Handle nested function calls: pass returned values as arguments
			numOut := c.child[0].typ.rtype.NumOut()
			for j := 0; j < numOut; j++ {
				ind := c.findex + j
				if goFormat && variadic >= 0 && i+rcvrOffset >= variadic {
					// sbir patch 65: a compiled call's error result.
					src := &n.interp.srcTypes
					values = append(values, func(f *frame) reflect.Value {
						// sbir patch 203: a compiled `any` result
						// (atomic.Value.Load) may hold a valueInterface.
						if g, ok := goFormatHeld(f, f.data[ind], wrapErr, src); ok {
							return g
						}
						return goFormatWrapped(f, valueInterfaceValue(f.data[ind]), keepErr)
					})
					continue
				}
				values = append(values, func(f *frame) reflect.Value { return valueInterfaceValue(f.data[ind]) })
			}
		case isRegularCall(c):
			// Handle nested function calls: pass returned values as arguments
			for j, rt := range c.child[0].typ.ret {
				ind := c.findex + j
				if i+j == jsonArgPos && n.action != aCallSlice && (isInterface(rt) || needsInterpJSON(rt)) {
					values = append(values, genJSONResult(n.interp, ind, rt, jsonDecode, jsonRecv)) // sbir patch 89
					continue
				}
				if goFormat {
					// sbir patch 9a: results go to fmt as operands do.
					values = append(values, goFormatResult(ind, rt, wrapErr, keepErr, &n.interp.srcTypes))
					continue
				}
				values = append(values, func(f *frame) reflect.Value { return valueInterfaceValue(f.data[ind]) })
			}
		default:
			if c.kind == basicLit || c.rval.IsValid() {
				// Convert literal value (untyped) to function argument type (if not an interface{})
				var argType reflect.Type
				if variadic >= 0 && i+rcvrOffset >= variadic {
					argType = funcType.In(variadic).Elem()
				} else {
					argType = funcType.In(i + rcvrOffset)
				}
				convertLiteralValue(c, argType)
				if !reflect.ValueOf(c.val).IsValid() { //  Handle "nil"
					c.val = reflect.Zero(argType)
				}
			}

			if wt != nil && isInterfaceSrc(wt.arg[i]) {
				values = append(values, genValueInterface(c))
				break
			}

			// defType is the target type for a potential interface wrapper.
			var defType reflect.Type
			if variadic >= 0 && i+rcvrOffset >= variadic {
				defType = funcType.In(variadic)
				if n.action != aCallSlice {
					// sbir patch 66: each variadic argument is an
					// element (errors.Join(&MyErr{}) wraps it as an error).
					defType = defType.Elem()
				}
			} else {
				defType = funcType.In(rcvrOffset + i)
			}
			if getMapType != nil {
				if rt := getMapType(c.typ); rt != nil {
					defType = rt
				}
			}

			if i == jsonArgPos && n.action != aCallSlice && (isEmptyInterface(c.typ) || isInterfaceSrc(c.typ) || needsInterpJSON(c.typ)) {
				values = append(values, genJSONArg(c, jsonDecode, jsonRecv)) // sbir patch 89
				break
			}

			if xmlFunc {
				if name := xmlElementName(c.typ); name != "" {
					values = append(values, genXMLNamed(c, name)) // sbir patch 36
					break
				}
			}

			// sbir patch 32: only the operands to format (the ...any) go
			// to fmt as goValues, not the io.Writer of Fprint, which a
			// defined type of a cell (type T []byte with a Write method)
			// may be.
			operand := goFormat && variadic >= 0 && i+rcvrOffset >= variadic
			switch {
			case spreadFmt && variadic >= 0 && i+rcvrOffset >= variadic && isEmptyInterfaceSlice(c.typ):
				values = append(values, genGoFormatSpread(c, wrapErr)) // sbir patch 98b
			case operand && useGoFormat(c.typ, wrapErr):
				values = append(values, genGoFormat(c))
			case operand && (isEmptyInterface(c.typ) || isInterfaceSrc(c.typ) || isBinEmptyInterface(c.typ)):
				// sbir patch 203: a compiled `any` (the result of
				// sync.Map.Load) may hold a valueInterface too.
				values = append(values, genGoFormatInterface(c, wrapErr))
			case operand && isInterfaceBin(c.typ):
				values = append(values, genGoFormatWrapped(c, keepErr)) // sbir patch 65
			case isEmptyInterface(c.typ):
				values = append(values, genBareAny(c)) // sbir patch 204
			case isInterfaceSrc(c.typ):
				values = append(values, genValueInterfaceValue(c))
			case isFuncSrc(c.typ):
				values = append(values, genFunctionWrapper(c))
			case c.typ.cat == arrayT || c.typ.cat == variadicT:
				if isEmptyInterface(c.typ.val) {
					values = append(values, genValueArray(c))
				} else {
					values = append(values, genInterfaceWrapper(c, defType))
				}
			case isPtrSrc(c.typ):
				if c.typ.val.cat == valueT {
					values = append(values, genValue(c))
				} else {
					values = append(values, genInterfaceWrapper(c, defType))
				}
			case c.typ.cat == valueT:
				values = append(values, genValue(c))
			default:
				values = append(values, genInterfaceWrapper(c, defType))
			}
		}
	}
	// sbir patch 203: compiled containers keep the types of the values
	// of defined types they are given and hand back.
	held := false
	values, callFn, held = containerCall(n, child, rcvrOffset, values, callFn)
	if getMapType != nil && !goFormat && !spreadFmt && jsonArgPos < 0 && !xmlFunc && !held {
		// sbir patch 204: the host's display functions (display.Show)
		// read their arguments by reflection, at every depth.
		callFn = bareArgsCall(callFn)
	}
	l := len(values)

	if getMapType == nil && !goFormat && !reworded && !held && directBinCall(n, values, tnext, fnext) {
		return // sbir patch S4
	}

	switch {
	case n.anc.kind == deferStmt:
		// Store function call in frame for deferred execution.
		n.exec = func(f *frame) bltn {
			val := make([]reflect.Value, l+1)
			val[0] = value(f)
			for i, v := range values {
				val[i+1] = deferArg(getBinValue(getMapType, v, f)) // sbir patch 8b
			}
			f.deferred = append([][]reflect.Value{val}, f.deferred...)
			return tnext
		}
	case n.anc.kind == goStmt:
		// Execute function in a goroutine, discard results.
		n.exec = func(f *frame) bltn {
			in := make([]reflect.Value, l)
			for i, v := range values {
				in[i] = getBinValue(getMapType, v, f)
			}
			fn := value(f)
			n.interp.spawn(func() { callFn(fn, in) }) // sbir patch 23
			return tnext
		}
	case fnext != nil:
		// Handle branching according to boolean result.
		index := n.findex
		level := n.level
		n.exec = func(f *frame) bltn {
			in := make([]reflect.Value, l)
			for i, v := range values {
				in[i] = getBinValue(getMapType, v, f)
			}
			res := callFn(value(f), in)
			b := res[0].Bool()
			getFrame(f, level).data[index].SetBool(b)
			if b {
				return tnext
			}
			return fnext
		}
	default:
		switch returnAction(n) {
		case aAssignX:
			// The function call is part of an assign expression, store results direcly
			// to assigned location, to avoid an additional frame copy.
			// The optimization of aAssign is handled in assign(), and should not
			// be handled here.
			rvalues := make([]func(*frame) reflect.Value, funcType.NumOut())
			mapSet := make([]func(*frame, reflect.Value), len(rvalues))
			for i := range rvalues {
				c := n.anc.child[i]
				if c.ident == "_" {
					continue
				}
				mapSet[i] = genMapEntrySet(c)
				if isInterfaceSrc(c.typ) {
					rvalues[i] = genValueInterfaceValue(c)
				} else {
					rvalues[i] = genValue(c)
				}
			}
			n.exec = func(f *frame) bltn {
				in := make([]reflect.Value, l)
				for i, v := range values {
					in[i] = getBinValue(getMapType, v, f)
				}
				out := callFn(value(f), in)
				for i, v := range rvalues {
					if v == nil {
						continue // Skip assign "_".
					}
					if set := mapSet[i]; set != nil {
						set(f, out[i]) // sbir patch 35
						continue
					}
					c := n.anc.child[i]
					if n.anc.kind == defineXStmt && !c.redeclared {
						// In case of a define statement, the destination value in the frame
						// must be recreated. This is necessary to preserve the previous value
						// which may be still used in a separate closure.
						data := getFrame(f, c.level).data
						data[c.findex] = reflect.New(data[c.findex].Type()).Elem()
						data[c.findex].Set(out[i])
						continue
					}
					v(f).Set(out[i])
				}
				return tnext
			}
		case aReturn:
			// The function call is part of a return statement, store output results
			// directly in the frame location of outputs of the current function.
			b := childPos(n)
			n.exec = func(f *frame) bltn {
				in := make([]reflect.Value, l)
				for i, v := range values {
					in[i] = getBinValue(getMapType, v, f)
				}
				out := callFn(value(f), in)
				for i, v := range out {
					dest := f.data[b+i]
					if holdsValueInterface(dest) { // sbir patch S4: no boxing to find out
						v = reflect.ValueOf(valueInterface{value: v})
					}
					dest.Set(v)
				}
				return tnext
			}
		default:
			n.exec = func(f *frame) bltn {
				in := make([]reflect.Value, l)
				for i, v := range values {
					in[i] = getBinValue(getMapType, v, f)
				}
				out := callFn(value(f), in)
				for i := 0; i < len(out); i++ {
					r := out[i]
					if r.Kind() == reflect.Func {
						getFrame(f, n.level).data[n.findex+i] = r
						continue
					}
					dest := getFrame(f, n.level).data[n.findex+i]
					if holdsValueInterface(dest) { // sbir patch S4: no boxing to find out
						r = reflect.ValueOf(valueInterface{value: r})
					}
					dest.Set(r)
				}
				return tnext
			}
		}
	}
}

func getIndexBinMethod(n *node) {
	// dest := genValue(n)
	i := n.findex
	l := n.level
	m := n.val.(int)
	value := genValue(n.child[0])
	next := getExec(n.tnext)

	n.exec = func(f *frame) bltn {
		// Can not use .Set() because dest type contains the receiver and source not
		// dest(f).Set(value(f).Method(m))
		getFrame(f, l).data[i] = value(f).Method(m)
		return next
	}
}

func getIndexBinElemMethod(n *node) {
	i := n.findex
	l := n.level
	m := n.val.(int)
	value := genValue(n.child[0])
	next := getExec(n.tnext)

	n.exec = func(f *frame) bltn {
		// Can not use .Set() because dest type contains the receiver and source not
		getFrame(f, l).data[i] = value(f).Elem().Method(m)
		return next
	}
}

func getIndexBinPtrMethod(n *node) {
	i := n.findex
	l := n.level
	m := n.val.(int)
	value := genValue(n.child[0])
	next := getExec(n.tnext)

	n.exec = func(f *frame) bltn {
		// Can not use .Set() because dest type contains the receiver and source not
		getFrame(f, l).data[i] = value(f).Addr().Method(m)
		return next
	}
}

// getIndexArray returns array value from index.
func getIndexArray(n *node) {
	tnext := getExec(n.tnext)
	value0 := genValueArray(n.child[0]) // array
	i := n.findex
	l := n.level

	if n.child[1].rval.IsValid() { // constant array index
		ai := int(vInt(n.child[1].rval))
		if n.fnext != nil {
			fnext := getExec(n.fnext)
			n.exec = func(f *frame) bltn {
				r := indexChecked(value0(f), ai) // sbir patch 10c
				getFrame(f, l).data[i] = r
				if r.Bool() {
					return tnext
				}
				return fnext
			}
		} else {
			n.exec = func(f *frame) bltn {
				getFrame(f, l).data[i] = indexChecked(value0(f), ai) // sbir patch 10c
				return tnext
			}
		}
	} else {
		value1 := genValueInt(n.child[1]) // array index

		// sbir patch S10b: s[i].f in one step.
		if fusedIndexField(n, value0, value1) {
			return
		}

		if n.fnext != nil {
			fnext := getExec(n.fnext)
			n.exec = func(f *frame) bltn {
				_, vi := value1(f)
				r := indexChecked(value0(f), int(vi)) // sbir patch 10c
				getFrame(f, l).data[i] = r
				if r.Bool() {
					return tnext
				}
				return fnext
			}
		} else {
			n.exec = func(f *frame) bltn {
				_, vi := value1(f)
				getFrame(f, l).data[i] = indexChecked(value0(f), int(vi)) // sbir patch 10c
				return tnext
			}
		}
	}
}

// getIndexMap retrieves map value from index.
func getIndexMap(n *node) {
	tnext := getExec(n.tnext)
	if directMapIndex(n, tnext) {
		return // sbir patch S5
	}
	dest := genValue(n)
	value0 := genValue(n.child[0]) // map
	z := reflect.New(n.child[0].typ.frameType().Elem()).Elem()

	if n.child[1].rval.IsValid() { // constant map index
		mi := constMapKey(n) // sbir patch 202

		switch {
		case n.fnext != nil:
			fnext := getExec(n.fnext)
			n.exec = func(f *frame) bltn {
				if v := value0(f).MapIndex(mi); v.IsValid() && v.Bool() {
					dest(f).SetBool(true)
					return tnext
				}
				dest(f).Set(z)
				return fnext
			}
		default:
			n.exec = func(f *frame) bltn {
				if v := value0(f).MapIndex(mi); v.IsValid() {
					dest(f).Set(v)
				} else {
					dest(f).Set(z)
				}
				return tnext
			}
		}
	} else {
		value1 := genMapKey(n.child[0], n.child[1], genValue(n.child[1])) // map index, sbir patch 202

		switch {
		case n.fnext != nil:
			fnext := getExec(n.fnext)
			n.exec = func(f *frame) bltn {
				if v := value0(f).MapIndex(value1(f)); v.IsValid() && v.Bool() {
					dest(f).SetBool(true)
					return tnext
				}
				dest(f).Set(z)
				return fnext
			}
		default:
			n.exec = func(f *frame) bltn {
				if v := value0(f).MapIndex(value1(f)); v.IsValid() {
					dest(f).Set(v)
				} else {
					dest(f).Set(z)
				}
				return tnext
			}
		}
	}
}

// getIndexMap2 retrieves map value from index and set status.
func getIndexMap2(n *node) {
	dest := genValue(n.anc.child[0])   // result
	value0 := genValue(n.child[0])     // map
	value2 := genValue(n.anc.child[1]) // status
	next := getExec(n.tnext)
	doValue := n.anc.child[0].ident != "_"
	doStatus := n.anc.child[1].ident != "_"

	if !doValue && !doStatus {
		nop(n)
		return
	}
	// sbir patch S5: a typed map.
	var d, st func(*frame) reflect.Value
	if doValue {
		d = dest
	}
	if doStatus {
		st = value2
	}
	if directMapIndex2(n, d, st, next) {
		return
	}
	if n.child[1].rval.IsValid() { // constant map index
		mi := constMapKey(n) // sbir patch 202
		switch {
		case !doValue:
			n.exec = func(f *frame) bltn {
				v := value0(f).MapIndex(mi)
				value2(f).SetBool(v.IsValid())
				return next
			}
		default:
			n.exec = func(f *frame) bltn {
				v := value0(f).MapIndex(mi)
				if d := dest(f); v.IsValid() {
					d.Set(v)
				} else {
					d.Set(reflect.Zero(d.Type())) // sbir patch 8c: a missing key gives the zero value
				}
				if doStatus {
					value2(f).SetBool(v.IsValid())
				}
				return next
			}
		}
	} else {
		value1 := genMapKey(n.child[0], n.child[1], genValue(n.child[1])) // map index, sbir patch 202
		switch {
		case !doValue:
			n.exec = func(f *frame) bltn {
				v := value0(f).MapIndex(value1(f))
				value2(f).SetBool(v.IsValid())
				return next
			}
		default:
			n.exec = func(f *frame) bltn {
				v := value0(f).MapIndex(value1(f))
				if d := dest(f); v.IsValid() {
					d.Set(v)
				} else {
					d.Set(reflect.Zero(d.Type())) // sbir patch 8c: a missing key gives the zero value
				}
				if doStatus {
					value2(f).SetBool(v.IsValid())
				}
				return next
			}
		}
	}
}

// getFunc compiles a closure function generator for anonymous functions.
func getFunc(n *node) {
	i := n.findex
	l := n.level
	next := getExec(n.tnext)
	numRet := len(n.typ.ret)

	n.exec = func(f *frame) bltn {
		fr := f.clone()

		// sbir patch S6: a typed function for the common signatures.
		cb := &callback{def: n, call: n, anc: fr, numRet: numRet}
		fct := cb.makeFunc(n.typ.TypeOf(), func(in []reflect.Value) []reflect.Value {
			n.interp.checkCallbackArgs(in) // sbir patch 18
			// Allocate and init local frame. All values to be settable and addressable.
			// sbir patch 114: the latest evaluation's run, not the
			// one that made the closure (fr is its captured frame).
			fr2 := newFrame(fr, len(n.types), fr.root.runid())
			d := fr2.data
			newFrameValues(d, n.types, n.shape) // sbir patch S2
			d = d[numRet:]

			// Copy function input arguments in local frame.
			for i, arg := range in {
				if i >= len(d) {
					// In case of unused arg, there may be not even a frame entry allocated, just skip.
					break
				}
				typ := n.typ.arg[i]
				switch {
				case isEmptyInterface(typ) || typ.TypeOf() == valueInterfaceType:
					d[i].Set(restoreAny(arg)) // sbir patch 203: sync.Map.Range's keys
				case isInterfaceSrc(typ):
					d[i].Set(reflect.ValueOf(valueInterface{value: arg.Elem()}))
				default:
					setValue(d[i], arg) // sbir patch 34
				}
			}

			// Interpreter code execution.
			runCfg(n.child[3].start, fr2, n, n)

			// sbir patch 17: the call leaves the frame the literal was
			// evaluated in alone. It used to put back the value the
			// literal's slot held before, from whichever goroutine the
			// closure ran on: a later evaluation of the same literal (the
			// next iteration of a loop) that had just stored its own
			// closure there could then read, and pass on, an earlier one.
			return fr2.data[:numRet]
		})

		n.interp.recordFunc(fct, n, fr) // sbir patch S3

		f.mutex.Lock()
		getFrame(f, l).data[i] = fct
		f.mutex.Unlock()

		return next
	}
}

func getMethod(n *node) {
	i := n.findex
	l := n.level
	next := getExec(n.tnext)
	boundRecv := genBoundReceiver(n) // sbir patch 68

	n.exec = func(f *frame) bltn {
		m := n.val.(*node)
		if m.latest != nil {
			m = currentDecl(m) // sbir patch 52
		}
		nod := *m
		nod.val = &nod
		nod.recv = n.recv
		if boundRecv != nil {
			nod.recv = boundRecv(f)
		}
		getFrame(f, l).data[i] = genFuncValue(&nod)(f)
		return next
	}
}

func getMethodByName(n *node) {
	next := getExec(n.tnext)
	store := storeMethodByName(n)
	n.exec = func(f *frame) bltn {
		store(f)
		return next
	}
}

// storeMethodByName returns what getMethodByName's exec does for n, x.m
// of an interface x: the method value stored in n's slot. An interface
// call site that S18 does not run directly runs it too.
func storeMethodByName(n *node) func(f *frame) {
	value0 := genValue(n.child[0])
	name := n.child[1].ident
	i := n.findex
	l := n.level

	return func(f *frame) {
		// The interface object must be directly accessible, or embedded in a struct (exported anonymous field).
		val0 := value0(f)
		val, ok := value0(f).Interface().(valueInterface)
		if !ok {
			// Search the first embedded valueInterface.
			for val0.Kind() == reflect.Ptr {
				val0 = val0.Elem()
			}
			for i := 0; i < val0.NumField(); i++ {
				fld := val0.Type().Field(i)
				if !fld.Anonymous || !fld.IsExported() {
					continue
				}
				if val, ok = val0.Field(i).Interface().(valueInterface); ok {
					break
					// TODO: should we keep track of all the vals that are indeed valueInterface,
					// so that later on we can call MethodByName on all of them until one matches?
				}
			}
			if !ok {
				panic(n.cfgErrorf("invalid interface value %v", val0))
			}
		}
		// Traverse nested interface values to get the concrete value.
		for {
			if !val.value.IsValid() {
				nilPanic() // sbir patch 10c: a method of a nil interface value
			}
			v, ok := val.value.Interface().(valueInterface)
			if !ok {
				break
			}
			val = v
		}

		// sbir patch 231: a method declared on the type itself before
		// one reflect finds (promoted from an embedded compiled field).
		if val.node != nil && val.node.typ != nil && !(val.node.typ.node == nil && val.node.typ.cat == valueT) {
			if m := ownMethod(val.node.typ, name); m != nil {
				nod := *m
				nod.val = &nod
				nod.recv = &receiver{nil, val.value, nil}
				getFrame(f, l).data[i] = genFuncValue(&nod)(f)
				return
			}
		}

		if met := val.value.MethodByName(name); met.IsValid() {
			getFrame(f, l).data[i] = met
			return
		}

		typ := val.node.typ
		if typ.node == nil && typ.cat == valueT {
			// It happens with a var of empty interface type, that has value of concrete type
			// from runtime, being asserted to "user-defined" interface.
			if _, ok := typ.rtype.MethodByName(name); !ok {
				panic(n.cfgErrorf("method not found: %s", name))
			}
			return
		}

		// Finally search method recursively in embedded valueInterfaces.
		r, m, li := lookupMethodValue(val, name)
		if r.IsValid() {
			getFrame(f, l).data[i] = r
			return
		}
		if m == nil {
			panic(n.cfgErrorf("method not found: %s", name))
		}

		nod := *m
		nod.val = &nod
		nod.recv = &receiver{nil, val.value, li}
		getFrame(f, l).data[i] = genFuncValue(&nod)(f)
	}
}

// lookupMethodValue recursively looks within val for the method with the given
// name. If a runtime value is found, it is returned in r, otherwise it is returned
// in m, with li as the list of recursive field indexes.
func lookupMethodValue(val valueInterface, name string) (r reflect.Value, m *node, li []int) {
	if r = val.value.MethodByName(name); r.IsValid() {
		return
	}
	if m, li = val.node.typ.lookupMethod(name); m != nil {
		return
	}
	if !isStruct(val.node.typ) {
		return
	}
	v := val.value
	for v.Type().Kind() == reflect.Ptr {
		v = v.Elem()
	}
	nf := v.NumField()
	for i := 0; i < nf; i++ {
		vi, ok := v.Field(i).Interface().(valueInterface)
		if !ok {
			continue
		}
		if r, m, li = lookupMethodValue(vi, name); m != nil {
			li = append([]int{i}, li...)
			return
		}
	}
	return
}

func getIndexSeq(n *node) {
	value := genValue(n.child[0])
	index := n.val.([]int)
	tnext := getExec(n.tnext)
	i := n.findex
	l := n.level

	// Note:
	// Here we have to store the result using
	//    f.data[i] = value(...)
	// instead of normal
	//    dest(f).Set(value(...)
	// because the value returned by FieldByIndex() must be preserved
	// for possible future Set operations on the struct field (avoid a
	// dereference from Set, resulting in setting a copy of the
	// original field).

	if n.fnext != nil {
		fnext := getExec(n.fnext)
		n.exec = func(f *frame) bltn {
			v := value(f)
			r := fieldByIndexChecked(v, index) // sbir patch 101
			getFrame(f, l).data[i] = r
			if r.Bool() {
				return tnext
			}
			return fnext
		}
	} else {
		n.exec = func(f *frame) bltn {
			v := value(f)
			getFrame(f, l).data[i] = fieldByIndexChecked(v, index) // sbir patch 101
			return tnext
		}
	}
	fuseFieldSelector(n, false) // sbir patch S11b
}

func getPtrIndexSeq(n *node) {
	index := n.val.([]int)
	tnext := getExec(n.tnext)
	value := genValue(n.child[0])
	i := n.findex
	l := n.level

	if n.fnext != nil {
		fnext := getExec(n.fnext)
		n.exec = func(f *frame) bltn {
			r := elemChecked(value(f)).FieldByIndex(index) // sbir patch 10c
			getFrame(f, l).data[i] = r
			if r.Bool() {
				return tnext
			}
			return fnext
		}
	} else {
		n.exec = func(f *frame) bltn {
			getFrame(f, l).data[i] = elemChecked(value(f)).FieldByIndex(index) // sbir patch 10c
			return tnext
		}
	}
	fuseFieldSelector(n, true) // sbir patch S11b
}

func getIndexSeqField(n *node) {
	value := genValue(n.child[0])
	index := n.val.([]int)
	i := n.findex
	l := n.level
	tnext := getExec(n.tnext)

	if n.fnext != nil {
		fnext := getExec(n.fnext)
		if n.child[0].typ.TypeOf().Kind() == reflect.Ptr {
			n.exec = func(f *frame) bltn {
				r := elemChecked(value(f)).FieldByIndex(index) // sbir patch 10c
				getFrame(f, l).data[i] = r
				if r.Bool() {
					return tnext
				}
				return fnext
			}
		} else {
			n.exec = func(f *frame) bltn {
				r := value(f).FieldByIndex(index)
				getFrame(f, l).data[i] = r
				if r.Bool() {
					return tnext
				}
				return fnext
			}
		}
	} else {
		if n.child[0].typ.TypeOf().Kind() == reflect.Ptr {
			n.exec = func(f *frame) bltn {
				getFrame(f, l).data[i] = elemChecked(value(f)).FieldByIndex(index) // sbir patch 10c
				return tnext
			}
		} else {
			n.exec = func(f *frame) bltn {
				getFrame(f, l).data[i] = value(f).FieldByIndex(index)
				return tnext
			}
		}
	}
}

func getIndexSeqPtrMethod(n *node) {
	value := genValue(n.child[0])
	index := n.val.([]int)
	fi := index[1:]
	mi := index[0]
	i := n.findex
	l := n.level
	next := getExec(n.tnext)

	if n.child[0].typ.TypeOf().Kind() == reflect.Ptr {
		if len(fi) == 0 {
			n.exec = func(f *frame) bltn {
				getFrame(f, l).data[i] = value(f).Method(mi)
				return next
			}
		} else {
			n.exec = func(f *frame) bltn {
				getFrame(f, l).data[i] = elemChecked(value(f)).FieldByIndex(fi).Addr().Method(mi) // sbir patch 10c
				return next
			}
		}
	} else {
		if len(fi) == 0 {
			n.exec = func(f *frame) bltn {
				getFrame(f, l).data[i] = value(f).Addr().Method(mi)
				return next
			}
		} else {
			n.exec = func(f *frame) bltn {
				getFrame(f, l).data[i] = value(f).FieldByIndex(fi).Addr().Method(mi)
				return next
			}
		}
	}
}

func getIndexSeqMethod(n *node) {
	value := genValue(n.child[0])
	index := n.val.([]int)
	fi := index[1:]
	mi := index[0]
	i := n.findex
	l := n.level
	next := getExec(n.tnext)

	if n.child[0].typ.TypeOf().Kind() == reflect.Ptr {
		if len(fi) == 0 {
			n.exec = func(f *frame) bltn {
				getFrame(f, l).data[i] = value(f).Elem().Method(mi)
				return next
			}
		} else {
			n.exec = func(f *frame) bltn {
				getFrame(f, l).data[i] = elemChecked(value(f)).FieldByIndex(fi).Method(mi) // sbir patch 10c
				return next
			}
		}
	} else {
		if len(fi) == 0 {
			n.exec = func(f *frame) bltn {
				getFrame(f, l).data[i] = value(f).Method(mi)
				return next
			}
		} else {
			n.exec = func(f *frame) bltn {
				getFrame(f, l).data[i] = value(f).FieldByIndex(fi).Method(mi)
				return next
			}
		}
	}
}

func neg(n *node) {
	dest := genValue(n)
	value := genValue(n.child[0])
	next := getExec(n.tnext)
	typ := n.typ.concrete().TypeOf()
	isInterface := n.typ.TypeOf().Kind() == reflect.Interface

	switch n.typ.TypeOf().Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if isInterface {
			n.exec = func(f *frame) bltn {
				dest(f).Set(reflect.ValueOf(-value(f).Int()).Convert(typ))
				return next
			}
			return
		}
		n.exec = func(f *frame) bltn {
			dest(f).SetInt(-value(f).Int())
			return next
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if isInterface {
			n.exec = func(f *frame) bltn {
				dest(f).Set(reflect.ValueOf(-value(f).Uint()).Convert(typ))
				return next
			}
			return
		}
		n.exec = func(f *frame) bltn {
			dest(f).SetUint(-value(f).Uint())
			return next
		}
	case reflect.Float32, reflect.Float64:
		if isInterface {
			n.exec = func(f *frame) bltn {
				dest(f).Set(reflect.ValueOf(-value(f).Float()).Convert(typ))
				return next
			}
			return
		}
		n.exec = func(f *frame) bltn {
			dest(f).SetFloat(-value(f).Float())
			return next
		}
	case reflect.Complex64, reflect.Complex128:
		if isInterface {
			n.exec = func(f *frame) bltn {
				dest(f).Set(reflect.ValueOf(-value(f).Complex()).Convert(typ))
				return next
			}
			return
		}
		n.exec = func(f *frame) bltn {
			dest(f).SetComplex(-value(f).Complex())
			return next
		}
	}
}

func pos(n *node) {
	dest := genValue(n)
	value := genValue(n.child[0])
	next := getExec(n.tnext)

	n.exec = func(f *frame) bltn {
		dest(f).Set(value(f))
		return next
	}
}

func bitNot(n *node) {
	dest := genValue(n)
	value := genValue(n.child[0])
	next := getExec(n.tnext)
	typ := n.typ.concrete().TypeOf()
	isInterface := n.typ.TypeOf().Kind() == reflect.Interface

	switch typ.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if isInterface {
			n.exec = func(f *frame) bltn {
				dest(f).Set(reflect.ValueOf(^value(f).Int()).Convert(typ))
				return next
			}
			return
		}
		n.exec = func(f *frame) bltn {
			dest(f).SetInt(^value(f).Int())
			return next
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if isInterface {
			n.exec = func(f *frame) bltn {
				dest(f).Set(reflect.ValueOf(^value(f).Uint()).Convert(typ))
				return next
			}
			return
		}
		n.exec = func(f *frame) bltn {
			dest(f).SetUint(^value(f).Uint())
			return next
		}
	}
}

func land(n *node) {
	value0 := genValue(n.child[0])
	value1 := genValue(n.child[1])
	tnext := getExec(n.tnext)
	dest := genValue(n)
	typ := n.typ.concrete().TypeOf()
	isInterface := n.typ.TypeOf().Kind() == reflect.Interface

	if n.fnext != nil {
		fnext := getExec(n.fnext)
		n.exec = func(f *frame) bltn {
			if value0(f).Bool() && value1(f).Bool() {
				dest(f).SetBool(true)
				return tnext
			}
			dest(f).SetBool(false)
			return fnext
		}
		return
	}
	if isInterface {
		n.exec = func(f *frame) bltn {
			dest(f).Set(reflect.ValueOf(value0(f).Bool() && value1(f).Bool()).Convert(typ))
			return tnext
		}
		return
	}
	n.exec = func(f *frame) bltn {
		dest(f).SetBool(value0(f).Bool() && value1(f).Bool())
		return tnext
	}
}

func lor(n *node) {
	value0 := genValue(n.child[0])
	value1 := genValue(n.child[1])
	tnext := getExec(n.tnext)
	dest := genValue(n)
	typ := n.typ.concrete().TypeOf()
	isInterface := n.typ.TypeOf().Kind() == reflect.Interface

	if n.fnext != nil {
		fnext := getExec(n.fnext)
		n.exec = func(f *frame) bltn {
			if value0(f).Bool() || value1(f).Bool() {
				dest(f).SetBool(true)
				return tnext
			}
			dest(f).SetBool(false)
			return fnext
		}
		return
	}
	if isInterface {
		n.exec = func(f *frame) bltn {
			dest(f).Set(reflect.ValueOf(value0(f).Bool() || value1(f).Bool()).Convert(typ))
			return tnext
		}
		return
	}
	n.exec = func(f *frame) bltn {
		dest(f).SetBool(value0(f).Bool() || value1(f).Bool())
		return tnext
	}
}

func nop(n *node) {
	next := getExec(n.tnext)
	if skipsToNext(n, next) { // sbir patch S11d
		n.exec = next
		return
	}

	n.exec = func(f *frame) bltn {
		return next
	}
}

func branch(n *node) {
	tnext := getExec(n.tnext)
	fnext := getExec(n.fnext)
	value := genValue(n)

	n.exec = func(f *frame) bltn {
		if value(f).Bool() {
			return tnext
		}
		return fnext
	}
}

func _return(n *node) {
	child := n.child
	def := n.val.(*node)
	values := make([]func(*frame) reflect.Value, len(child))
	for i, c := range child {
		switch t := def.typ.ret[i]; t.cat {
		case errorT:
			values[i] = genInterfaceWrapper(c, t.TypeOf())
		case funcT:
			// sbir patch 33: a declared function returned as a func value
			// is wrapped as a func, as it is when passed as an argument.
			values[i] = genFuncValue(c)
		case valueT:
			switch t.rtype.Kind() {
			case reflect.Interface:
				values[i] = genInterfaceWrapper(c, t.TypeOf())
				continue
			case reflect.Func:
				values[i] = genFunctionWrapper(c)
				continue
			}
			fallthrough
		default:
			switch {
			case isInterfaceSrc(t):
				if o := concreteOperand(c); o != nil && len(t.field) == 0 {
					values[i] = genValueInterfaceOf(o, genHeldValue(c)) // sbir patch 200
					break
				}
				if len(t.field) == 0 && !keepsTypeInAny(c.typ) { // sbir patch 200
					// empty interface case.
					// we can't let genValueInterface deal with it, because we call on c,
					// not on n, which means that the interfaceT knowledge is lost.
					// sbir patch 160: a value of a type with methods is
					// wrapped, as an assignment to an empty interface
					// wraps it (genDestValue): stored bare, it was a value
					// of its underlying type (%T int, no String method).
					values[i] = genValue(c)
					break
				}
				values[i] = genValueInterface(c)
			case c.typ.untyped:
				values[i] = genValueAs(c, t.TypeOf())
			default:
				values[i] = genValue(c)
			}
		}
	}

	switch len(child) {
	case 0:
		n.exec = nil
	case 1:
		switch {
		case !child[0].rval.IsValid() && child[0].kind == binaryExpr && returnedInPlace(def, child[0]) && concreteOperand(child[0]) == nil:
			// No additional runtime operation is necessary for constants (not in frame) or
			// binary expressions (stored directly at the right location in frame; sbir
			// patch 220: unless the result is an interface, which the value is converted to;
			// sbir patch 200: a result of a defined type returned as an `any` is made a
			// valueInterface in the default case).
			n.exec = nil
		case isCall(child[0]) && n.child[0].typ.id() == def.typ.ret[0].id():
			// Calls are optmized as long as no type conversion is involved.
			n.exec = nil
		default:
			// Regular return: store the value to return at to start of the frame.
			v := values[0]
			if exec, ok := constantReturn(child[0], def.typ.ret[0], v); ok { // sbir patch S10c
				n.exec = exec
				break
			}
			n.exec = func(f *frame) bltn {
				setSameKind(f.data[0], v(f)) // sbir patch S12c
				return nil
			}
		}
	case 2:
		if hasNamedResults(def) {
			n.exec = returnAll(values) // sbir patch 223
			break
		}
		v0, v1 := values[0], values[1]
		n.exec = func(f *frame) bltn {
			f.data[0].Set(v0(f))
			f.data[1].Set(v1(f))
			return nil
		}
	default:
		if hasNamedResults(def) {
			n.exec = returnAll(values) // sbir patch 223
			break
		}
		n.exec = func(f *frame) bltn {
			for i, value := range values {
				f.data[i].Set(value(f))
			}
			return nil
		}
	}
}

func arrayLit(n *node) {
	value := valueGenerator(n, n.findex)
	next := getExec(n.tnext)
	child := n.child
	if n.nleft == 1 {
		child = n.child[1:]
	}

	values := make([]func(*frame) reflect.Value, len(child))
	index := make([]int, len(child))
	var max, prev int

	ntyp := n.typ.resolveAlias()
	for i, c := range child {
		if c.kind == keyValueExpr {
			values[i] = genDestValue(ntyp.val, c.child[1])
			index[i] = int(vInt(c.child[0].rval))
		} else {
			values[i] = genDestValue(ntyp.val, c)
			index[i] = prev
		}
		prev = index[i] + 1
		if prev > max {
			max = prev
		}
	}

	typ := n.typ.frameType()
	kind := typ.Kind()
	n.exec = func(f *frame) bltn {
		var a reflect.Value
		if kind == reflect.Slice {
			a = reflect.MakeSlice(typ, max, max)
		} else {
			a, _ = n.typ.zero()
		}
		for i, v := range values {
			a.Index(index[i]).Set(v(f))
		}
		value(f).Set(a)
		return next
	}
}

func mapLit(n *node) {
	value := valueGenerator(n, n.findex)
	next := getExec(n.tnext)
	child := n.child
	if n.nleft == 1 {
		child = n.child[1:]
	}
	typ := n.typ.frameType()
	keys := make([]func(*frame) reflect.Value, len(child))
	values := make([]func(*frame) reflect.Value, len(child))
	for i, c := range child {
		keys[i] = genMapKey(n, c.child[0], genDestValue(n.typ.key, c.child[0])) // sbir patch 202
		values[i] = genDestValue(n.typ.val, c.child[1])
	}

	n.exec = func(f *frame) bltn {
		m := reflect.MakeMap(typ)
		for i, k := range keys {
			m.SetMapIndex(k(f), values[i](f))
		}
		value(f).Set(m)
		return next
	}
}

func compositeBinMap(n *node) {
	value := valueGenerator(n, n.findex)
	next := getExec(n.tnext)
	child := n.child
	if n.nleft == 1 {
		child = n.child[1:]
	}
	typ := n.typ.frameType()
	keys := make([]func(*frame) reflect.Value, len(child))
	values := make([]func(*frame) reflect.Value, len(child))
	for i, c := range child {
		convertLiteralValue(c.child[0], typ.Key())
		convertLiteralValue(c.child[1], typ.Elem())
		keys[i] = genValue(c.child[0])

		if isFuncSrc(c.child[1].typ) {
			values[i] = genFunctionWrapper(c.child[1])
		} else {
			values[i] = genValue(c.child[1])
		}
	}

	n.exec = func(f *frame) bltn {
		m := reflect.MakeMap(typ)
		for i, k := range keys {
			m.SetMapIndex(k(f), values[i](f))
		}
		value(f).Set(m)
		return next
	}
}

func compositeBinSlice(n *node) {
	value := valueGenerator(n, n.findex)
	next := getExec(n.tnext)
	child := n.child
	if n.nleft == 1 {
		child = n.child[1:]
	}

	values := make([]func(*frame) reflect.Value, len(child))
	index := make([]int, len(child))
	rtype := n.typ.rtype.Elem()
	var max, prev int

	for i, c := range child {
		if c.kind == keyValueExpr {
			convertLiteralValue(c.child[1], rtype)
			values[i] = genValue(c.child[1])
			index[i] = int(vInt(c.child[0].rval))
		} else {
			convertLiteralValue(c, rtype)
			values[i] = genValue(c)
			index[i] = prev
		}
		prev = index[i] + 1
		if prev > max {
			max = prev
		}
	}

	typ := n.typ.frameType()
	kind := typ.Kind()
	n.exec = func(f *frame) bltn {
		var a reflect.Value
		if kind == reflect.Slice {
			a = reflect.MakeSlice(typ, max, max)
		} else {
			a, _ = n.typ.zero()
		}
		for i, v := range values {
			a.Index(index[i]).Set(v(f))
		}
		value(f).Set(a)
		return next
	}
}

// doCompositeBinStruct creates and populates a struct object from a binary type.
func doCompositeBinStruct(n *node, hasType bool) {
	next := getExec(n.tnext)
	value := valueGenerator(n, n.findex)
	typ := n.typ.rtype
	if n.typ.cat == ptrT || n.typ.cat == linkedT {
		typ = n.typ.val.rtype
	}
	child := n.child
	if hasType {
		child = n.child[1:]
	}
	values := make([]func(*frame) reflect.Value, len(child))
	fieldIndex := make([][]int, len(child))
	for i, c := range child {
		if c.kind == keyValueExpr {
			if sf, ok := typ.FieldByName(c.child[0].ident); ok {
				fieldIndex[i] = sf.Index
				convertLiteralValue(c.child[1], sf.Type)
				if isFuncSrc(c.child[1].typ) {
					values[i] = genFunctionWrapper(c.child[1])
				} else {
					values[i] = genValue(c.child[1])
				}
			}
		} else {
			fieldIndex[i] = []int{i}
			if isFuncSrc(c.typ) && len(c.child) > 1 {
				convertLiteralValue(c.child[1], typ.Field(i).Type)
				values[i] = genFunctionWrapper(c.child[1])
			} else {
				convertLiteralValue(c, typ.Field(i).Type)
				values[i] = genValue(c)
			}
		}
	}

	frameIndex := n.findex
	l := n.level

	n.exec = func(f *frame) bltn {
		s := reflect.New(typ).Elem()
		for i, v := range values {
			s.FieldByIndex(fieldIndex[i]).Set(v(f))
		}
		d := value(f)
		switch {
		case d.Kind() == reflect.Ptr:
			d.Set(s.Addr())
		default:
			getFrame(f, l).data[frameIndex] = s
		}
		return next
	}
}

func compositeBinStruct(n *node)       { doCompositeBinStruct(n, true) }
func compositeBinStructNotype(n *node) { doCompositeBinStruct(n, false) }

func destType(n *node) *itype {
	switch n.anc.kind {
	case assignStmt, defineStmt:
		if n.anc.nleft > 1 {
			// sbir patch 35: in a tuple assignment the literal is made in
			// its own location, and the assign node assigns it.
			return n.typ
		}
		return n.anc.child[0].typ
	default:
		return n.typ
	}
}

func doComposite(n *node, hasType bool, keyed bool) {
	value := valueGenerator(n, n.findex)
	next := getExec(n.tnext)
	typ := n.typ
	if typ.cat == ptrT || typ.cat == linkedT {
		typ = typ.val
	}
	child := n.child
	if hasType {
		child = n.child[1:]
	}
	destInterface := isInterfaceSrc(destType(n))

	values := make(map[int]func(*frame) reflect.Value)
	for i, c := range child {
		var val *node
		var fieldIndex int
		if keyed {
			val = c.child[1]
			fieldIndex = typ.fieldIndex(c.child[0].ident)
		} else {
			val = c
			fieldIndex = i
		}
		ft := typ.field[fieldIndex].typ
		rft := ft.TypeOf()
		convertLiteralValue(val, rft)
		switch {
		case val.typ.cat == nilT:
			values[fieldIndex] = func(*frame) reflect.Value { return reflect.New(rft).Elem() }
		case isNamedFuncSrc(val.typ):
			values[fieldIndex] = genValueAsFunctionWrapper(val)
		case isInterfaceSrc(ft) && (!isEmptyInterface(ft) || keepsTypeInAny(val.typ)): // sbir patch 200
			values[fieldIndex] = genValueInterface(val)
		case isInterface(ft):
			values[fieldIndex] = genInterfaceWrapper(val, rft)
		default:
			values[fieldIndex] = genValue(val)
		}
	}

	frameIndex := n.findex
	l := n.level
	rt := typ.TypeOf()

	n.exec = func(f *frame) bltn {
		a := reflect.New(rt).Elem()
		for i, v := range values {
			a.Field(i).Set(v(f))
		}
		d := value(f)
		switch {
		case d.Kind() == reflect.Ptr:
			d.Set(a.Addr())
		case destInterface && d.Type() != rt:
			// sbir patch 230: only when the literal is made in the
			// interface variable's own slot (cfg's assignment skipped
			// for it). Made in its own slot (the destination an element,
			// a field, a map entry or a variable a closure captured), it
			// is the struct, which the assignment then converts: the
			// valueInterface stored there panicked with "reflect.Set:
			// value of type interp.valueInterface is not assignable".
			if len(destType(n).field) > 0 {
				d.Set(reflect.ValueOf(valueInterface{n, a}))
				break
			}
			d.Set(a)
		default:
			getFrame(f, l).data[frameIndex] = a
		}
		return next
	}
}

// doCompositeLit creates and populates a struct object.
func doCompositeLit(n *node, hasType bool) {
	doComposite(n, hasType, false)
}

func compositeLit(n *node)       { doCompositeLit(n, true) }
func compositeLitNotype(n *node) { doCompositeLit(n, false) }

// doCompositeLitKeyed creates a struct Object, filling fields from sparse key-values.
func doCompositeLitKeyed(n *node, hasType bool) {
	doComposite(n, hasType, true)
}

func compositeLitKeyed(n *node)       { doCompositeLitKeyed(n, true) }
func compositeLitKeyedNotype(n *node) { doCompositeLitKeyed(n, false) }

func empty(n *node) {}

var rat = reflect.ValueOf((*[]rune)(nil)).Type().Elem() // runes array type

func _range(n *node) {
	index0 := n.child[0].findex // array index location in frame
	index2 := index0 - 1        // shallow array for range, always just behind index0
	index3 := index2 - 1        // iteration counter (byte position for a string)
	fnext := getExec(n.fnext)
	tnext := getExec(n.tnext)

	// sbir patch 27: the loop counts in a location of its own, so that
	// assigning to the key variable in the body does not change the
	// iteration, and a string is ranged over by its bytes, so that the
	// key is the byte position of each rune, with the key alone too, and
	// invalid UTF-8 advances one byte at a time as in gc.
	an := n.child[1]
	index1 := -1
	if len(n.child) == 4 {
		an = n.child[2]
		index1 = n.child[1].findex // array value location in frame
	}
	var value func(*frame) reflect.Value
	if isString(an.typ.TypeOf()) {
		value = genValue(an)
		n.exec = func(f *frame) bltn {
			s := f.data[index2].String()
			c := f.data[index3]
			pos := int(c.Int())
			if pos >= len(s) {
				return fnext
			}
			r, size := utf8.DecodeRuneInString(s[pos:])
			c.SetInt(int64(pos + size))
			f.data[index0].SetInt(int64(pos))
			if index1 >= 0 {
				f.data[index1].SetInt(int64(r))
			}
			return tnext
		}
		next := n.exec
		n.child[0].exec = func(f *frame) bltn {
			f.data[index2] = value(f)
			f.data[index3].SetInt(0)
			return next
		}
		return
	}

	value = genValueRangeArray(an)
	n.exec = func(f *frame) bltn {
		a := f.data[index2]
		c := f.data[index3]
		i := c.Int() + 1
		if int(i) >= a.Len() {
			return fnext
		}
		c.SetInt(i)
		f.data[index0].SetInt(i)
		if index1 >= 0 {
			f.data[index1].Set(a.Index(int(i)))
		}
		return tnext
	}
	next := n.exec
	n.child[0].exec = func(f *frame) bltn {
		f.data[index2] = value(f) // set array shallow copy for range
		f.data[index3].SetInt(-1)
		return next
	}
}

// rangeInt runs `for i := range n` over an integer n (sbir patch 37):
// the key takes the values 0 to n-1, from a counter of the loop's own
// (so that the body may assign the key), and n is evaluated once.
func rangeInt(n *node) {
	index0 := n.child[0].findex // key
	index2 := index0 - 1        // bound
	index3 := index2 - 1        // counter
	fnext := getExec(n.fnext)
	tnext := getExec(n.tnext)
	o := n.child[1]
	value := genValue(o)
	unsigned := isUint(n.child[0].typ.TypeOf())
	n.exec = func(f *frame) bltn {
		c := f.data[index3]
		i := c.Int() + 1
		if i >= f.data[index2].Int() {
			return fnext
		}
		c.SetInt(i)
		if unsigned {
			f.data[index0].SetUint(uint64(i))
		} else {
			f.data[index0].SetInt(i)
		}
		return tnext
	}
	next := n.exec
	n.child[0].exec = func(f *frame) bltn {
		v := value(f)
		var bound int64
		switch {
		case isConstantValue(v.Type()):
			bound = vInt(v)
		case v.CanUint():
			if u := v.Uint(); u > math.MaxInt64 {
				bound = math.MaxInt64
			} else {
				bound = int64(u)
			}
		default:
			bound = v.Int()
		}
		f.data[index2] = reflect.ValueOf(bound)
		f.data[index3].SetInt(-1)
		return next
	}
}

func rangeChan(n *node) {
	i := n.child[0].findex        // element index location in frame
	value := genValue(n.child[1]) // chan
	fnext := getExec(n.fnext)
	tnext := getExec(n.tnext)

	n.exec = func(f *frame) bltn {
		f.mutex.RLock()
		done := f.done
		f.mutex.RUnlock()

		chosen, v, ok := reflect.Select([]reflect.SelectCase{done, {Dir: reflect.SelectRecv, Chan: value(f)}})
		if chosen == 0 {
			return nil
		}
		if !ok {
			return fnext
		}
		f.data[i].Set(v)
		return tnext
	}
}

func rangeMap(n *node) {
	index0 := n.child[0].findex // map index location in frame
	index2 := index0 - 1        // iterator for range, always just behind index0
	fnext := getExec(n.fnext)
	tnext := getExec(n.tnext)

	var value func(*frame) reflect.Value
	if restore := genMapKeyRead(n.child[len(n.child)-2].typ); restore != nil {
		// sbir patch 202: keys of a map keyed by interfaces are
		// read back as interpreted code sees them.
		rangeMapRestore(n, restore)
		return
	}
	if len(n.child) == 4 {
		index1 := n.child[1].findex  // map value location in frame
		value = genValue(n.child[2]) // map
		n.exec = func(f *frame) bltn {
			iter := f.data[index2].Interface().(*reflect.MapIter)
			if !iter.Next() {
				return fnext
			}
			f.data[index0].Set(iter.Key())
			f.data[index1].Set(iter.Value())
			return tnext
		}
	} else {
		value = genValue(n.child[1]) // map
		n.exec = func(f *frame) bltn {
			iter := f.data[index2].Interface().(*reflect.MapIter)
			if !iter.Next() {
				return fnext
			}
			f.data[index0].Set(iter.Key())
			return tnext
		}
	}

	// Init sequence
	next := n.exec
	n.child[0].exec = func(f *frame) bltn {
		f.data[index2].Set(reflect.ValueOf(value(f).MapRange()))
		return next
	}
}

func _case(n *node) {
	tnext := getExec(n.tnext)

	// TODO(mpl): a lot of what is done in typeAssert should probably be redone/reused here.
	switch {
	case n.anc.anc.kind == typeSwitch:
		fnext := getExec(n.fnext)
		sn := n.anc.anc // switch node
		types := make([]*itype, len(n.child)-1)
		for i := range types {
			types[i] = n.child[i].typ
		}
		srcValue := genValue(sn.child[1].lastChild().child[0])

		if len(sn.child[1].child) != 2 {
			// no assign in switch guard
			if len(n.child) <= 1 {
				n.exec = func(f *frame) bltn { return tnext }
			} else {
				n.exec = func(f *frame) bltn {
					ival := srcValue(f).Interface()
					val, ok := ival.(valueInterface)
					// TODO(mpl): I'm assuming here that !ok means that we're dealing with the empty
					// interface case. But maybe we should make sure by checking the relevant cat
					// instead? later. Use t := v.Type(); t.Kind() == reflect.Interface , like above.
					if !ok {
						if _, wt, ok := wrappedValue(reflect.ValueOf(ival)); ok {
							for _, typ := range types {
								if wt.id() == typ.id() || interpretedImplements(wt, typ) {
									return tnext // sbir patch 88
								}
							}
						}
						var stype string
						if ival != nil {
							stype = strings.ReplaceAll(reflect.TypeOf(ival).String(), " {}", "{}")
						}
						for _, typ := range types {
							// TODO(mpl): we should actually use canAssertTypes, but need to find a valid
							// rtype for typ. Plus we need to refactor with typeAssert().
							// weak check instead for now.
							if ival == nil {
								if typ.cat == nilT {
									return tnext
								}
								continue
							}
							if stype == typ.id() {
								return tnext
							}
							// sbir patch 61: a bare value of an interpreted
							// struct type (one with no methods, or passed
							// where no valueInterface was made) has the
							// struct's generated reflect type.
							if typ.cat == structT && reflect.TypeOf(ival) == typ.TypeOf() {
								return tnext
							}
							// sbir patch 20f: a compiled value matches a compiled
							// interface type (error, fmt.Stringer) it implements.
							if typ.cat == valueT || typ.cat == errorT {
								if rt := typ.TypeOf(); rt != nil && rt.Kind() == reflect.Interface && reflect.TypeOf(ival).Implements(rt) {
									return tnext
								}
							}
						}
						return fnext
					}
					if v := val.node; v != nil {
						for _, typ := range types {
							if v.typ.id() == typ.id() || interpretedImplements(v.typ, typ) {
								return tnext
							}
						}
					}
					return fnext
				}
			}
			break
		}

		// assign in switch guard
		destValue := genValue(n.lastChild().child[0])
		switch len(types) {
		case 0:
			// default clause: assign var to interface value
			n.exec = func(f *frame) bltn {
				destValue(f).Set(srcValue(f))
				return tnext
			}
		case 1:
			// match against 1 type: assign var to concrete value
			typ := types[0]
			n.exec = func(f *frame) bltn {
				v := srcValue(f)
				if !v.IsValid() {
					// match zero value against nil
					if typ.cat == nilT {
						return tnext
					}
					return fnext
				}
				if t := v.Type(); t.Kind() == reflect.Interface {
					if typ.cat == nilT && v.IsNil() {
						return tnext
					}
					if held, ok := wrappedCase(v, typ); ok {
						destValue(f).Set(held) // sbir patch 88
						return tnext
					}
					if vi, ok := wrappedAsInterface(v, typ, n.interp); ok {
						destValue(f).Set(vi) // sbir patch 95
						return tnext
					}
					if held, ok := heldValueInterface(v, typ); ok {
						destValue(f).Set(held) // sbir patch 162
						return tnext
					}
					if w, ok := heldAsCompiledInterface(f, v, typ); ok {
						destValue(f).Set(w) // sbir patch 163
						return tnext
					}
					rtyp := typ.TypeOf()
					if rtyp == nil {
						return fnext
					}
					elem := v.Elem()
					if rtyp.String() == t.String() && implementsInterface(v, typ) {
						destValue(f).Set(elem)
						return tnext
					}
					ival := v.Interface()
					if ival != nil && rtyp.String() == reflect.TypeOf(ival).String() {
						destValue(f).Set(elem)
						return tnext
					}
					if (typ.cat == valueT || typ.cat == errorT) && rtyp.Kind() == reflect.Interface && elem.IsValid() && elem.Type().Implements(rtyp) { // sbir patch 20f: error too
						destValue(f).Set(elem)
						return tnext
					}
					return fnext
				}
				if vi, ok := v.Interface().(valueInterface); ok {
					if vi.node != nil {
						if vi.node.typ.id() == typ.id() {
							destValue(f).Set(vi.value)
							return tnext
						}
					}
					return fnext
				}
				if v.Type() == typ.TypeOf() {
					destValue(f).Set(v)
					return tnext
				}
				return fnext
			}

		default:
			n.exec = func(f *frame) bltn {
				val := srcValue(f)
				if t := val.Type(); t.Kind() == reflect.Interface {
					for _, typ := range types {
						if typ.cat == nilT && val.IsNil() {
							return tnext
						}
						if held, ok := wrappedCase(val, typ); ok {
							destValue(f).Set(held) // sbir patch 88
							return tnext
						}
						if _, ok := wrappedAsInterface(val, typ, n.interp); ok {
							destValue(f).Set(val) // sbir patch 95: e has the operand's type
							return tnext
						}
						rtyp := typ.TypeOf()
						if rtyp == nil {
							continue
						}
						elem := val.Elem()
						if rtyp.String() == t.String() && implementsInterface(val, typ) {
							destValue(f).Set(elem)
							return tnext
						}
						if elem.IsValid() && elem.CanInterface() {
							// sbir patch 20f: an interpreted value matches an
							// interface it implements.
							// sbir patch 162: and the type it holds.
							if vi, ok := elem.Interface().(valueInterface); ok && vi.node != nil && (vi.node.typ.id() == typ.id() || interpretedImplements(vi.node.typ, typ)) {
								destValue(f).Set(elem)
								return tnext
							}
						}
						ival := val.Interface()
						if ival != nil && rtyp.String() == reflect.TypeOf(ival).String() {
							destValue(f).Set(elem)
							return tnext
						}
						if (typ.cat == valueT || typ.cat == errorT) && rtyp.Kind() == reflect.Interface && elem.IsValid() && elem.Type().Implements(rtyp) { // sbir patch 20f: error too
							destValue(f).Set(elem)
							return tnext
						}
					}
					return fnext
				}
				if vi, ok := val.Interface().(valueInterface); ok {
					if v := vi.node; v != nil {
						for _, typ := range types {
							if v.typ.id() == typ.id() || interpretedImplements(v.typ, typ) {
								destValue(f).Set(val)
								return tnext
							}
						}
					}
					return fnext
				}
				vt := val.Type()
				for _, typ := range types {
					if vt == typ.TypeOf() {
						destValue(f).Set(val)
						return tnext
					}
				}
				return fnext
			}
		}

	case len(n.child) <= 1: // default clause
		n.exec = func(f *frame) bltn { return tnext }

	default:
		fnext := getExec(n.fnext)
		l := len(n.anc.anc.child)
		tag := n.anc.anc.child[l-2]
		value := genValue(tag)
		values := make([]func(*frame) reflect.Value, len(n.child)-1)
		for i := range values {
			values[i] = genValue(n.child[i])
		}
		if tag.typ != nil && (isInterfaceBin(tag.typ) || isInterfaceSrc(tag.typ)) {
			// sbir patch 65: a tag of an interface type (error) is
			// compared with each case as == compares them. sbir patch
			// 200: an empty interface too (converting it to the case's
			// type panicked), and with the tag's type known.
			for i := range values {
				values[i] = genComparedValue(n.child[i], tag.typ)
			}
			n.exec = func(f *frame) bltn {
				i0 := value(f).Interface()
				for _, v := range values {
					if sbirEqualValues(i0, v(f).Interface()) {
						return tnext
					}
				}
				return fnext
			}
			return
		}
		n.exec = func(f *frame) bltn {
			v0 := value(f)
			for _, v := range values {
				v1 := v(f)
				if !v0.Type().AssignableTo(v1.Type()) {
					v0 = v0.Convert(v1.Type())
				}
				if v0.Interface() == v1.Interface() {
					return tnext
				}
			}
			return fnext
		}
	}
}

func implementsInterface(v reflect.Value, t *itype) bool {
	rt := v.Type()
	if t.cat == valueT {
		return rt.Implements(t.rtype)
	}
	vt := &itype{cat: valueT, rtype: rt}
	if vt.methods().contains(t.methods()) {
		return true
	}
	vi, ok := v.Interface().(valueInterface)
	if !ok {
		return false
	}
	return vi.node != nil && vi.node.typ.methods().contains(t.methods())
}

func appendSlice(n *node) {
	dest := genValueOutput(n, n.typ.rtype)
	next := getExec(n.tnext)
	value := genValue(n.child[1])
	value0 := genValue(n.child[2])

	if isString(n.child[2].typ.TypeOf()) {
		typ := reflect.TypeOf([]byte{})
		n.exec = func(f *frame) bltn {
			dest(f).Set(reflect.AppendSlice(value(f), value0(f).Convert(typ)))
			return next
		}
	} else {
		n.exec = func(f *frame) bltn {
			dest(f).Set(reflect.AppendSlice(value(f), value0(f)))
			return next
		}
	}
}

func _append(n *node) {
	// sbir patch 40: only append(s, t...) appends the elements of t;
	// append(s, t) with s a []any and t a []any (or a []byte) appends t
	// itself, as one element.
	if len(n.child) == 3 && n.action == aCallSlice {
		c1, c2 := n.child[1], n.child[2]
		if (c1.typ.cat == valueT || c2.typ.cat == valueT) && c1.typ.rtype == c2.typ.rtype ||
			isArray(c2.typ) && c2.typ.elem().id() == n.typ.elem().id() ||
			isByteArray(c1.typ.TypeOf()) && isString(c2.typ.TypeOf()) {
			appendSlice(n)
			return
		}
	}

	dest := genValueOutput(n, n.typ.rtype)
	value := genValue(n.child[1])
	next := getExec(n.tnext)

	switch l := len(n.child); {
	case l == 2:
		n.exec = func(f *frame) bltn {
			dest(f).Set(value(f))
			return next
		}
	case l > 3:
		args := n.child[2:]
		l := len(args)
		values := make([]func(*frame) reflect.Value, l)
		for i, arg := range args {
			switch elem := n.typ.elem(); {
			case isInterfaceSrc(elem) && (!isEmptyInterface(elem) || keepsTypeInAny(arg.typ)): // sbir patch 200
				values[i] = genValueInterface(arg)
			case isInterfaceBin(elem):
				values[i] = genInterfaceWrapper(arg, elem.rtype)
			case arg.typ.untyped:
				values[i] = genValueAs(arg, n.child[1].typ.TypeOf().Elem())
			default:
				values[i] = genValue(arg)
			}
		}

		n.exec = func(f *frame) bltn {
			sl := make([]reflect.Value, l)
			for i, v := range values {
				sl[i] = v(f)
			}
			dest(f).Set(reflect.Append(value(f), sl...))
			return next
		}
	default:
		var value0 func(*frame) reflect.Value
		switch elem := n.typ.elem(); {
		case isInterfaceSrc(elem) && (!isEmptyInterface(elem) || keepsTypeInAny(n.child[2].typ)): // sbir patch 200
			value0 = genValueInterface(n.child[2])
		case isInterfaceBin(elem):
			value0 = genInterfaceWrapper(n.child[2], elem.rtype)
		case n.child[2].typ.untyped:
			value0 = genValueAs(n.child[2], n.child[1].typ.TypeOf().Elem())
		default:
			value0 = genValue(n.child[2])
		}

		n.exec = func(f *frame) bltn {
			dest(f).Set(reflect.Append(value(f), value0(f)))
			return next
		}
	}
	n.exec = genStackAppend(n, len(n.child)-2, n.exec) // sbir patch 41
}

func _cap(n *node) {
	dest := genValueOutput(n, reflect.TypeOf(int(0)))
	value := genValue(n.child[1])
	next := getExec(n.tnext)

	if wantEmptyInterface(n) {
		n.exec = func(f *frame) bltn {
			dest(f).Set(reflect.ValueOf(value(f).Cap()))
			return next
		}
		return
	}
	n.exec = func(f *frame) bltn {
		dest(f).SetInt(int64(value(f).Cap()))
		return next
	}
}

func _copy(n *node) {
	in := []func(*frame) reflect.Value{genValueArray(n.child[1]), genValue(n.child[2])}
	out := []func(*frame) reflect.Value{genValueOutput(n, reflect.TypeOf(0))}

	genBuiltinDeferWrapper(n, in, out, func(args []reflect.Value) []reflect.Value {
		cnt := reflect.Copy(args[0], args[1])
		return []reflect.Value{reflect.ValueOf(cnt)}
	})
}

func _close(n *node) {
	in := []func(*frame) reflect.Value{genValue(n.child[1])}

	genBuiltinDeferWrapper(n, in, nil, func(args []reflect.Value) []reflect.Value {
		args[0].Close()
		return nil
	})
}

func _complex(n *node) {
	dest := genValueOutput(n, reflect.TypeOf(complex(0, 0)))
	c1, c2 := n.child[1], n.child[2]
	convertLiteralValue(c1, floatType)
	convertLiteralValue(c2, floatType)
	value0 := genValue(c1)
	value1 := genValue(c2)
	next := getExec(n.tnext)

	typ := n.typ.TypeOf()
	if isComplex(typ) {
		if wantEmptyInterface(n) {
			n.exec = func(f *frame) bltn {
				dest(f).Set(reflect.ValueOf(complex(value0(f).Float(), value1(f).Float())))
				return next
			}
			return
		}
		n.exec = func(f *frame) bltn {
			dest(f).SetComplex(complex(value0(f).Float(), value1(f).Float()))
			return next
		}
		return
	}
	// Not a complex type: ignore imaginary part
	n.exec = func(f *frame) bltn {
		dest(f).Set(value0(f).Convert(typ))
		return next
	}
}

func _imag(n *node) {
	dest := genValueOutput(n, reflect.TypeOf(float64(0)))
	convertLiteralValue(n.child[1], complexType)
	value := genValue(n.child[1])
	next := getExec(n.tnext)

	if wantEmptyInterface(n) {
		n.exec = func(f *frame) bltn {
			dest(f).Set(reflect.ValueOf(imag(value(f).Complex())))
			return next
		}
		return
	}
	n.exec = func(f *frame) bltn {
		dest(f).SetFloat(imag(value(f).Complex()))
		return next
	}
}

func _real(n *node) {
	dest := genValueOutput(n, reflect.TypeOf(float64(0)))
	convertLiteralValue(n.child[1], complexType)
	value := genValue(n.child[1])
	next := getExec(n.tnext)

	if wantEmptyInterface(n) {
		n.exec = func(f *frame) bltn {
			dest(f).Set(reflect.ValueOf(real(value(f).Complex())))
			return next
		}
		return
	}
	n.exec = func(f *frame) bltn {
		dest(f).SetFloat(real(value(f).Complex()))
		return next
	}
}

func _delete(n *node) {
	value0 := genValue(n.child[1]) // map
	value1 := genValue(n.child[2]) // key
	// sbir patch 47: a constant key takes the map's key type, as it
	// does in an index expression (delete(m, 0) on a map[int8]T).
	if k := n.child[2]; k.rval.IsValid() {
		if mt := n.child[1].typ.TypeOf(); mt != nil && mt.Kind() == reflect.Map && mt.Key().Kind() != reflect.Interface {
			value1 = genValueAs(k, mt.Key())
		}
	}
	value1 = genMapKey(n.child[1], n.child[2], value1) // sbir patch 202
	in := []func(*frame) reflect.Value{value0, value1}
	var z reflect.Value

	genBuiltinDeferWrapper(n, in, nil, func(args []reflect.Value) []reflect.Value {
		args[0].SetMapIndex(args[1], z)
		return nil
	})
}

func capConst(n *node) {
	// There is no Cap() method for reflect.Type, just return Len() instead.
	lenConst(n)
}

func lenConst(n *node) {
	n.rval = reflect.New(reflect.TypeOf(int(0))).Elem()
	c1 := n.child[1]
	if c1.rval.IsValid() {
		n.rval.SetInt(int64(len(vString(c1.rval))))
		return
	}
	t := c1.typ.TypeOf()
	for t.Kind() == reflect.Ptr {
		t = t.Elem()
	}
	n.rval.SetInt(int64(t.Len()))
}

func _len(n *node) {
	dest := genValueOutput(n, reflect.TypeOf(int(0)))
	value := genValue(n.child[1])
	if isPtr(n.child[1].typ) {
		val := value
		value = func(f *frame) reflect.Value {
			v := val(f).Elem()
			for v.Kind() == reflect.Ptr {
				v = v.Elem()
			}
			return v
		}
	}
	next := getExec(n.tnext)

	if wantEmptyInterface(n) {
		n.exec = func(f *frame) bltn {
			dest(f).Set(reflect.ValueOf(value(f).Len()))
			return next
		}
		return
	}
	n.exec = func(f *frame) bltn {
		dest(f).SetInt(int64(value(f).Len()))
		return next
	}
}

func _new(n *node) {
	next := getExec(n.tnext)
	t1 := n.child[1].typ
	typ := t1.TypeOf()
	dest := genValueOutput(n, reflect.PtrTo(typ))

	if isInterfaceSrc(t1) && (!isEmptyInterface(t1) || len(t1.method) > 0) {
		typ = zeroInterfaceValue().Type()
	}

	n.exec = func(f *frame) bltn {
		v := reflect.New(typ)
		if vi, ok := v.Interface().(*valueInterface); ok {
			vi.node = n
		}
		dest(f).Set(v)
		return next
	}
}

// _newValue is Go 1.26's new(expr): a pointer to a new variable of expr's
// type (an untyped constant's default type) holding expr's value. yaegi
// took the expression for its type and returned a pointer to zero:
// new(10) pointed to 0 (sbir patch 86).
func _newValue(n *node) {
	next := getExec(n.tnext)
	typ := n.typ.val.TypeOf()
	value := genValueAs(n.child[1], typ)
	dest := genValueOutput(n, reflect.PtrTo(typ))
	n.exec = func(f *frame) bltn {
		v := reflect.New(typ)
		v.Elem().Set(value(f))
		dest(f).Set(v)
		return next
	}
}

// _make allocates and initializes a slice, a map or a chan.
func _make(n *node) {
	next := getExec(n.tnext)
	typ := n.child[1].typ.frameType()
	dest := genValueOutput(n, typ)

	switch typ.Kind() {
	case reflect.Array, reflect.Slice:
		value := genValue(n.child[2])

		switch len(n.child) {
		case 3:
			n.exec = func(f *frame) bltn {
				length := int(vInt(value(f)))
				dest(f).Set(reflect.MakeSlice(typ, length, length))
				return next
			}
		case 4:
			value1 := genValue(n.child[3])
			n.exec = func(f *frame) bltn {
				dest(f).Set(reflect.MakeSlice(typ, int(vInt(value(f))), int(vInt(value1(f)))))
				return next
			}
		}

	case reflect.Chan:
		switch len(n.child) {
		case 2:
			n.exec = func(f *frame) bltn {
				dest(f).Set(reflect.MakeChan(typ, 0))
				return next
			}
		case 3:
			value := genValue(n.child[2])
			n.exec = func(f *frame) bltn {
				dest(f).Set(reflect.MakeChan(typ, int(vInt(value(f)))))
				return next
			}
		}

	case reflect.Map:
		switch len(n.child) {
		case 2:
			n.exec = func(f *frame) bltn {
				dest(f).Set(reflect.MakeMap(typ))
				return next
			}
		case 3:
			value := genValue(n.child[2])
			n.exec = func(f *frame) bltn {
				dest(f).Set(reflect.MakeMapWithSize(typ, int(vInt(value(f)))))
				return next
			}
		}
	}
}

func reset(n *node) {
	next := getExec(n.tnext)

	switch l := len(n.child) - 1; l {
	case 1:
		typ := n.child[0].typ.frameType()
		i := n.child[0].findex
		n.exec = func(f *frame) bltn {
			f.data[i] = reflect.New(typ).Elem()
			return next
		}
	case 2:
		c0, c1 := n.child[0], n.child[1]
		i0, i1 := c0.findex, c1.findex
		t0, t1 := c0.typ.frameType(), c1.typ.frameType()
		n.exec = func(f *frame) bltn {
			f.data[i0] = reflect.New(t0).Elem()
			f.data[i1] = reflect.New(t1).Elem()
			return next
		}
	default:
		types := make([]reflect.Type, l)
		index := make([]int, l)
		for i, c := range n.child[:l] {
			index[i] = c.findex
			types[i] = c.typ.frameType()
		}
		n.exec = func(f *frame) bltn {
			for i, ind := range index {
				f.data[ind] = reflect.New(types[i]).Elem()
			}
			return next
		}
	}
}

// recv reads from a channel.
func recv(n *node) {
	value := genValue(n.child[0])
	tnext := getExec(n.tnext)
	i := n.findex
	l := n.level
	fresh := n.anc != nil && n.anc.kind == defineStmt && (!plainValue(n.typ) || mayShareVars(n)) // sbir patches 140, 141

	if n.interp.cancelChan {
		// Cancellable channel read
		if n.fnext != nil {
			fnext := getExec(n.fnext)
			n.exec = func(f *frame) bltn {
				// Fast: channel read doesn't block
				ch := value(f)
				if r, ok := ch.TryRecv(); ok {
					setReceived(getFrame(f, l), i, r, fresh) // sbir patch 140
					if r.Bool() {
						return tnext
					}
					return fnext
				}
				// Slow: channel read blocks, allow cancel
				f.mutex.RLock()
				done := f.done
				f.mutex.RUnlock()

				chosen, v, _ := reflect.Select([]reflect.SelectCase{done, {Dir: reflect.SelectRecv, Chan: ch}})
				if chosen == 0 {
					return nil
				}
				if v.Bool() {
					return tnext
				}
				return fnext
			}
		} else {
			n.exec = func(f *frame) bltn {
				// Fast: channel read doesn't block
				ch := value(f)
				if r, ok := ch.TryRecv(); ok {
					setReceived(getFrame(f, l), i, r, fresh) // sbir patch 140
					return tnext
				}
				// Slow: channel is blocked, allow cancel
				f.mutex.RLock()
				done := f.done
				f.mutex.RUnlock()

				chosen, r, _ := reflect.Select([]reflect.SelectCase{done, {Dir: reflect.SelectRecv, Chan: ch}})
				if chosen == 0 {
					return nil
				}
				setReceived(getFrame(f, l), i, r, fresh) // sbir patch 140
				return tnext
			}
		}
	} else {
		// Blocking channel read (less overhead)
		if n.fnext != nil {
			fnext := getExec(n.fnext)
			n.exec = func(f *frame) bltn {
				if r, _ := value(f).Recv(); r.Bool() {
					setReceived(getFrame(f, l), i, r, fresh) // sbir patch 140
					return tnext
				}
				return fnext
			}
		} else {
			i := n.findex
			n.exec = func(f *frame) bltn {
				r, _ := value(f).Recv()
				setReceived(getFrame(f, l), i, r, fresh) // sbir patch 140
				return tnext
			}
		}
	}
}

func recv2(n *node) {
	vchan := genValue(n.child[0])    // chan
	vres := genValue(n.anc.child[0]) // result
	vok := genValue(n.anc.child[1])  // status
	tnext := getExec(n.tnext)

	if n.interp.cancelChan {
		// Cancellable channel read
		n.exec = func(f *frame) bltn {
			ch, result, status := vchan(f), vres(f), vok(f)
			//  Fast: channel read doesn't block
			if v, ok := ch.TryRecv(); ok {
				result.Set(v)
				status.SetBool(true)
				return tnext
			}
			// Slow: channel is blocked, allow cancel
			f.mutex.RLock()
			done := f.done
			f.mutex.RUnlock()

			chosen, v, ok := reflect.Select([]reflect.SelectCase{done, {Dir: reflect.SelectRecv, Chan: ch}})
			if chosen == 0 {
				return nil
			}
			result.Set(v)
			status.SetBool(ok)
			return tnext
		}
	} else {
		// Blocking channel read (less overhead)
		n.exec = func(f *frame) bltn {
			v, ok := vchan(f).Recv()
			vres(f).Set(v)
			vok(f).SetBool(ok)
			return tnext
		}
	}
}

func convertLiteralValue(n *node, t reflect.Type) {
	switch {
	case n.typ.cat == nilT:
		// Create a zero value of target type.
		n.rval = reflect.New(t).Elem()
	case !(n.kind == basicLit || n.rval.IsValid()) || t == nil || t.Kind() == reflect.Interface || t == valueInterfaceType || t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Interface:
		// Skip non-constant values, undefined target type or interface target type.
	case n.rval.IsValid():
		// Convert constant value to target type.
		if u, ok := uintConstant(n.rval, t); ok { // sbir patch 45
			n.rval = u
			break
		}
		if x, ok := floatConstant(n.rval, t); ok { // sbir patch 46
			n.rval = x
			break
		}
		convertConstantValue(n)
		n.rval = n.rval.Convert(t)
	default:
		// Create a zero value of target type.
		n.rval = reflect.New(t).Elem()
	}
}

func convertConstantValue(n *node) {
	if !n.rval.IsValid() {
		return
	}
	c, ok := n.rval.Interface().(constant.Value)
	if !ok {
		return
	}
	if v, ok := exactConstant(c, n.typ.TypeOf()); ok { // sbir patch 150
		n.rval = v
		return
	}

	var v reflect.Value

	switch c.Kind() {
	case constant.Bool:
		v = reflect.ValueOf(constant.BoolVal(c))
	case constant.String:
		v = reflect.ValueOf(constant.StringVal(c))
	case constant.Int:
		i, x := constant.Int64Val(c)
		if !x {
			panic(n.cfgErrorf("constant %s overflows int64", c.ExactString()))
		}
		v = reflect.ValueOf(int(i))
	case constant.Float:
		f, _ := constant.Float64Val(c)
		v = reflect.ValueOf(f)
	case constant.Complex:
		r, _ := constant.Float64Val(constant.Real(c))
		i, _ := constant.Float64Val(constant.Imag(c))
		v = reflect.ValueOf(complex(r, i))
	}

	n.rval = v.Convert(n.typ.TypeOf())
}

// Write to a channel.
func send(n *node) {
	next := getExec(n.tnext)
	c0, c1 := n.child[0], n.child[1]
	value0 := genValue(c0) // Send channel.
	value1 := genDestValue(c0.typ.val, c1)

	if !n.interp.cancelChan {
		// Send is non-cancellable, has the least overhead.
		n.exec = func(f *frame) bltn {
			value0(f).Send(value1(f))
			return next
		}
		return
	}

	// Send is cancellable, may have some overhead.
	n.exec = func(f *frame) bltn {
		ch, data := value0(f), value1(f)
		// Fast: send on channel doesn't block.
		if ok := ch.TrySend(data); ok {
			return next
		}
		// Slow: send on channel blocks, allow cancel.
		f.mutex.RLock()
		done := f.done
		f.mutex.RUnlock()

		chosen, _, _ := reflect.Select([]reflect.SelectCase{done, {Dir: reflect.SelectSend, Chan: ch, Send: data}})
		if chosen == 0 {
			return nil
		}
		return next
	}
}

func clauseChanDir(n *node) (*node, *node, *node, reflect.SelectDir) {
	dir := reflect.SelectDefault
	var nod, assigned, ok *node
	var stop bool

	n.Walk(func(m *node) bool {
		switch m.action {
		case aRecv:
			dir = reflect.SelectRecv
			nod = m.child[0]
			switch m.anc.action {
			case aAssign:
				assigned = m.anc.child[0]
			case aAssignX:
				assigned = m.anc.child[0]
				ok = m.anc.child[1]
			}
			stop = true
		case aSend:
			dir = reflect.SelectSend
			nod = m.child[0]
			assigned = m.child[1]
			stop = true
		}
		return !stop
	}, nil)
	return nod, assigned, ok, dir
}

func _select(n *node) {
	nbClause := len(n.child)
	chans := make([]*node, nbClause)
	assigned := make([]*node, nbClause)
	ok := make([]*node, nbClause)
	clause := make([]bltn, nbClause)
	chanValues := make([]func(*frame) reflect.Value, nbClause)
	assignedValues := make([]func(*frame) reflect.Value, nbClause)
	okValues := make([]func(*frame) reflect.Value, nbClause)
	cases := make([]reflect.SelectCase, nbClause+1)
	fresh := make([]func(*frame), nbClause) // sbir patch 141
	next := getExec(n.tnext)

	for i := 0; i < nbClause; i++ {
		cl := n.child[i]
		if cl.kind == commClauseDefault {
			cases[i].Dir = reflect.SelectDefault
			if len(cl.child) == 0 {
				clause[i] = func(*frame) bltn { return next }
			} else {
				clause[i] = getExec(cl.child[0].start)
			}
			continue
		}
		// The comm clause is in send or recv direction.
		switch c0 := cl.child[0]; {
		case len(cl.child) > 1:
			// The comm clause contains a channel operation and a clause body.
			clause[i] = getExec(cl.child[1].start)
			chans[i], assigned[i], ok[i], cases[i].Dir = clauseChanDir(c0)
			chanValues[i] = genValue(chans[i])
			if assigned[i] != nil {
				assignedValues[i] = genValue(assigned[i])
				if cases[i].Dir == reflect.SelectSend {
					assignedValues[i] = genSentValue(chans[i], assigned[i]) // sbir patch 200
				}
			}
			if ok[i] != nil {
				okValues[i] = genValue(ok[i])
			}
			if c0.kind == defineStmt || c0.kind == defineXStmt {
				fresh[i] = freshVars([]*node{assigned[i], ok[i]}) // sbir patch 141
			}
		case c0.kind == exprStmt && len(c0.child) == 1 && c0.child[0].action == aRecv:
			// The comm clause has an empty body clause after channel receive.
			chanValues[i] = genValue(c0.child[0].child[0])
			cases[i].Dir = reflect.SelectRecv
			clause[i] = func(*frame) bltn { return next }
		case c0.kind == sendStmt:
			// The comm clause as an empty body clause after channel send.
			chanValues[i] = genValue(c0.child[0])
			cases[i].Dir = reflect.SelectSend
			assignedValues[i] = genSentValue(c0.child[0], c0.child[1]) // sbir patch 200
			clause[i] = func(*frame) bltn { return next }
		}
	}

	n.exec = func(f *frame) bltn {
		// sbir patch 142: the cases of this run, not the node's: goroutines
		// running the same select statement at once each set their own
		// channels (a worker's select received from another worker's
		// channel, or waited on it for good).
		cases := append([]reflect.SelectCase(nil), cases...)
		f.mutex.RLock()
		cases[nbClause] = f.done
		f.mutex.RUnlock()

		for i := range cases[:nbClause] {
			switch cases[i].Dir {
			case reflect.SelectRecv:
				cases[i].Chan = chanValues[i](f)
			case reflect.SelectSend:
				cases[i].Chan = chanValues[i](f)
				cases[i].Send = assignedValues[i](f)
			case reflect.SelectDefault:
				// Keep zero values for comm clause
			}
		}
		j, v, s := reflect.Select(cases)
		if j == nbClause {
			return nil
		}
		if cases[j].Dir == reflect.SelectRecv && assignedValues[j] != nil {
			if fresh[j] != nil {
				fresh[j](f) // sbir patch 141
			}
			assignedValues[j](f).Set(v)
			if ok[j] != nil {
				okValues[j](f).SetBool(s)
			}
		}
		return clause[j]
	}
}

// slice expression: array[low:high:max].
func slice(n *node) {
	i := n.findex
	l := n.level
	next := getExec(n.tnext)
	value0 := genValueArray(n.child[0]) // array
	value1 := genValue(n.child[1])      // low (if 2 or 3 args) or high (if 1 arg)

	switch len(n.child) {
	case 2:
		n.exec = func(f *frame) bltn {
			a := value0(f)
			getFrame(f, l).data[i] = sliceChecked(a, int(vInt(value1(f))), a.Len()) // sbir patch 39
			return next
		}
	case 3:
		value2 := genValue(n.child[2]) // max

		n.exec = func(f *frame) bltn {
			a := value0(f)
			getFrame(f, l).data[i] = sliceChecked(a, int(vInt(value1(f))), int(vInt(value2(f)))) // sbir patch 39
			return next
		}
	case 4:
		value2 := genValue(n.child[2])
		value3 := genValue(n.child[3])

		n.exec = func(f *frame) bltn {
			a := value0(f)
			getFrame(f, l).data[i] = slice3Checked(a, int(vInt(value1(f))), int(vInt(value2(f))), int(vInt(value3(f)))) // sbir patch 39
			return next
		}
	}
}

// slice expression, no low value: array[:high:max].
func slice0(n *node) {
	i := n.findex
	l := n.level
	next := getExec(n.tnext)
	value0 := genValueArray(n.child[0])

	switch len(n.child) {
	case 1:
		n.exec = func(f *frame) bltn {
			a := value0(f)
			getFrame(f, l).data[i] = a.Slice(0, a.Len())
			return next
		}
	case 2:
		value1 := genValue(n.child[1])
		n.exec = func(f *frame) bltn {
			a := value0(f)
			getFrame(f, l).data[i] = sliceChecked(a, 0, int(vInt(value1(f)))) // sbir patch 39
			return next
		}
	case 3:
		value1 := genValue(n.child[1])
		value2 := genValue(n.child[2])
		n.exec = func(f *frame) bltn {
			a := value0(f)
			getFrame(f, l).data[i] = slice3Checked(a, 0, int(vInt(value1(f))), int(vInt(value2(f)))) // sbir patch 39
			return next
		}
	}
}

func isNilChild(child int) func(n *node) {
	return func(n *node) {
		var value func(*frame) reflect.Value
		child := n.child[child]
		value = genValue(child)
		typ := n.typ.concrete().TypeOf()
		isInterface := n.typ.TypeOf().Kind() == reflect.Interface
		tnext := getExec(n.tnext)
		dest := genValue(n)
		if n.fnext == nil {
			if !isInterfaceSrc(child.typ) {
				if isInterface {
					n.exec = func(f *frame) bltn {
						dest(f).Set(reflect.ValueOf(value(f).IsNil()).Convert(typ))
						return tnext
					}
					return
				}
				n.exec = func(f *frame) bltn {
					dest(f).SetBool(value(f).IsNil())
					return tnext
				}
				return
			}
			if isInterface {
				n.exec = func(f *frame) bltn {
					v := value(f)
					var r bool
					if vi, ok := v.Interface().(valueInterface); ok {
						r = (vi == valueInterface{} || vi.node.kind == basicLit && vi.node.typ.cat == nilT)
					} else {
						r = v.IsNil()
					}
					dest(f).Set(reflect.ValueOf(r).Convert(typ))
					return tnext
				}
				return
			}
			n.exec = func(f *frame) bltn {
				v := value(f)
				var r bool
				if vi, ok := v.Interface().(valueInterface); ok {
					r = (vi == valueInterface{} || vi.node.kind == basicLit && vi.node.typ.cat == nilT)
				} else {
					r = v.IsNil()
				}
				dest(f).SetBool(r)
				return tnext
			}
			return
		}

		fnext := getExec(n.fnext)

		if !isInterfaceSrc(child.typ) {
			n.exec = func(f *frame) bltn {
				if value(f).IsNil() {
					dest(f).SetBool(true)
					return tnext
				}
				dest(f).SetBool(false)
				return fnext
			}
			return
		}

		n.exec = func(f *frame) bltn {
			v := value(f)
			if vi, ok := v.Interface().(valueInterface); ok {
				if (vi == valueInterface{} || vi.node.kind == basicLit && vi.node.typ.cat == nilT) {
					dest(f).SetBool(true)
					return tnext
				}
				dest(f).SetBool(false)
				return fnext
			}
			if v.IsNil() {
				dest(f).SetBool(true)
				return tnext
			}
			dest(f).SetBool(false)
			return fnext
		}
	}
}

func isNotNil(n *node) {
	var value func(*frame) reflect.Value
	c0 := n.child[0]
	value = genValue(c0)
	typ := n.typ.concrete().TypeOf()
	isInterface := n.typ.TypeOf().Kind() == reflect.Interface
	tnext := getExec(n.tnext)
	dest := genValue(n)

	if n.fnext == nil {
		if isInterfaceSrc(c0.typ) && c0.typ.TypeOf() != valueInterfaceType {
			if isInterface {
				n.exec = func(f *frame) bltn {
					dest(f).Set(reflect.ValueOf(!value(f).IsNil()).Convert(typ))
					return tnext
				}
				return
			}
			n.exec = func(f *frame) bltn {
				dest(f).SetBool(!value(f).IsNil())
				return tnext
			}
			return
		}

		if isInterface {
			n.exec = func(f *frame) bltn {
				v := value(f)
				var r bool
				if vi, ok := v.Interface().(valueInterface); ok {
					r = (vi == valueInterface{} || vi.node.kind == basicLit && vi.node.typ.cat == nilT)
				} else {
					r = v.IsNil()
				}
				dest(f).Set(reflect.ValueOf(!r).Convert(typ))
				return tnext
			}
			return
		}
		n.exec = func(f *frame) bltn {
			v := value(f)
			var r bool
			if vi, ok := v.Interface().(valueInterface); ok {
				r = (vi == valueInterface{} || vi.node.kind == basicLit && vi.node.typ.cat == nilT)
			} else {
				r = v.IsNil()
			}
			dest(f).SetBool(!r)
			return tnext
		}
		return
	}

	fnext := getExec(n.fnext)

	if isInterfaceSrc(c0.typ) && c0.typ.TypeOf() != valueInterfaceType {
		n.exec = func(f *frame) bltn {
			if value(f).IsNil() {
				dest(f).SetBool(false)
				return fnext
			}
			dest(f).SetBool(true)
			return tnext
		}
		return
	}

	n.exec = func(f *frame) bltn {
		v := value(f)
		if vi, ok := v.Interface().(valueInterface); ok {
			if (vi == valueInterface{} || vi.node.kind == basicLit && vi.node.typ.cat == nilT) {
				dest(f).SetBool(false)
				return fnext
			}
			dest(f).SetBool(true)
			return tnext
		}
		if v.IsNil() {
			dest(f).SetBool(false)
			return fnext
		}
		dest(f).SetBool(true)
		return tnext
	}
}

func complexConst(n *node) {
	if v0, v1 := n.child[1].rval, n.child[2].rval; v0.IsValid() && v1.IsValid() {
		n.rval = reflect.ValueOf(complex(vFloat(v0), vFloat(v1)))
		n.gen = nop
	}
}

func imagConst(n *node) {
	if v := n.child[1].rval; v.IsValid() {
		n.rval = reflect.ValueOf(imag(v.Complex()))
		n.gen = nop
	}
}

func realConst(n *node) {
	if v := n.child[1].rval; v.IsValid() {
		n.rval = reflect.ValueOf(real(v.Complex()))
		n.gen = nop
	}
}

// deferArg returns a copy of v if it is a variable (sbir patch 8b): the
// function value and arguments of a deferred call are evaluated when the
// defer statement executes, so later assignments must not change them.
func deferArg(v reflect.Value) reflect.Value {
	// A value read through an unexported field cannot be Set into the
	// copy; it cannot be assigned later either (sbir patch 13b).
	if !v.IsValid() || !v.CanAddr() || !v.CanInterface() {
		return v
	}
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	return c
}

// hasInterfaceResult reports whether a function of type t returns a value
// the check of sbir patch 18b looks at: an interface, or a slice of them.
func hasInterfaceResult(t reflect.Type) bool {
	if t == nil || t.Kind() != reflect.Func {
		return true // unknown: check
	}
	for i := 0; i < t.NumOut(); i++ {
		o := t.Out(i)
		if o.Kind() == reflect.Interface || o.Kind() == reflect.Slice && o.Elem().Kind() == reflect.Interface {
			return true
		}
	}
	return false
}

// interpretedImplements reports whether the interpreted type vt implements
// the interface type t of a type switch case with methods, error and
// compiled interfaces such as fmt.Stringer included (sbir patch 20f).
func interpretedImplements(vt, t *itype) bool {
	switch {
	case t.cat == errorT, isInterfaceSrc(t):
	case t.cat == valueT && t.rtype != nil && t.rtype.Kind() == reflect.Interface:
	default:
		return false
	}
	m := t.methods()
	return len(m) > 0 && vt.methods().contains(m)
}
