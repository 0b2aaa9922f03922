package interp

// sbir patch 9b: an interpreted error keeps its Unwrap, Is and As methods.
//
// An interpreted value converted to error is wrapped in _error, which has
// only an Error method, so errors.Is, errors.As and errors.Unwrap (compiled
// code) did not see the value's Unwrap, Is or As methods. getWrapper picks,
// among the wrappers mapTypes lists for an interface wrapper, the first
// whose methods the value has, most complex first; these are the ones for
// _error.

import "reflect"

// errorWrappers are the composed wrappers of _error, most complex first.
var errorWrappers = []reflect.Type{
	reflect.TypeOf((*_errorUnwrapIsAs)(nil)).Elem(),
	reflect.TypeOf((*_errorUnwrapIs)(nil)).Elem(),
	reflect.TypeOf((*_errorUnwrapAs)(nil)).Elem(),
	reflect.TypeOf((*_errorIsAs)(nil)).Elem(),
	reflect.TypeOf((*_errorUnwrap)(nil)).Elem(),
	reflect.TypeOf((*_errorUnwrapAll)(nil)).Elem(),
	reflect.TypeOf((*_errorIs)(nil)).Elem(),
	reflect.TypeOf((*_errorAs)(nil)).Elem(),
}

type _errorUnwrapIsAs struct {
	IValue  interface{}
	WError  func() string
	WUnwrap func() error
	WIs     func(error) bool
	WAs     func(interface{}) bool
	IType   *itype // sbir patch 65
}

func (w _errorUnwrapIsAs) Error() string         { return w.WError() }
func (w _errorUnwrapIsAs) Unwrap() error         { return w.WUnwrap() }
func (w _errorUnwrapIsAs) Is(e error) bool       { return sameError(w.IType, w.IValue, e) || w.WIs(e) }
func (w _errorUnwrapIsAs) As(t interface{}) bool { return w.WAs(t) }

type _errorUnwrapIs struct {
	IValue  interface{}
	WError  func() string
	WUnwrap func() error
	WIs     func(error) bool
	IType   *itype // sbir patch 65
}

func (w _errorUnwrapIs) Error() string   { return w.WError() }
func (w _errorUnwrapIs) Unwrap() error   { return w.WUnwrap() }
func (w _errorUnwrapIs) Is(e error) bool { return sameError(w.IType, w.IValue, e) || w.WIs(e) }

type _errorUnwrapAs struct {
	IValue  interface{}
	WError  func() string
	WUnwrap func() error
	WAs     func(interface{}) bool
	IType   *itype // sbir patch 65
}

func (w _errorUnwrapAs) Error() string         { return w.WError() }
func (w _errorUnwrapAs) Unwrap() error         { return w.WUnwrap() }
func (w _errorUnwrapAs) As(t interface{}) bool { return w.WAs(t) }
func (w _errorUnwrapAs) Is(e error) bool       { return sameError(w.IType, w.IValue, e) }

type _errorIsAs struct {
	IValue interface{}
	WError func() string
	WIs    func(error) bool
	WAs    func(interface{}) bool
	IType  *itype // sbir patch 65
}

func (w _errorIsAs) Error() string         { return w.WError() }
func (w _errorIsAs) Is(e error) bool       { return sameError(w.IType, w.IValue, e) || w.WIs(e) }
func (w _errorIsAs) As(t interface{}) bool { return w.WAs(t) }

type _errorUnwrap struct {
	IValue  interface{}
	WError  func() string
	WUnwrap func() error
	IType   *itype // sbir patch 65
}

func (w _errorUnwrap) Error() string   { return w.WError() }
func (w _errorUnwrap) Unwrap() error   { return w.WUnwrap() }
func (w _errorUnwrap) Is(e error) bool { return sameError(w.IType, w.IValue, e) }

type _errorUnwrapAll struct {
	IValue  interface{}
	WError  func() string
	WUnwrap func() []error
	IType   *itype // sbir patch 65
}

func (w _errorUnwrapAll) Error() string   { return w.WError() }
func (w _errorUnwrapAll) Unwrap() []error { return w.WUnwrap() }
func (w _errorUnwrapAll) Is(e error) bool { return sameError(w.IType, w.IValue, e) }

type _errorIs struct {
	IValue interface{}
	WError func() string
	WIs    func(error) bool
	IType  *itype // sbir patch 65
}

func (w _errorIs) Error() string   { return w.WError() }
func (w _errorIs) Is(e error) bool { return sameError(w.IType, w.IValue, e) || w.WIs(e) }

type _errorAs struct {
	IValue interface{}
	WError func() string
	WAs    func(interface{}) bool
	IType  *itype // sbir patch 65
}

func (w _errorAs) Error() string         { return w.WError() }
func (w _errorAs) As(t interface{}) bool { return w.WAs(t) }
func (w _errorAs) Is(e error) bool       { return sameError(w.IType, w.IValue, e) }
