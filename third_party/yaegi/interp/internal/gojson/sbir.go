//go:build go1.26

// Package gojson is Go 1.26's encoding/json (the v1 files: encode.go,
// decode.go, scanner.go, indent.go, tags.go, fold.go, tables.go; BSD
// licence in LICENSE) patched so that the values it walks may have
// interpreted types, whose methods reflection cannot see (sbir patch 89).
//
// yaegi represents a value of an interpreted type by a reflect value of a
// type without its methods, and often without its identity: a `type
// Level int` is an int, a struct type is an unnamed reflect.StructOf type
// shared by every struct type with the same fields. So encoding/json
// called MarshalJSON and UnmarshalJSON of an interpreted type only for
// the value passed itself (wrapped by the interpreter), never for a field,
// element or map value. Here every encoder and decoder step carries,
// beside the reflect type, the interpreted type (a Type, nil for compiled
// types), and asks it for the methods gc's encoding/json would find with
// Implements and TypeAssert. The interpreter calls these functions from
// inside a value it passes to the real encoding/json (a Marshaler or
// Unmarshaler wrapper), so syntax errors, Encoder and Decoder, indenting
// and HTML escaping stay the standard library's.
//
// The differences from the standard library are marked "sbir patch 89".
// The package has no mutable package-level state beyond the standard
// library's own caches (encoderCache, fieldCache, keyed by compiled
// reflect types); encoders for interpreted types are cached in the
// Hooks' Cache, which the interpreter owns.
package gojson

import (
	"encoding"
	"reflect"
	"sync"
)

// Method is an interpreted method as the encoder calls it: recv is the
// value (or, for a method only the pointer type has, its address), arg
// the JSON or text of an Unmarshal method; an Unmarshal method returns nil
// bytes.
type Method func(recv reflect.Value, arg []byte) ([]byte, error)

// Type is the interpreted type of a value, beyond its reflect type.
type Type interface {
	// Method returns the method of the type with the given name
	// (MarshalJSON, MarshalText, UnmarshalJSON, UnmarshalText), and
	// whether only the pointer type has it (a pointer receiver). For a
	// pointer type, the methods are those of the pointer type.
	Method(name string) (m Method, ptrOnly bool, ok bool)
	// Field returns the type of the struct field with reflect index i.
	Field(i int) Type
	// Elem returns the element type of a pointer, slice, array or map.
	Elem() Type
	// Key returns the key type of a map.
	Key() Type
	// Named reports whether the type is a defined type: gc's reflect
	// type has a name.
	Named() bool
	// String returns the type as gc's reflect prints it (main.Level).
	String() string
}

// Hooks is the interpreter's side of one call.
type Hooks interface {
	// Dynamic returns the value an interface holds, given v (the
	// interface value's Elem), as the encoder should see it, and its
	// interpreted type (nil: a compiled type). It may panic when it
	// cannot answer as gc would; the panic goes through to the caller.
	Dynamic(v reflect.Value) (reflect.Value, Type)
	// Cache returns the map, safe for concurrent use, in which encoders
	// of interpreted types are kept.
	Cache() *sync.Map
	// Holds reports whether values of t are the interpreter's
	// representation of a value of an interface type (a struct, not an
	// interface, for reflect), whose dynamic value Dynamic returns.
	Holds(t reflect.Type) bool
}

// Marshal returns the JSON encoding of v, whose interpreted type is it,
// compact and without HTML escaping (the caller's encoding/json compacts
// and escapes it as the call asked).
func Marshal(v reflect.Value, it Type, h Hooks) ([]byte, error) {
	return marshal(v, it, h)
}

// typeKey identifies an encoder of an interpreted type.
type typeKey struct {
	rt reflect.Type
	it Type
}

// typeEncoderOf returns the encoder of values of reflect type t and
// interpreted type it, cached as typeEncoder caches them.
func typeEncoderOf(t reflect.Type, it Type, h Hooks) encoderFunc {
	if h != nil && h.Holds(t) {
		return holderEncoder
	}
	if it == nil || h == nil {
		return typeEncoder(t)
	}
	cache, key := h.Cache(), typeKey{t, it}
	if fi, ok := cache.Load(key); ok {
		return fi.(encoderFunc)
	}
	indirect := sync.OnceValue(func() encoderFunc {
		return newInterpTypeEncoder(t, it, h, true)
	})
	fi, loaded := cache.LoadOrStore(key, encoderFunc(func(e *encodeState, v reflect.Value, opts encOpts) {
		indirect()(e, v, opts)
	}))
	if loaded {
		return fi.(encoderFunc)
	}
	f := indirect()
	cache.Store(key, f)
	return f
}

