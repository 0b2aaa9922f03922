package interp

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/traefik/yaegi/interp/internal/gojson"
)

// sbir patch 89: encoding/json calls the MarshalJSON, UnmarshalJSON,
// MarshalText and UnmarshalText methods of interpreted types wherever
// gc's does. The reflect type yaegi builds for a value has none of its
// interpreted methods, and a defined non-struct type is its underlying
// type (a `type Level int` is an int), so encoding/json saw the methods
// only of the value passed itself (wrapped through MapTypes): a struct
// field, element or map value of such a type was encoded as its
// underlying value, and decoded as one.
//
// json.Marshal, MarshalIndent, Unmarshal, (*json.Encoder).Encode and
// (*json.Decoder).Decode now get, for an argument whose interpreted type
// has such a method at any depth, a jsonEncodeValue or *jsonDecodeValue:
// a json.Marshaler or json.Unmarshaler that encodes or decodes the value
// with interp/internal/gojson, Go's encoding/json that carries the
// interpreted type beside the reflect type at every step and calls the
// interpreted methods where gc's calls compiled ones. The real
// encoding/json around it keeps what it does at the top: syntax errors,
// HTML escaping, indenting, the Encoder's and Decoder's streams.

var (
	jsonMarshalFunc   = reflect.TypeOf(func() ([]byte, error) { return nil, nil })
	jsonUnmarshalFunc = reflect.TypeOf(func([]byte) error { return nil })
)

// jsonMethodTypes are the signatures of the methods encoding/json calls.
var jsonMethodTypes = map[string]reflect.Type{
	"MarshalJSON":   jsonMarshalFunc,
	"MarshalText":   jsonMarshalFunc,
	"UnmarshalJSON": jsonUnmarshalFunc,
	"UnmarshalText": jsonUnmarshalFunc,
}

// jsonCallArg returns, for a call of c0, the position of the argument that
// encoding/json encodes or decodes, and whether it decodes; -1 if c0 is
// none of json.Marshal, MarshalIndent, Unmarshal, (*json.Encoder).Encode
// and (*json.Decoder).Decode.
func jsonCallArg(interp *Interpreter, c0 *node) (int, bool) {
	lr, ok := interp.mapTypes[c0.rval]
	switch {
	case ok && len(lr) > 0 && lr[0] == jsonMarshalerType:
		return 0, false
	case ok && len(lr) > 0 && lr[0] == jsonUnmarshalerType:
		return 1, true
	case c0.kind != selectorExpr || len(c0.child) != 2:
		return -1, false
	}
	t := c0.child[0].typ
	if t == nil || t.cat != valueT {
		return -1, false
	}
	switch {
	case t.rtype == jsonEncoderType && c0.child[1].ident == "Encode":
		return 0, false
	case t.rtype == jsonDecoderType && c0.child[1].ident == "Decode":
		return 0, true
	}
	return -1, false
}

// needsInterpJSON reports whether a value of type t may hold a value of
// an interpreted type with a method encoding/json calls.
func needsInterpJSON(t *itype) bool {
	if t == nil {
		return false
	}
	if isInterfaceSrc(t) && !isEmptyInterface(t) {
		return true // a valueInterface: see Hooks.Holds
	}
	for b := t; b != nil; b = b.val {
		if b.cat != valueT && jsonMethodOf(b) != "" {
			return true
		}
		if b.cat != ptrT {
			break
		}
	}
	if _, nt := nestedCodecType(t, map[*itype]bool{}); nt != nil {
		return true
	}
	return holdsAny(t, map[*itype]bool{})
}

// holdsAny reports whether t has an empty interface in a field, element
// or map value (not at its top), which may hold a value of an interpreted
// type: encoding/json saw a valueInterface there, or a struct without its
// methods.
func holdsAny(t *itype, seen map[*itype]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	var parts []*itype
	switch u := underlying(t); u.cat {
	case structT:
		for _, f := range u.field {
			parts = append(parts, f.typ)
		}
	case sliceT, arrayT, ptrT, variadicT:
		parts = append(parts, u.val)
	case mapT:
		parts = append(parts, u.key, u.val)
	}
	for _, p := range parts {
		if p != nil && (isInterfaceSrc(p) || isEmptyInterface(p) || holdsAny(p, seen)) {
			return true
		}
	}
	return false
}

