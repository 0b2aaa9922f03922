package interp

import (
	"go/constant"
	"go/token"
)

// sbir patch 192: the values of an expression switch's cases are
// compared with its tag, and gc checks them as operands of that
// comparison: an untyped constant must be a value of the tag's type, a
// typed case must have the tag's type, and two constant cases must not
// be equal. The interpreter checked none of these: `var i int8 = 5;
// switch i { case 200: }` ran (no case matched), `case c:` with c an
// int16 constant ran, and `case 1, 1:` ran the clause, where gc refuses
// the program.

// switchCaseError is gc's error for the first case of expression switch
// n (a switchStmt: its tag is the child before the body) that is not a
// value of the tag's type, or that repeats an earlier constant case. An
// interface tag, which cases of any type are compared with, is not
// checked.
func switchCaseError(n *node) error {
	if len(n.child) < 2 {
		return nil
	}
	tag := n.child[len(n.child)-2]
	tt := tag.typ
	if tt == nil || tt.untyped || isInterface(tt) || tt.cat == genericT {
		return nil
	}
	var seen []*node
	for _, clause := range n.lastChild().child {
		if clause.kind != caseClause || len(clause.child) < 2 {
			continue // default
		}
		for _, c := range clause.child[:len(clause.child)-1] {
			if err := caseValueError(c, tag); err != nil {
				return err
			}
			v, ok := caseConstant(c, tt)
			if !ok {
				continue
			}
			for _, p := range seen {
				if w, _ := caseConstant(p, tt); w != nil && constant.Compare(v, token.EQL, w) {
					return c.cfgErrorf("duplicate case %s in expression switch", caseDescription(c, v, tt))
				}
			}
			seen = append(seen, c)
		}
	}
	return nil
}

// caseValueError is gc's error for case value c of a switch on tag when
// c is not a value of the tag's type: "200 (untyped int constant)
// overflows int8" for an untyped constant, "invalid case c in switch on i
// (mismatched types int16 and int8)" for a value of another type.
func caseValueError(c, tag *node) error {
	if c.typ == nil || isInterface(c.typ) || c.typ.cat == nilT {
		return nil
	}
	if c.typ.untyped {
		return constantOperandError(c, tag.typ)
	}
	t := c.typ
	if ot := operationType(c); ot != nil {
		t = ot
	}
	if t.equals(tag.typ) || t.cat == genericT {
		return nil
	}
	return c.cfgErrorf("invalid case %s in switch on %s (mismatched types %s and %s)", exprString(c), exprString(tag), localTypeName(t), localTypeName(tag.typ))
}

// caseConstant is the value of constant case c as a value of the tag's
// type tt (an integer tag makes 1.0 the integer 1); false when c is not
// a constant.
func caseConstant(c *node, tt *itype) (constant.Value, bool) {
	v, ok := exactValue(c)
	if !ok {
		return nil, false
	}
	switch t := tt.TypeOf(); {
	case isInt(t):
		v = constant.ToInt(v)
	case isFloat(t):
		v = constant.ToFloat(v)
	case isComplex(t):
		v = constant.ToComplex(v)
	}
	return v, v.Kind() != constant.Unknown
}

// caseDescription describes constant case c of value v in a switch on a
// tag of type tt as gc does: `1 (constant of type int)`, `c (constant 1
// of type int)`.
func caseDescription(c *node, v constant.Value, tt *itype) string {
	expr, val := exprString(c), constantString(v)
	if expr == val {
		return expr + " (constant of " + typeDescription(tt) + ")"
	}
	return expr + " (constant " + val + " of " + typeDescription(tt) + ")"
}
