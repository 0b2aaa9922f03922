package interp

import (
	"encoding/json"
	"reflect"
	"strings"

	ijson "github.com/traefik/yaegi/interp/internal/json"
)

// sbir patch 75: encoding/json names types in its decoding errors from
// reflect (the struct containing a field by Type.Name(), the Go type by
// Type.String()), and an interpreted struct's reflect type has no name:
// json.Unmarshal([]byte(`{"id":5}`), &o) failed with "json: cannot
// unmarshal number into Go struct field .id of type string" where gc says
// "Go struct field Order.id", and "into Go value of type struct { ID
// string ... }" where gc says "main.Order". The error a decoding function
// returns is reworded from the interpreted type of its destination: the
// static type of the argument, or, for an interface argument, the one
// defined type of the main package whose reflect type is the value's.

var (
	jsonUnmarshalerType = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()
	jsonDecoderType     = reflect.TypeOf((*json.Decoder)(nil))
)

// isJSONDecodeFunc reports whether the function called, c0, decodes JSON
// into its last argument: one the host marked with json.Unmarshaler
// first in its MapTypes (json.Unmarshal), or the Decode method of a
// *json.Decoder.
func isJSONDecodeFunc(interp *Interpreter, c0 *node) bool {
	if lr, ok := interp.mapTypes[c0.rval]; ok && len(lr) > 0 && lr[0] == jsonUnmarshalerType {
		return true
	}
	if c0.kind != selectorExpr || len(c0.child) != 2 || c0.child[1].ident != "Decode" {
		return false
	}
	t := c0.child[0].typ
	return t != nil && t.cat == valueT && t.rtype == jsonDecoderType
}