// jsonMethodOf returns the first method of t that encoding/json calls, or
// "".
func jsonMethodOf(t *itype) string {
	for _, m := range [...]string{"MarshalJSON", "UnmarshalJSON", "MarshalText", "UnmarshalText"} {
		if n, _ := t.lookupMethod(m); n != nil {
			return m
		}
	}
	return ""
}

// genJSONArg returns the argument c of a call of json.Marshal and the
// others (jsonCallArg) as the real encoding/json gets it: a
// jsonEncodeValue or *jsonDecodeValue. recv, for Decode, is the Decoder.
//
// An argument of type any is looked at when the call runs: when the value
// it holds has an interpreted type that the interpreter knows (a
// valueInterface, or a struct type of patch 83's srcTypes) and that has
// such methods, it is passed the same way; otherwise as before.
func genJSONArg(c *node, decode bool, recv func(*frame) reflect.Value) func(*frame) reflect.Value {
	value := genValue(c)
	t := c.typ
	interp := c.interp
	if !isInterface(t) {
		return func(f *frame) reflect.Value {
			return jsonArg(interp, f, value(f), t, decode, recv)
		}
	}
	fallback := value // what callBin passes otherwise
	if isEmptyInterface(t) {
		fallback = genBareAny(c) // sbir patch 204: a value of a type without methods, bare
	} else {
		fallback = genValueInterfaceValue(c)
	}
	return func(f *frame) reflect.Value {
		return jsonDynamicArg(interp, f, value(f), fallback, decode, recv)
	}
}

// jsonDynamicArg is jsonArg for v, a value of interface type: the value
// it holds, when its interpreted type is known and has methods
// encoding/json calls; fallback(f) otherwise.
func jsonDynamicArg(interp *Interpreter, f *frame, v reflect.Value, fallback func(*frame) reflect.Value, decode bool, recv func(*frame) reflect.Value) reflect.Value {
	e := v
	for e.IsValid() && e.Kind() == reflect.Interface && !e.IsNil() {
		e = e.Elem()
	}
	if !e.IsValid() || e.Kind() == reflect.Interface {
		return fallback(f)
	}
	call := &jsonCall{interp: interp, f: f}
	dv, dt := call.Dynamic(e)
	jt, ok := dt.(jsonType)
	if !ok || !needsInterpJSON(jt.t) {
		return fallback(f)
	}
	return jsonArg(interp, f, dv, jt.t, decode, recv)
}

// genJSONResult is genJSONArg for the result of an interpreted call,
// stored at index ind of the frame, of type t.
func genJSONResult(interp *Interpreter, ind int, t *itype, decode bool, recv func(*frame) reflect.Value) func(*frame) reflect.Value {
	if isInterface(t) {
		fallback := func(f *frame) reflect.Value { return valueInterfaceValue(f.data[ind]) }
		return func(f *frame) reflect.Value {
			return jsonDynamicArg(interp, f, f.data[ind], fallback, decode, recv)
		}
	}
	return func(f *frame) reflect.Value {
		return jsonArg(interp, f, valueInterfaceValue(f.data[ind]), t, decode, recv)
	}
}

// jsonArg returns v, of interpreted type t, as a jsonEncodeValue or a
// *jsonDecodeValue; v itself when it is not a non-nil pointer to decode
// into (encoding/json then returns its InvalidUnmarshalError).
func jsonArg(interp *Interpreter, f *frame, v reflect.Value, t *itype, decode bool, recv func(*frame) reflect.Value) reflect.Value {
	call := &jsonCall{interp: interp, f: f}
	if !decode {
		if v.Kind() != reflect.Pointer && v.CanAddr() {
			// A copy, as the conversion to any makes it: a value
			// passed to Marshal is not addressable.
			c := reflect.New(v.Type()).Elem()
			c.Set(v)
			v = reflect.ValueOf(c.Interface())
		}
		return reflect.ValueOf(jsonEncodeValue{v: v, t: t, call: call})
	}
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return v
	}
	d := &jsonDecodeValue{v: v, t: t, call: call}
	if recv != nil {
		if dec, ok := recv(f).Interface().(*json.Decoder); ok {
			d.dec = dec
		}
	}
	return reflect.ValueOf(d)
}

