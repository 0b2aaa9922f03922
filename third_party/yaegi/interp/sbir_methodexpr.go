package interp

import (
	"reflect"
	"strings"
)

// sbir patch 68: method expressions of interpreted interface types.
//
// I.M, with I an interface type the script declares, is a function
// taking the receiver (an I) first: `g := Shouter.Shout; g(loud{}, "x")`.
// The selector was compiled as a method value of the type node itself
// (the function type without the receiver), so calls failed to compile
// ("cannot use type main.loud as type string").

// interfaceMethodExpr makes n, the selector I.M of the interface type I
// whose method M has the function type mt, the function value of the
// method expression.
func interfaceMethodExpr(n *node, mt *itype) {
	ft := &itype{}
	*ft = *mt
	ft.arg = append([]*itype{n.child[0].typ}, mt.arg...)
	ft.str = funcOf(ft.arg, ft.ret).str
	ft.rtype = nil
	ft.recv = nil
	n.typ = ft
	n.gen = genInterfaceMethodExpr
}

// genInterfaceMethodExpr stores in n's frame slot the function of the
// method expression n: it calls the method of its first argument's
// dynamic value with the other arguments.
func genInterfaceMethodExpr(n *node) {
	name := n.child[1].ident
	rt := n.typ.TypeOf()
	i, l := n.findex, n.level
	next := getExec(n.tnext)
	n.exec = func(f *frame) bltn {
		getFrame(f, l).data[i] = reflect.MakeFunc(rt, func(in []reflect.Value) []reflect.Value {
			return callInterfaceMethod(f, in[0], name, in[1:])
		})
		return next
	}
}

// callInterfaceMethod calls the method name of the value an interpreted
// interface value recv holds, with args; a nil interface panics as gc's
// call does.
func callInterfaceMethod(f *frame, recv reflect.Value, name string, args []reflect.Value) []reflect.Value {
	for recv.IsValid() && recv.Kind() == reflect.Interface && !recv.IsNil() {
		recv = recv.Elem()
	}
	if !recv.IsValid() || !recv.CanInterface() {
		nilPanic()
	}
	val, ok := recv.Interface().(valueInterface)
	if !ok {
		if m := recv.MethodByName(name); m.IsValid() {
			return m.Call(args)
		}
		panic("method not found: " + name)
	}
	for {
		if !val.value.IsValid() {
			nilPanic()
		}
		v, ok := val.value.Interface().(valueInterface)
		if !ok {
			break
		}
		val = v
	}
	r, m, li := lookupMethodValue(val, name)
	if r.IsValid() {
		return r.Call(args)
	}
	if m == nil {
		nilPanic()
	}
	nod := *m
	nod.recv = &receiver{nil, val.value, li}
	return genFunctionWrapper(&nod)(f).Call(args)
}

// funcTypeString names the func type t as gc's %T does: parameters
// separated by ", ", a variadic one as ...T, several results in
// parentheses (yaegi's own type strings have no spaces: %T printed
// func(main.P,string) (int,error)).
func funcTypeString(t *itype) string {
	list := func(ts []*itype) string {
		s := make([]string, len(ts))
		for i, a := range ts {
			if a.cat == variadicT {
				s[i] = "..." + typeString(a.val)
				continue
			}
			s[i] = typeString(a)
		}
		return strings.Join(s, ", ")
	}
	s := "func(" + list(t.arg) + ")"
	switch len(t.ret) {
	case 0:
	case 1:
		s += " " + list(t.ret)
	default:
		s += " (" + list(t.ret) + ")"
	}
	return s
}

// genBoundReceiver returns, for the method value n (x.M) of a method
// with a value receiver, the receiver a method value binds: a copy of x
// (of *x for a pointer) made when the method value is evaluated, as the
// spec says; nil for a pointer receiver, which binds the variable's
// address (sbir patch 68). The receiver was the expression x, read when
// the method value was called, so `show := c.Show; c.n++; show()` saw
// the change, and method values taken in a loop all saw the last value.
func genBoundReceiver(n *node) func(*frame) *receiver {
	m, ok := n.val.(*node)
	if !ok || n.recv == nil || n.recv.node == nil || m.kind != funcDecl || len(m.child) == 0 || len(m.child[0].child) == 0 {
		return nil
	}
	if r := m.child[0].child[0].lastChild(); r == nil || r.kind == starExpr {
		return nil
	}
	value := genValueRecv(n)
	return func(f *frame) *receiver {
		v := value(f)
		for v.Kind() == reflect.Ptr {
			v = elemChecked(v)
		}
		if !v.IsValid() || !v.CanInterface() {
			return n.recv
		}
		if _, isIface := v.Interface().(valueInterface); isIface {
			return n.recv
		}
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		return &receiver{val: c}
	}
}