// jsonDecodeCall wraps call, which decodes into its last argument, whose
// static type is dst, so that the error it returns names dst's types as
// gc does.
func (interp *Interpreter) jsonDecodeCall(dst *itype, call func(reflect.Value, []reflect.Value) []reflect.Value) func(reflect.Value, []reflect.Value) []reflect.Value {
	return func(v reflect.Value, in []reflect.Value) []reflect.Value {
		out := call(v, in)
		if len(out) == 0 || len(in) == 0 {
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
		t := dst
		if t == nil || isInterface(t) {
			t = interp.mainTypeOf(in[len(in)-1])
		}
		if t == nil {
			return out
		}
		if fixed := jsonDecodeError(err, t); fixed != err {
			e := reflect.New(last.Type()).Elem()
			e.Set(reflect.ValueOf(fixed))
			out[len(out)-1] = e
		}
		return out
	}
}

// mainTypeOf returns the interpreted type of the value v holds when it
// is (or points to) a named struct type that the interpreter declared and
// that no other declared type shares its reflect type with (patch 83's
// srcTypes, or else the main package's types), or nil.
func (interp *Interpreter) mainTypeOf(v reflect.Value) *itype {
	for v.IsValid() && v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	if !v.IsValid() {
		return nil
	}
	rt := v.Type()
	ptr := rt.Kind() == reflect.Pointer
	if ptr {
		rt = rt.Elem()
	}
	if rt.Kind() != reflect.Struct || rt.Name() != "" {
		return nil
	}
	found := interp.srcTypes.of(rt, 0)
	if found == nil {
		found = interp.mainScopeType(rt)
	}
	if found != nil && ptr {
		// A pointer type of its own, not ptrOf's: that would change found
		// while the script runs.
		return &itype{cat: ptrT, val: found, str: "*" + found.str}
	}
	return found
}

// mainScopeType returns the one defined type of the main package whose
// reflect type is rt, or nil.
func (interp *Interpreter) mainScopeType(rt reflect.Type) *itype {
	sc := interp.scopes[mainID]
	if sc == nil {
		return nil
	}
	var found *itype
	for _, sym := range sc.sym {
		if sym.kind != typeSym || sym.typ == nil || sym.typ.name == "" || sym.typ.cat == valueT {
			continue
		}
		if knownRType(sym.typ) != rt {
			continue
		}
		if found != nil && found != sym.typ {
			return nil // two types with one reflect type: which one is unknown
		}
		found = sym.typ
	}
	return found
}

// jsonDecodeError returns err reworded with the names of dst, the
// interpreted type of the destination, or err itself when it names no
// type of the script.
func jsonDecodeError(err error, dst *itype) error {
	switch e := err.(type) {
	case *json.UnmarshalTypeError:
		return unmarshalTypeError(e, dst)
	case *json.InvalidUnmarshalError:
		if e.Type == nil || e.Type != knownRType(dst) {
			return err
		}
		if s := typeString(dst); s != e.Type.String() {
			return &ijson.InvalidUnmarshalError{Type: e.Type, GoType: s}
		}
	}
	return err
}

// unmarshalTypeError rewords e: the struct and field from the path of
// interpreted types that its Field names, the type from the interpreted
// type whose reflect type is e.Type.
func unmarshalTypeError(e *json.UnmarshalTypeError, dst *itype) error {
	at := dst // the type at the end of the path: e.Type is it or an element of it
	if e.Struct != "" || e.Field != "" {
		st, field, ft, ok := jsonFieldPath(elemStruct(dst), e.Field)
		if !ok {
			return e
		}
		e.Struct, e.Field, at = st.name, field, ft
		if st.cat == valueT && st.rtype != nil {
			e.Struct = st.rtype.Name()
		}
	}
	goType := e.Type.String()
	if t := elemOfType(at, e.Type, 0); t != nil {
		goType = typeString(t)
	}
	if goType == e.Type.String() {
		return e
	}
	return &ijson.UnmarshalTypeError{Value: e.Value, Type: e.Type, Offset: e.Offset, Struct: e.Struct, Field: e.Field, GoType: goType}
}

// underlying returns t without the names that only link it to another
// type.
func underlying(t *itype) *itype {
	for t != nil && t.cat == linkedT && t.val != nil {
		t = t.val
	}
	return t
}

// elemStruct returns the first struct type found from t through
// pointers, slices, arrays and map values (as encoding/json descends), or
// nil.
func elemStruct(t *itype) *itype {
	for i := 0; t != nil && i < 64; i++ {
		u := underlying(t)
		switch u.cat {
		case structT:
			return t
		case valueT:
			if u.rtype != nil && u.rtype.Kind() == reflect.Struct {
				return t
			}
			return nil
		case ptrT, sliceT, arrayT, mapT:
			t = u.val
		default:
			return nil
		}
	}
	return nil
}

// elemOfType returns t, or the element (through pointers, slices,
// arrays, map keys and values) of t, whose reflect type is rt, or nil.
func elemOfType(t *itype, rt reflect.Type, depth int) *itype {
	if t == nil || depth > 16 {
		return nil
	}
	if knownRType(t) == rt {
		return t
	}
	u := underlying(t)
	switch u.cat {
	case mapT:
		if k := elemOfType(u.key, rt, depth+1); k != nil {
			return k
		}
		return elemOfType(u.val, rt, depth+1)
	case ptrT, sliceT, arrayT:
		return elemOfType(u.val, rt, depth+1)
	}
	return nil
}

// jsonFieldPath follows path, encoding/json's Field of an error (JSON
// names of fields, with the Go names of embedded structs between them,
// joined by dots), from the struct type st. It returns the struct type
// containing the last field, the path with the source's names, and the
// last field's type.
func jsonFieldPath(st *itype, path string) (*itype, string, *itype, bool) {
	if st == nil {
		return nil, "", nil, false
	}
	for _, c := range jsonFields(st, nil, 0) {
		rest, ok := strings.CutPrefix(path, c.match)
		if !ok {
			continue
		}
		if rest == "" {
			return st, c.name, c.typ, true
		}
		rest, ok = strings.CutPrefix(rest, ".")
		if !ok {
			continue
		}
		if s, name, ft, ok := jsonFieldPath(elemStruct(c.typ), rest); ok {
			return s, c.name + "." + name, ft, true
		}
	}
	return nil, "", nil, false
}

// jsonField is a field encoding/json decodes into, promoted ones
// included.
type jsonField struct {
	match string // its path in encoding/json's Field: reflect names of embedded structs, then its JSON name
	name  string // the same with the source's names
	typ   *itype
}

// jsonFields lists the fields of struct type st as encoding/json finds
// them, each with the embedded structs it is promoted through (hops).
func jsonFields(st *itype, hops []jsonField, depth int) []jsonField {
	u := underlying(st)
	if u != nil && u.cat == ptrT {
		u = underlying(u.val)
	}
	rt := knownRType(st)
	for rt != nil && rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	if u == nil || u.cat != structT || rt == nil || rt.Kind() != reflect.Struct || rt.NumField() != len(u.field) || depth > 8 {
		return nil
	}
	var out []jsonField
	for i, f := range u.field {
		rf := rt.Field(i)
		tag := rf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		jname, _, _ := strings.Cut(tag, ",")
		ft := rf.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if rf.Anonymous && jname == "" && ft.Kind() == reflect.Struct {
			hop := append(hops[:len(hops):len(hops)], jsonField{match: rf.Name, name: f.name})
			out = append(out, jsonFields(f.typ, hop, depth+1)...)
			continue
		}
		if !rf.IsExported() && !rf.Anonymous {
			continue
		}
		// Without a name in its tag a field is known by its Go name,
		// renamed in the reflect type when the source's is unexported.
		c := jsonField{match: jname, name: jname, typ: f.typ}
		if jname == "" {
			c.match, c.name = rf.Name, f.name
		}
		for j := len(hops) - 1; j >= 0; j-- {
			c.match = hops[j].match + "." + c.match
			c.name = hops[j].name + "." + c.name
		}
		out = append(out, c)
	}
	return out
}

// knownRType returns the reflect type of t from the reflect types the
// interpreter made already, or nil. Unlike TypeOf it changes no type:
// patches 75 to 77 run as the script runs, maybe on several goroutines.
func knownRType(t *itype) reflect.Type {
	if t == nil {
		return nil
	}
	if t.rtype != nil {
		return t.rtype
	}
	switch t.cat {
	case linkedT:
		return knownRType(t.val)
	case ptrT:
		if e := knownRType(t.val); e != nil {
			return reflect.PointerTo(e)
		}
	case sliceT:
		if e := knownRType(t.val); e != nil {
			return reflect.SliceOf(e)
		}
	case arrayT:
		if e := knownRType(t.val); e != nil {
			return reflect.ArrayOf(t.length, e)
		}
	case mapT:
		k, e := knownRType(t.key), knownRType(t.val)
		if k != nil && e != nil {
			return reflect.MapOf(k, e)
		}
	}
	return nil
}
