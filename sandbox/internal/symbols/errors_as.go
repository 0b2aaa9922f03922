package symbols

import (
	"errors"
	"reflect"
)

// errorsAs replaces errors.As for cells. The compiled errors.As cannot
// see interpreted types: a cell's *ParseError is, to reflection, a pointer
// to a struct without methods (yaegi keeps methods in the interpreter),
// so errors.As panics with "*target must be interface or implement
// error", and the error in the chain is yaegi's wrapper rather than the
// cell's value. This version accepts any non-nil pointer target and
// also matches the value a yaegi wrapper carries (its IValue field).
func errorsAs(err error, target any) bool {
	if err == nil {
		return false
	}
	if target == nil {
		panic("errors: target cannot be nil")
	}
	val := reflect.ValueOf(target)
	typ := val.Type()
	if typ.Kind() != reflect.Pointer || val.IsNil() {
		panic("errors: target must be a non-nil pointer")
	}
	return as(err, val.Elem(), target)
}

func as(err error, dst reflect.Value, target any) bool {
	for err != nil {
		for _, c := range []any{err, wrapped(err)} {
			if c != nil && reflect.TypeOf(c).AssignableTo(dst.Type()) {
				dst.Set(reflect.ValueOf(c))
				return true
			}
		}
		if x, ok := err.(interface{ As(any) bool }); ok && x.As(target) {
			return true
		}
		switch x := err.(type) {
		case interface{ Unwrap() error }:
			err = x.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range x.Unwrap() {
				if e != nil && as(e, dst, target) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}

// wrapped returns the interpreted value inside a yaegi interface wrapper
// (a struct whose first field is IValue), or nil.
func wrapped(err error) any {
	v := reflect.ValueOf(err)
	for v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct || v.NumField() == 0 || v.Type().Field(0).Name != "IValue" {
		return nil
	}
	f := v.Field(0)
	if !f.CanInterface() {
		return nil
	}
	return f.Interface()
}

var _ = errors.As