// jsonEncodeValue is a value of an interpreted type given to
// encoding/json to encode.
type jsonEncodeValue struct {
	v    reflect.Value
	t    *itype
	call *jsonCall
}

// MarshalJSON implements json.Marshaler.
func (j jsonEncodeValue) MarshalJSON() ([]byte, error) {
	return gojson.Marshal(j.v, j.call.typeOf(j.t), j.call)
}

// jsonDecodeValue is a pointer of an interpreted type given to
// encoding/json to decode into.
type jsonDecodeValue struct {
	v     reflect.Value
	t     *itype
	call  *jsonCall
	dec   *json.Decoder // for Decode: its options
	whole []byte        // for Unmarshal: its data
}

// UnmarshalJSON implements json.Unmarshaler.
func (j *jsonDecodeValue) UnmarshalJSON(data []byte) error {
	opts, whole := decoderState(j.dec)
	if j.dec == nil {
		whole = j.whole
	}
	err := gojson.Unmarshal(data, j.v, j.call.typeOf(j.t), j.call, opts)
	var ute *json.UnmarshalTypeError
	if errors.As(err, &ute) && whole != nil && cap(whole) >= cap(data) {
		// Offsets from the start of what encoding/json decodes, not of
		// the value given here.
		ute.Offset += int64(cap(whole) - cap(data))
	}
	return err
}

// decoderState returns the options of dec and the bytes it decodes from
// now (encoding/json keeps both unexported; read, never written).
func decoderState(dec *json.Decoder) (gojson.DecodeOptions, []byte) {
	if dec == nil {
		return gojson.DecodeOptions{}, nil
	}
	d := reflect.ValueOf(dec).Elem().FieldByName("d")
	if d.Kind() != reflect.Struct {
		return gojson.DecodeOptions{}, nil
	}
	field := func(name string, k reflect.Kind) reflect.Value {
		if f := d.FieldByName(name); f.Kind() == k {
			return f
		}
		return reflect.ValueOf(false) // not this Go's Decoder: off, and no data
	}
	opts := gojson.DecodeOptions{
		UseNumber:             field("useNumber", reflect.Bool).Bool(),
		DisallowUnknownFields: field("disallowUnknownFields", reflect.Bool).Bool(),
	}
	var data []byte
	if f := field("data", reflect.Slice); f.Kind() == reflect.Slice {
		data = f.Bytes()
	}
	return opts, data
}

// jsonUnwrapped wraps call, a call of json.Marshal or the others
// (jsonCallArg), so that an error a jsonEncodeValue or jsonDecodeValue
// returned is the error the call returns, not encoding/json's
// MarshalerError around it; and Unmarshal's offsets count from the start
// of its data.
func jsonUnwrapped(unmarshal bool, call func(reflect.Value, []reflect.Value) []reflect.Value) func(reflect.Value, []reflect.Value) []reflect.Value {
	return func(v reflect.Value, in []reflect.Value) []reflect.Value {
		if unmarshal && len(in) == 2 {
			if d, ok := in[1].Interface().(*jsonDecodeValue); ok {
				d.whole, _ = in[0].Interface().([]byte)
			}
		}
		out := call(v, in)
		if len(out) == 0 {
			return out
		}
		last := out[len(out)-1]
		if last.Kind() != reflect.Interface || last.IsNil() {
			return out
		}
		me, ok := last.Interface().(*json.MarshalerError)
		if !ok || me.Type != jsonEncodeValueType {
			return out
		}
		e := reflect.New(last.Type()).Elem()
		e.Set(reflect.ValueOf(me.Err))
		out[len(out)-1] = e
		return out
	}
}

var jsonEncodeValueType = reflect.TypeOf(jsonEncodeValue{})

// jsonCall is the interpreter's side (gojson.Hooks) of one call of
// encoding/json: the frame the interpreted methods run from, and the
// encoders built for it. Nothing is kept across calls, so that a method
// declared by a later evaluation is seen by the next call.
type jsonCall struct {
	interp *Interpreter
	f      *frame
	cache  sync.Map
}