// holderEncoder encodes the value an interface value of the interpreter
// holds, as interfaceEncoder does.
func holderEncoder(e *encodeState, v reflect.Value, opts encOpts) {
	dv, it := e.hooks.Dynamic(v)
	for dv.IsValid() && dv.Kind() == reflect.Interface && !dv.IsNil() {
		dv = dv.Elem()
	}
	if !dv.IsValid() || dv.Kind() == reflect.Interface || e.hooks.Holds(dv.Type()) {
		e.WriteString("null")
		return
	}
	e.typedValue(dv, it, opts)
}

// interpMarshaler encodes with an interpreted MarshalJSON or MarshalText,
// as marshalerEncoder, addrMarshalerEncoder, textMarshalerEncoder and
// addrTextMarshalerEncoder do with compiled ones.
type interpMarshaler struct {
	call   Method
	name   string // MarshalJSON or MarshalText
	goType string // the type the error names
}

func (m interpMarshaler) encode(e *encodeState, v reflect.Value, opts encOpts) {
	if v.Kind() == reflect.Pointer && v.IsNil() {
		e.WriteString("null")
		return
	}
	m.write(e, v, v.Type(), opts)
}

func (m interpMarshaler) addrEncode(e *encodeState, v reflect.Value, opts encOpts) {
	va := v.Addr()
	if va.IsNil() {
		e.WriteString("null")
		return
	}
	m.write(e, va, v.Type(), opts)
}

func (m interpMarshaler) write(e *encodeState, recv reflect.Value, t reflect.Type, opts encOpts) {
	b, err := m.call(recv, nil)
	if m.name == "MarshalText" {
		if err != nil {
			e.error(&MarshalerError{Type: t, Err: err, SourceFunc: m.name, GoType: m.goType})
		}
		e.Write(appendString(e.AvailableBuffer(), b, opts.escapeHTML))
		return
	}
	if err == nil {
		e.Grow(len(b))
		out := e.AvailableBuffer()
		out, err = appendCompact(out, b, opts.escapeHTML)
		e.Buffer.Write(out)
	}
	if err != nil {
		e.error(&MarshalerError{Type: t, Err: err, SourceFunc: m.name, GoType: m.goType})
	}
}

// newInterpTypeEncoder is newTypeEncoder for a value of interpreted type
// it: the interpreted methods first, in the order newTypeEncoder checks
// compiled ones, then the compiled methods of t, then t's kind with the
// interpreted types of its parts.
func newInterpTypeEncoder(t reflect.Type, it Type, h Hooks, allowAddr bool) encoderFunc {
	for _, name := range [...]string{"MarshalJSON", "MarshalText"} {
		call, ptrOnly, ok := it.Method(name)
		if !ok {
			continue
		}
		m := interpMarshaler{call: call, name: name, goType: it.String()}
		if t.Kind() != reflect.Pointer && allowAddr {
			return newCondAddrEncoder(m.addrEncode, newInterpTypeEncoder(t, it, h, false))
		}
		if !ptrOnly || t.Kind() == reflect.Pointer {
			return m.encode
		}
	}
	if t.Implements(marshalerType) || t.Implements(textMarshalerType) ||
		t.Kind() != reflect.Pointer && (reflect.PointerTo(t).Implements(marshalerType) || reflect.PointerTo(t).Implements(textMarshalerType)) {
		return newTypeEncoder(t, allowAddr)
	}
	switch t.Kind() {
	case reflect.Struct:
		fields := cachedTypeFields(t)
		list := make([]field, len(fields.list))
		for i, f := range fields.list {
			f.encoder = typeEncoderOf(typeByIndex(t, f.index), interpTypeByIndex(t, it, f.index), h)
			list[i] = f
		}
		return structEncoder{fields: structFields{list: list}}.encode
	case reflect.Map:
		return newInterpMapEncoder(t, it, h)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && !hasAnyMethod(it.Elem(), "MarshalJSON", "MarshalText") {
			p := reflect.PointerTo(t.Elem())
			if !p.Implements(marshalerType) && !p.Implements(textMarshalerType) {
				return encodeByteSlice
			}
		}
		return sliceEncoder{arrayEncoder{typeEncoderOf(t.Elem(), it.Elem(), h)}.encode}.encode
	case reflect.Array:
		return arrayEncoder{typeEncoderOf(t.Elem(), it.Elem(), h)}.encode
	case reflect.Pointer:
		return ptrEncoder{typeEncoderOf(t.Elem(), it.Elem(), h)}.encode
	}
	return newTypeEncoder(t, allowAddr)
}

// hasAnyMethod reports whether the interpreted type it (or its pointer
// type) has one of the methods.
func hasAnyMethod(it Type, names ...string) bool {
	if it == nil {
		return false
	}
	for _, n := range names {
		if _, _, ok := it.Method(n); ok {
			return true
		}
	}
	return false
}

// interpTypeByIndex is typeByIndex for the interpreted type it of t.
func interpTypeByIndex(t reflect.Type, it Type, index []int) Type {
	for _, i := range index {
		if it == nil {
			return nil
		}
		if t.Kind() == reflect.Pointer {
			t, it = t.Elem(), it.Elem()
		}
		if it == nil {
			return nil
		}
		t, it = t.Field(i).Type, it.Field(i)
	}
	return it
}

