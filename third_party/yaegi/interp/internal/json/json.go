// Package json holds the errors the interpreter returns in place of
// encoding/json's when their text names a type of the script (sbir
// patches 75, 77 and 89). Each has an As method by which errors.As finds
// the encoding/json error it stands for. The package is named json so that %T of such an error reads as
// gc's (*json.UnmarshalTypeError); scripts cannot name these types.
package json

import (
	"encoding/json"
	"reflect"
)

// UnmarshalTypeError is encoding/json's UnmarshalTypeError whose text
// names the Go type as GoType, the interpreted type's name (main.Item),
// rather than from Type, whose reflect type has no name.
type UnmarshalTypeError struct {
	Value  string       // description of JSON value - "bool", "array", "number -5"
	Type   reflect.Type // type of Go value it could not be assigned to
	Offset int64        // error occurred after reading Offset bytes
	Struct string       // name of the struct type containing the field
	Field  string       // the full path from root node to the field, include embedded struct
	GoType string       // Type as gc prints it
}

// Error returns encoding/json's text with GoType for Type.
func (e *UnmarshalTypeError) Error() string {
	if e.Struct != "" || e.Field != "" {
		return "json: cannot unmarshal " + e.Value + " into Go struct field " + e.Struct + "." + e.Field + " of type " + e.GoType
	}
	return "json: cannot unmarshal " + e.Value + " into Go value of type " + e.GoType
}

// InvalidUnmarshalError is encoding/json's InvalidUnmarshalError whose
// text names the Go type as GoType.
type InvalidUnmarshalError struct {
	Type   reflect.Type
	GoType string // Type as gc prints it
}

// Error returns encoding/json's text with GoType for Type.
func (e *InvalidUnmarshalError) Error() string {
	if e.Type == nil {
		return "json: Unmarshal(nil)"
	}
	if e.Type.Kind() != reflect.Pointer {
		return "json: Unmarshal(non-pointer " + e.GoType + ")"
	}
	return "json: Unmarshal(nil " + e.GoType + ")"
}

// UnsupportedTypeError is encoding/json's UnsupportedTypeError whose
// text names the type as GoType.
type UnsupportedTypeError struct {
	Type   reflect.Type
	GoType string // Type as gc prints it
}

// Error returns encoding/json's text with GoType for Type.
func (e *UnsupportedTypeError) Error() string {
	return "json: unsupported type: " + e.GoType
}

// MarshalerError is encoding/json's MarshalerError whose text names the
// type as GoType, and the method called as SourceFunc (sbir patch 89:
// encoding/json's has the method in an unexported field).
type MarshalerError struct {
	Type       reflect.Type
	Err        error
	SourceFunc string // "MarshalJSON" or "MarshalText"
	GoType     string // Type as gc prints it
}

// Error returns encoding/json's text with GoType for Type.
func (e *MarshalerError) Error() string {
	return "json: error calling " + e.SourceFunc + " for type " + e.GoType + ": " + e.Err.Error()
}

// Unwrap returns the error the method returned.
func (e *MarshalerError) Unwrap() error { return e.Err }

// As lets errors.As find an *encoding/json.MarshalerError in e: one with
// the same Type and Err (its text then names Type's reflect string).
func (e *MarshalerError) As(target any) bool {
	p, ok := target.(**json.MarshalerError)
	if !ok {
		return false
	}
	*p = &json.MarshalerError{Type: e.Type, Err: e.Err}
	return true
}

// As lets errors.As find an *encoding/json.UnmarshalTypeError in e, with
// the same fields (sbir patch 89).
func (e *UnmarshalTypeError) As(target any) bool {
	p, ok := target.(**json.UnmarshalTypeError)
	if !ok {
		return false
	}
	*p = &json.UnmarshalTypeError{Value: e.Value, Type: e.Type, Offset: e.Offset, Struct: e.Struct, Field: e.Field}
	return true
}

// As lets errors.As find an *encoding/json.InvalidUnmarshalError in e.
func (e *InvalidUnmarshalError) As(target any) bool {
	p, ok := target.(**json.InvalidUnmarshalError)
	if !ok {
		return false
	}
	*p = &json.InvalidUnmarshalError{Type: e.Type}
	return true
}

// As lets errors.As find an *encoding/json.UnsupportedTypeError in e.
func (e *UnsupportedTypeError) As(target any) bool {
	p, ok := target.(**json.UnsupportedTypeError)
	if !ok {
		return false
	}
	*p = &json.UnsupportedTypeError{Type: e.Type}
	return true
}