// Holds implements gojson.Hooks: a value of an interpreted non-empty
// interface type is a valueInterface.
func (c *jsonCall) Holds(t reflect.Type) bool { return t == valueInterfaceType }

// Cache implements gojson.Hooks.
func (c *jsonCall) Cache() *sync.Map { return &c.cache }

// Dynamic implements gojson.Hooks: the value an interface holds, with its
// interpreted type when the interpreter knows it (a valueInterface, or a
// struct type patch 83's srcTypes knows).
//
// It panics with an *Unsupported when the value is a struct whose reflect
// type several declared types share, and encoding/json would call the
// methods of one and not of another: a panic, unlike an error, cannot be
// ignored into a different output (as patch 76's).
func (c *jsonCall) Dynamic(v reflect.Value) (reflect.Value, gojson.Type) {
	for v.IsValid() && v.Type() == valueInterfaceType {
		vi := v.Interface().(valueInterface)
		if vi.node != nil && vi.node.typ != nil && !isInterface(vi.node.typ) {
			return vi.value, c.typeOf(vi.node.typ)
		}
		v = vi.value
		for v.IsValid() && v.Kind() == reflect.Interface && !v.IsNil() {
			v = v.Elem()
		}
	}
	if !v.IsValid() {
		return v, nil
	}
	if t := c.interp.srcTypes.of(v.Type(), 0); t != nil {
		return v, c.typeOf(t)
	}
	t, err := c.sharedStruct(v.Type())
	if err != nil {
		panic(err)
	}
	return v, c.typeOf(t)
}

// sharedStruct returns, for a reflect type that srcTypes does not know
// because several declared struct types have it (or a pointer, slice,
// array or map of such a struct), the interpreted type when they all
// encode alike (each field of the same type), and otherwise an error if
// one of them has methods encoding/json calls: the interpreter cannot
// tell which one the value is, and the answer would depend on it.
func (c *jsonCall) sharedStruct(rt reflect.Type) (*itype, error) {
	st := rt
	for st.Kind() == reflect.Pointer || st.Kind() == reflect.Slice || st.Kind() == reflect.Array || st.Kind() == reflect.Map {
		st = st.Elem()
	}
	if st.Kind() != reflect.Struct {
		return nil, nil
	}
	cands := c.interp.srcTypes.declared(st)
	if len(cands) < 2 {
		return nil, nil
	}
	same := true
	for _, o := range cands[1:] {
		same = same && sameFieldTypes(cands[0], o)
	}
	if same {
		return shapedLike(rt, st, cands[0]), nil
	}
	var names []string
	withMethods := false
	for _, o := range cands {
		names = append(names, typeString(o))
		withMethods = withMethods || needsInterpJSON(o)
	}
	if !withMethods {
		return nil, nil
	}
	return nil, &Unsupported{Msg: "encoding/json: a value held in an interface has one of the types " + strings.Join(names, ", ") +
		", which this interpreter cannot tell apart there (they have the same fields), and encoding/json would call the MarshalJSON, UnmarshalJSON, MarshalText or UnmarshalText method of one and not of another:" +
		" pass the value to encoding/json with its own type rather than as an interface (any), or give the types different fields"}
}

// shapedLike returns the interpreted type of reflect type rt, made of
// pointers, slices, arrays and maps (with compiled keys) of st, whose
// interpreted type is base; new types, not ptrOf's and sliceOf's, which
// would change base while the script runs. Nil for other shapes.
func shapedLike(rt, st reflect.Type, base *itype) *itype {
	if rt == st {
		return base
	}
	e := shapedLike(rt.Elem(), st, base)
	if e == nil {
		return nil
	}
	switch rt.Kind() {
	case reflect.Pointer:
		return &itype{cat: ptrT, val: e, str: "*" + e.str}
	case reflect.Slice:
		return &itype{cat: sliceT, val: e, str: "[]" + e.str}
	case reflect.Array:
		return &itype{cat: arrayT, val: e, length: rt.Len(), str: fmt.Sprintf("[%d]%s", rt.Len(), e.str)}
	case reflect.Map:
		return &itype{cat: mapT, key: valueTOf(rt.Key()), val: e, str: "map[" + rt.Key().String() + "]" + e.str}
	}
	return nil
}