// newInterpMapEncoder is newMapEncoder for a map of interpreted type it:
// a key type with an interpreted MarshalText (on the value) is encoded
// by it, as resolveKeyName does with a compiled one.
func newInterpMapEncoder(t reflect.Type, it Type, h Hooks) encoderFunc {
	kt := it.Key()
	var text Method
	if kt != nil {
		if m, ptrOnly, ok := kt.Method("MarshalText"); ok && (!ptrOnly || t.Key().Kind() == reflect.Pointer) {
			text = m
		}
	}
	switch t.Key().Kind() {
	case reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
	default:
		if text == nil && !t.Key().Implements(textMarshalerType) {
			return unsupportedTypeEncoder
		}
	}
	me := mapEncoder{elemEnc: typeEncoderOf(t.Elem(), it.Elem(), h)}
	if text != nil {
		me.keyName = func(k reflect.Value) (string, error) {
			if k.Kind() == reflect.String {
				return k.String(), nil
			}
			if k.Kind() == reflect.Pointer && k.IsNil() {
				return "", nil
			}
			buf, err := text(k, nil)
			return string(buf), err
		}
	}
	return me.encode
}

// DecodeOptions are the options of a json.Decoder that decoding uses.
type DecodeOptions struct {
	UseNumber             bool
	DisallowUnknownFields bool
}

// Unmarshal decodes data, a JSON value that encoding/json has checked
// already, into the value v points to; it is v's interpreted type.
func Unmarshal(data []byte, v reflect.Value, it Type, h Hooks, opts DecodeOptions) error {
	var d decodeState
	if err := checkValid(data, &d.scan); err != nil {
		return err
	}
	d.init(data)
	d.useNumber, d.disallowUnknownFields = opts.UseNumber, opts.DisallowUnknownFields
	d.hooks = h
	return d.unmarshal(v, it)
}

// dynamic returns what the interface value's Elem e holds, with its
// interpreted type.
func (d *decodeState) dynamic(e reflect.Value) (reflect.Value, Type) {
	if d.hooks == nil {
		return e, nil
	}
	return d.hooks.Dynamic(e)
}

// elemOf, keyOf and fieldOf are it.Elem(), it.Key() and it.Field(i), nil
// for a nil it.
func elemOf(it Type) Type {
	if it == nil {
		return nil
	}
	return it.Elem()
}

func keyOf(it Type) Type {
	if it == nil {
		return nil
	}
	return it.Key()
}

func fieldOf(it Type, i int) Type {
	if it == nil {
		return nil
	}
	return it.Field(i)
}

// ptrTo returns the pointer type of it, or nil.
func ptrTo(it Type) Type {
	if it == nil {
		return nil
	}
	return ptrType{it}
}

// ptrType is the pointer type of an interpreted type: its methods are all
// the methods of elem.
type ptrType struct{ elem Type }

func (p ptrType) Method(name string) (Method, bool, bool) {
	m, _, ok := p.elem.Method(name)
	if !ok {
		return nil, false, false
	}
	return func(recv reflect.Value, arg []byte) ([]byte, error) { return m(recv, arg) }, false, true
}

func (p ptrType) Field(int) Type { return nil }
func (p ptrType) Elem() Type     { return p.elem }
func (p ptrType) Key() Type      { return nil }
func (p ptrType) Named() bool    { return false }
func (p ptrType) String() string { return "*" + p.elem.String() }

// interpUnmarshaler returns the interpreted UnmarshalJSON (or, unless
// decoding null, UnmarshalText) of the pointer v, whose element has the
// interpreted type elem, bound to v, as indirect finds compiled ones.
func interpUnmarshaler(v reflect.Value, elem Type, decodingNull bool) (Unmarshaler, encoding.TextUnmarshaler) {
	if elem == nil || v.Type().Elem().Kind() == reflect.Pointer {
		return nil, nil
	}
	if m, _, ok := elem.Method("UnmarshalJSON"); ok {
		return boundUnmarshaler{m, v}, nil
	}
	if !decodingNull {
		if m, _, ok := elem.Method("UnmarshalText"); ok {
			return nil, textUnmarshaler{m, v}
		}
	}
	return nil, nil
}

// boundUnmarshaler is an interpreted UnmarshalJSON bound to its receiver.
type boundUnmarshaler struct {
	m    Method
	recv reflect.Value
}

func (b boundUnmarshaler) UnmarshalJSON(data []byte) error {
	_, err := b.m(b.recv, data)
	return err
}

// textUnmarshaler is an interpreted UnmarshalText bound to its receiver.
type textUnmarshaler struct {
	m    Method
	recv reflect.Value
}

func (b textUnmarshaler) UnmarshalText(data []byte) error {
	_, err := b.m(b.recv, data)
	return err
}
