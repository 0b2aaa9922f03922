package interp

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"reflect"

	ijson "github.com/traefik/yaegi/interp/internal/json"
)

// sbir patch 77: encoding/json's and encoding/binary's errors for a value
// they cannot encode name its type by its reflect string, which for the
// script's types spells out an unnamed struct: json.Marshal of a
// map[Point]int failed with "json: unsupported type: map[struct { X int;
// Y int }]int" (gc: map[main.Point]int), of a cyclic *Node with
// "encountered a cycle via *struct { V int; Next *unsafe2.dummy }" (gc:
// *main.Node), and binary.Write of a struct with a string field with "not
// fixed-sized in type struct { Name string; ... }" (gc: main.Header).
// The error such a call returns names the script's types that its
// arguments' static types reach, and those of the main package, as gc
// does.

var (
	jsonMarshalerType = reflect.TypeOf((*json.Marshaler)(nil)).Elem()
	jsonEncoderType   = reflect.TypeOf((*json.Encoder)(nil))
	binaryFuncs       = map[reflect.Value]bool{
		reflect.ValueOf(binary.Write): true,
		reflect.ValueOf(binary.Read):  true,
	}
)

// isEncodeFunc reports whether the function called, c0, returns errors
// that name the types of its arguments: one the host marks with
// json.Marshaler first in its MapTypes (json.Marshal, MarshalIndent),
// (*json.Encoder).Encode, or a function of encoding/binary that reads or
// writes a value.
func isEncodeFunc(interp *Interpreter, c0 *node) bool {
	if lr, ok := interp.mapTypes[c0.rval]; ok && len(lr) > 0 && lr[0] == jsonMarshalerType {
		return true
	}
	if c0.rval.IsValid() && c0.rval.Kind() == reflect.Func && binaryFuncs[c0.rval] {
		return true
	}
	if c0.kind != selectorExpr || len(c0.child) != 2 || c0.child[1].ident != "Encode" {
		return false
	}
	t := c0.child[0].typ
	return t != nil && t.cat == valueT && t.rtype == jsonEncoderType
}

// encodeCall wraps call, whose arguments have the static types args, so
// that the error it returns last names the script's types as gc does.
func (interp *Interpreter) encodeCall(args []*itype, call func(reflect.Value, []reflect.Value) []reflect.Value) func(reflect.Value, []reflect.Value) []reflect.Value {
	return func(v reflect.Value, in []reflect.Value) []reflect.Value {
		out := call(v, in)
		if len(out) == 0 {
			return out
		}
		last := out[len(out)-1]
		if last.Kind() != reflect.Interface || last.IsNil() {
			return out
		}
		err, ok := last.Interface().(error)
		if !ok {
			return out
		}
		if fixed := encodeError(err, interp.scriptTypeNames(args...)); fixed != err {
			e := reflect.New(last.Type()).Elem()
			e.Set(reflect.ValueOf(fixed))
			out[len(out)-1] = e
		}
		return out
	}
}

// encodeError returns err with the script's types named as gc names
// them, or err itself.
func encodeError(err error, names scriptTypes) error {
	switch e := err.(type) {
	case *json.UnsupportedTypeError:
		if s := rewordTypes(e.Type.String(), names); s != e.Type.String() {
			return &ijson.UnsupportedTypeError{Type: e.Type, GoType: s}
		}
	case *json.UnsupportedValueError:
		e.Str = rewordTypes(e.Str, names)
	default:
		if reflect.TypeOf(err) == errorsNewType {
			if s := rewordTypes(err.Error(), names); s != err.Error() {
				return errors.New(s)
			}
		}
	}
	return err
}

// rewordedErrors wraps callFn, the call of the compiled function of the
// call expression n, when the errors of that function name the script's
// types: encoding/json's decoding (patch 75), templates (patch 76),
// encoding (patch 77). It reports whether it did.
func rewordedErrors(n *node, callFn func(reflect.Value, []reflect.Value) []reflect.Value) (func(reflect.Value, []reflect.Value) []reflect.Value, bool) {
	c0, child := n.child[0], n.child[1:]
	if n.action == aCallSlice || len(child) == 0 {
		return callFn, false
	}
	last := child[len(child)-1].typ
	switch {
	case isJSONDecodeFunc(n.interp, c0):
		return n.interp.jsonDecodeCall(last, callFn), true
	case isTemplateExec(c0):
		return n.interp.templateExecCall(last, bareDataCall(callFn)), true // sbir patch 204
	case isEncodeFunc(n.interp, c0):
		args := make([]*itype, len(child))
		for i, c := range child {
			args[i] = c.typ
		}
		return n.interp.encodeCall(args, callFn), true
	}
	return callFn, false
}
