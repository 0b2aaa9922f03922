package interp

import (
	"encoding/xml"
	"reflect"
)

// sbir patch 36: encoding/xml names an element after the type of the
// value it encodes when nothing else names it (no XMLName field, no
// start element). An interpreted struct's reflect type has no name, so
// xml.Marshal(Plain{1, "x"}) failed with "xml: unsupported type: struct
// { A int; B string }" where gc writes <Plain>...</Plain>. A function the
// host marks with xml.Marshaler first in its MapTypes (xml.Marshal,
// xml.MarshalIndent), and (*xml.Encoder).Encode, get such a value, a pointer to one, or a slice or
// array of them, as an xmlNamed, which encodes it under its type's name.

var xmlMarshalerType = reflect.TypeOf((*xml.Marshaler)(nil)).Elem()

var xmlEncoderType = reflect.TypeOf((*xml.Encoder)(nil))

// isXMLFunc reports whether the function called, c0, encodes XML: the
// host marked it so, or it is the Encode method of an *xml.Encoder.
func isXMLFunc(interp *Interpreter, c0 *node) bool {
	if lr, ok := interp.mapTypes[c0.rval]; ok && len(lr) > 0 && lr[0] == xmlMarshalerType {
		return true
	}
	if c0.kind != selectorExpr || len(c0.child) != 2 || c0.child[1].ident != "Encode" {
		return false
	}
	t := c0.child[0].typ
	return t != nil && t.cat == valueT && t.rtype == xmlEncoderType
}

// xmlElementName returns the name encoding/xml gives an element of
// interpreted type t (a defined struct type, a pointer to one, or a slice
// or array of them) when nothing else names it, or "" when t names
// itself (an XMLName field, a MarshalXML or MarshalText method) or is
// another type.
func xmlElementName(t *itype) string {
	switch t.cat {
	case ptrT, sliceT, arrayT:
		if t.name != "" {
			return ""
		}
		return xmlElementName(t.val)
	case structT:
	default:
		return ""
	}
	if t.name == "" {
		return ""
	}
	for _, f := range t.field {
		if f.name == "XMLName" {
			return ""
		}
	}
	for _, m := range []string{"MarshalXML", "MarshalText"} {
		if n, _ := t.lookupMethod(m); n != nil {
			return ""
		}
		if ptr := ptrOf(t); ptr != nil {
			if n, _ := ptr.lookupMethod(m); n != nil {
				return ""
			}
		}
	}
	return t.name
}

// xmlNamed encodes v as an element named name (each element of v under
// that name if v is a slice or an array).
type xmlNamed struct {
	v    reflect.Value
	name string
}

// MarshalXML implements xml.Marshaler.
func (x xmlNamed) MarshalXML(e *xml.Encoder, start xml.StartElement) error {
	start.Name = xml.Name{Local: x.name}
	if k := x.v.Kind(); k == reflect.Slice || k == reflect.Array {
		for i := 0; i < x.v.Len(); i++ {
			if err := e.EncodeElement(x.v.Index(i).Interface(), start); err != nil {
				return err
			}
		}
		return nil
	}
	return e.EncodeElement(x.v.Interface(), start)
}

// genXMLNamed passes the value of n as an xmlNamed of the given name.
func genXMLNamed(n *node, name string) func(*frame) reflect.Value {
	value := genValue(n)
	return func(f *frame) reflect.Value {
		return reflect.ValueOf(xmlNamed{v: value(f), name: name})
	}
}