// sameFieldTypes reports whether the struct types a and b have fields of
// the same types.
func sameFieldTypes(a, b *itype) bool {
	ua, ub := underlying(a), underlying(b)
	if ua.cat != structT || ub.cat != structT || len(ua.field) != len(ub.field) {
		return false
	}
	for i := range ua.field {
		fa, fb := ua.field[i].typ, ub.field[i].typ
		if fa != fb && typeString(fa) != typeString(fb) {
			return false
		}
	}
	return true
}

// typeOf returns t as a gojson.Type: nil for compiled types and
// interfaces (whose dynamic values Dynamic looks up).
func (c *jsonCall) typeOf(t *itype) gojson.Type {
	if t == nil || t.cat == valueT || t.cat == nilT || isInterface(t) {
		return nil
	}
	return jsonType{t: t, c: c}
}

// jsonType is an interpreted type as gojson sees it.
type jsonType struct {
	t *itype
	c *jsonCall
}

// Method implements gojson.Type.
func (j jsonType) Method(name string) (gojson.Method, bool, bool) {
	t, ptr := j.t, false
	if t.cat == ptrT {
		t, ptr = t.val, true
		if t == nil || t.cat == ptrT {
			return nil, false, false
		}
	}
	m, index := t.lookupMethod(name)
	if m == nil || m.typ == nil || m.typ.TypeOf() != jsonMethodTypes[name] {
		return nil, false, false
	}
	ptrOnly := !ptr && isPtrRecv(m) && !embedsPointer(t, index)
	return j.c.method(m, index), ptrOnly, true
}

// embedsPointer reports whether the path of embedded fields index from t
// goes through a pointer (the promoted method is then in t's method set
// whatever its receiver).
func embedsPointer(t *itype, index []int) bool {
	for _, i := range index {
		u := underlying(t)
		if u == nil || u.cat != structT || i >= len(u.field) {
			return false
		}
		t = u.field[i].typ
		if t.cat == ptrT {
			return true
		}
	}
	return false
}

// method returns the interpreted method m (reached through the embedded
// fields index) as gojson calls it.
func (c *jsonCall) method(m *node, index []int) gojson.Method {
	return func(recv reflect.Value, arg []byte) ([]byte, error) {
		nod := *m
		nod.recv = &receiver{nil, recv, index}
		fn := genFunctionWrapper(&nod)(c.f)
		var out []reflect.Value
		if jsonMethodTypes[m.ident] == jsonUnmarshalFunc || len(m.typ.arg) == 1 {
			out = fn.Call([]reflect.Value{reflect.ValueOf(arg)})
		} else {
			out = fn.Call(nil)
		}
		var b []byte
		if len(out) == 2 {
			b, _ = valueInterfaceValue(out[0]).Interface().([]byte)
		}
		e := valueInterfaceValue(out[len(out)-1])
		if !e.IsValid() || (e.Kind() == reflect.Interface || e.Kind() == reflect.Pointer) && e.IsNil() {
			return b, nil
		}
		err, _ := e.Interface().(error)
		return b, err
	}
}

// Field implements gojson.Type.
func (j jsonType) Field(i int) gojson.Type {
	u := underlying(j.t)
	if u == nil || u.cat != structT || i >= len(u.field) {
		return nil
	}
	return j.c.typeOf(u.field[i].typ)
}

// Elem implements gojson.Type.
func (j jsonType) Elem() gojson.Type {
	u := underlying(j.t)
	if u == nil {
		return nil
	}
	switch u.cat {
	case ptrT, sliceT, arrayT, mapT, chanT, variadicT:
		return j.c.typeOf(u.val)
	}
	return nil
}

// Key implements gojson.Type.
func (j jsonType) Key() gojson.Type {
	u := underlying(j.t)
	if u == nil || u.cat != mapT {
		return nil
	}
	return j.c.typeOf(u.key)
}

// Named implements gojson.Type.
func (j jsonType) Named() bool { return j.t.name != "" && j.t.cat != ptrT }

// String implements gojson.Type.
func (j jsonType) String() string { return typeString(j.t) }
