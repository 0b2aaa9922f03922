package interp

import (
	"fmt"
	"reflect"
)

// typeAssertionError is the panic of a failed type assertion, a
// runtime.Error worded as gc's *runtime.TypeAssertionError (sbir patch
// 55). It was a compile error value carrying the assertion's position, so
// a script that recovered it and printed its Error() printed "12:7: "
// before gc's words.
type typeAssertionError struct{ msg string }

func (e *typeAssertionError) Error() string { return e.msg }

// RuntimeError marks typeAssertionError as a runtime.Error, as gc's is.
func (*typeAssertionError) RuntimeError() {}

// assertionErrorf returns a typeAssertionError with a formatted message
// (sbir patch 55).
func assertionErrorf(format string, a ...any) error {
	return &typeAssertionError{msg: fmt.Sprintf(format, a...)}
}

// assertTypeString names a type in an assertion's message as gc does:
// a type the script declares by its package and name (main.SyntaxErr),
// not by the reflect type it is represented with (string).
func assertTypeString(t *itype, rt reflect.Type) string {
	if t != nil && t.cat != valueT && t.name != "" && t.path != "" {
		return t.path + "." + t.name
	}
	if rt == nil {
		return "nil"
	}
	return rt.String()
}

// valueNodeType returns the interpreted type an interface value records,
// or nil.
func valueNodeType(v reflect.Value) *itype {
	if !v.IsValid() || !v.CanInterface() {
		return nil
	}
	if vi, ok := v.Interface().(valueInterface); ok && vi.node != nil {
		return vi.node.typ
	}
	return nil
}
