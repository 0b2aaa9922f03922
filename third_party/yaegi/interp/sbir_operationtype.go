package interp

import (
	"go/constant"
	"go/token"
	"math"
	"reflect"
	"strings"
)

// sbir patch 190: an arithmetic operation has the type of its typed
// operands, whatever it is given to. The cfg's pre-order gives a binary,
// unary or parenthesised expression assigned to a typed variable the
// variable's type, for context (untyped constants and shifts of them
// take it); nodeType does the same for a returned operation, and an
// assignment or a return stores the result at the destination's slot
// with the destination's type. An operation with a typed operand of
// another type so passed the type check and its result was converted:
// `x := 1; var b byte = x + 300` printed 45 and `return x + 1` from a
// func() int8 ran, where gc refuses both programs ("cannot use x + 300
// (value of type int) as byte value in variable declaration").

// operationType is the type gc gives operation n from its operands: the
// type of a typed operand of an arithmetic binary expression (the left
// one of a shift), of the operand of -, + and ^, through parentheses. It
// is nil when the operation is untyped (its operands are untyped
// constants, or it is a shift of an untyped constant), and for any other
// node, whose type the cfg does not take from its context.
func operationType(n *node) *itype {
	switch n.kind {
	case parenExpr:
		return operationType(n.child[0])
	case unaryExpr:
		switch n.action {
		case aNeg, aPos, aBitNot:
			return operandType(n.child[0])
		}
	case binaryExpr:
		switch {
		case isBoolAction(n):
			return nil
		case isShiftNode(n):
			return operandType(n.child[0])
		}
		if t := operandType(n.child[0]); t != nil {
			return t
		}
		return operandType(n.child[1])
	}
	return nil
}

// operandType is the type of operand n as gc gives it, nil when it is
// untyped. The type check converts an untyped constant operand to the
// type of the other operand, which may itself be an operation typed by
// its context: a literal, or a constant declared untyped, is untyped
// whatever its node's type has become.
func operandType(n *node) *itype {
	switch n.kind {
	case parenExpr, unaryExpr, binaryExpr:
		if n.kind == unaryExpr && n.action != aNeg && n.action != aPos && n.action != aBitNot {
			break
		}
		if n.kind == binaryExpr && isBoolAction(n) {
			break
		}
		return operationType(n)
	case basicLit:
		if n.sym == nil {
			return nil // a literal
		}
		if n.sym.kind == constSym {
			if n.sym.typ == nil || n.sym.typ.untyped {
				return nil
			}
			return n.sym.typ
		}
	}
	if n.typ == nil || n.typ.untyped {
		return nil
	}
	return n.typ
}

// operationUseError is gc's error for operation n (a binary, unary or
// parenthesised expression) given to type typ in context ("variable
// declaration", "assignment", "return statement", "send") when its
// operands give it another type: "cannot use x + 300 (value of type int)
// as uint8 value in variable declaration" (gc names byte as written; the
// interpreter's types know it as uint8). It is nil for any other node,
// for an untyped operation, and for an interface destination.
func operationUseError(n *node, typ *itype, context string) error {
	if typ == nil || isInterface(typ) || typ.cat == genericT {
		return nil
	}
	t := operationType(n)
	if t == nil || t.cat == genericT || isInterface(t) || t.equals(typ) {
		return nil
	}
	desc := "value of " + typeDescription(t)
	if c, ok := exactValue(n); ok {
		desc = "constant " + constantString(c) + " of " + typeDescription(t)
	}
	return n.cfgErrorf("cannot use %s (%s) as %s value in %s", exprString(n), desc, localTypeName(typ), context)
}

// typeDescription describes numeric or string type t as gc does in an
// operand: "type int", or "int8 type W" for a defined type, named with
// its underlying type (a defined type's id is qualified by its package).
func typeDescription(t *itype) string {
	if strings.Contains(t.id(), ".") {
		return t.TypeOf().Kind().String() + " type " + localTypeName(t)
	}
	return "type " + localTypeName(t)
}

// localTypeName is t's name as gc writes it in an error of package main:
// main.D is D, []main.D is []D.
func localTypeName(t *itype) string {
	id := t.id()
	var b strings.Builder
	for i := 0; i < len(id); i++ {
		if strings.HasPrefix(id[i:], "main.") && (i == 0 || !isIdentByte(id[i-1])) {
			i += len("main.") - 1
			continue
		}
		b.WriteByte(id[i])
	}
	return b.String()
}

// isIdentByte reports whether c can be part of an identifier or a
// package path in a type's id.
func isIdentByte(c byte) bool {
	return c == '_' || c == '/' || c == '.' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}

// exactValue is the value of constant node n as a constant.Value: its own
// for an untyped constant, made from its reflect value for a typed one
// (a typed constant holds a value of its type). It reports false for a
// node that is not a constant, and for a variable of a compiled package,
// whose node holds the variable itself.
func exactValue(n *node) (constant.Value, bool) {
	v := n.rval
	if !v.IsValid() || (n.kind == identExpr || n.kind == selectorExpr) && v.CanAddr() {
		return nil, false
	}
	if c := vConstantValue(v); c != nil {
		return c, true
	}
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return constant.MakeInt64(v.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return constant.MakeUint64(v.Uint()), true
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); !math.IsInf(f, 0) && !math.IsNaN(f) {
			return constant.MakeFloat64(f), true
		}
	case reflect.String:
		return constant.MakeString(v.String()), true
	case reflect.Bool:
		return constant.MakeBool(v.Bool()), true
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		if re, im := real(c), imag(c); !math.IsInf(re, 0) && !math.IsNaN(re) && !math.IsInf(im, 0) && !math.IsNaN(im) {
			return constant.BinaryOp(constant.MakeFloat64(re), token.ADD, constant.MakeImag(constant.MakeFloat64(im))), true
		}
	}
	return nil, false
}
