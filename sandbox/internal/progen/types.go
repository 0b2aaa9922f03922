package progen

import (
	"strconv"
	"strings"
)

// kind classifies a type by what the generator can do with its values.
type kind int

const (
	kInt kind = iota
	kFloat
	kString
	kBool
	kSlice
	kArray
	kMap
	kStruct
	kPointer
	kFunc
	kInterface
	kChan
)

// typ is a Go type of a generated program. Named types have a name and
// an underlying type; the others are written out.
type typ struct {
	kind   kind
	name   string // the Go spelling: "int8", "[]S1_x", "S1_x"
	bits   int    // integers and floats
	signed bool   // integers
	elem   *typ   // slice, array, pointer, map value, chan
	key    *typ   // map
	length int    // array
	fields []field
	params []*typ // func
	result *typ   // func: zero or one result
	under  *typ   // a named type's underlying type
	// methods of a named type (value and pointer receivers) or of an
	// interface.
	methods []method
	// stringer: the named type has a String method (fmt prints through it).
	stringer bool
}

type field struct {
	name     string
	t        *typ
	embedded bool
}

type method struct {
	name   string
	ptr    bool // pointer receiver
	params []*typ
	result *typ
}

var (
	tInt     = &typ{kind: kInt, name: "int", bits: 64, signed: true}
	tInt8    = &typ{kind: kInt, name: "int8", bits: 8, signed: true}
	tInt16   = &typ{kind: kInt, name: "int16", bits: 16, signed: true}
	tInt32   = &typ{kind: kInt, name: "int32", bits: 32, signed: true}
	tInt64   = &typ{kind: kInt, name: "int64", bits: 64, signed: true}
	tUint    = &typ{kind: kInt, name: "uint", bits: 64}
	tUint8   = &typ{kind: kInt, name: "uint8", bits: 8}
	tUint16  = &typ{kind: kInt, name: "uint16", bits: 16}
	tUint32  = &typ{kind: kInt, name: "uint32", bits: 32}
	tUint64  = &typ{kind: kInt, name: "uint64", bits: 64}
	tRune    = &typ{kind: kInt, name: "rune", bits: 32, signed: true}
	tByte    = &typ{kind: kInt, name: "byte", bits: 8}
	tFloat64 = &typ{kind: kFloat, name: "float64", bits: 64}
	tFloat32 = &typ{kind: kFloat, name: "float32", bits: 32}
	tString  = &typ{kind: kString, name: "string"}
	tBool    = &typ{kind: kBool, name: "bool"}
	tAny     = &typ{kind: kInterface, name: "any"}
	tError   = &typ{kind: kInterface, name: "error", methods: []method{{name: "Error", result: tString}}}

	intTypes   = []*typ{tInt, tInt8, tInt16, tInt32, tInt64, tUint, tUint8, tUint16, tUint32, tUint64, tRune, tByte}
	basicTypes = append(append([]*typ{}, intTypes...), tFloat64, tFloat32, tString, tBool)
)

func sliceOf(e *typ) *typ { return &typ{kind: kSlice, name: "[]" + e.name, elem: e} }
func arrayOf(n int, e *typ) *typ {
	return &typ{kind: kArray, name: "[" + strconv.Itoa(n) + "]" + e.name, elem: e, length: n}
}
func mapOf(k, v *typ) *typ {
	return &typ{kind: kMap, name: "map[" + k.name + "]" + v.name, key: k, elem: v}
}
func ptrTo(e *typ) *typ  { return &typ{kind: kPointer, name: "*" + e.name, elem: e} }
func chanOf(e *typ) *typ { return &typ{kind: kChan, name: "chan " + e.name, elem: e} }

func funcOf(params []*typ, result *typ) *typ {
	var b strings.Builder
	b.WriteString("func(")
	for i, p := range params {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(p.name)
	}
	b.WriteString(")")
	if result != nil {
		b.WriteString(" " + result.name)
	}
	return &typ{kind: kFunc, name: b.String(), params: params, result: result}
}

// isNamed reports whether t is a type declared by the program.
func (t *typ) isNamed() bool { return t.under != nil }

// u returns the underlying type.
func (t *typ) u() *typ {
	if t.under != nil {
		return t.under
	}
	return t
}

// same reports whether a and b are identical types.
func same(a, b *typ) bool {
	if a == b {
		return true
	}
	return canonical(a.name) == canonical(b.name)
}

// aliases spells byte and rune as their aliases' targets (read-only).
var aliases = strings.NewReplacer("byte", "uint8", "rune", "int32")

// canonical spells a type name with byte and rune as uint8 and int32.
func canonical(name string) string { return aliases.Replace(name) }

// mentionsDefined reports whether t is or contains a type the program
// declares.
func (t *typ) mentionsDefined() bool {
	if t.isNamed() {
		return true
	}
	for _, e := range []*typ{t.elem, t.key} {
		if e != nil && e.mentionsDefined() {
			return true
		}
	}
	for _, f := range t.fields {
		if f.t.mentionsDefined() {
			return true
		}
	}
	return false
}

// definedNonStruct reports whether t is or contains a declared type that
// is not a struct.
func (t *typ) definedNonStruct() bool {
	if t.isNamed() && t.u().kind != kStruct {
		return true
	}
	for _, e := range []*typ{t.u().elem, t.u().key} {
		if e != nil && e.definedNonStruct() {
			return true
		}
	}
	for _, f := range t.u().fields {
		if f.t.definedNonStruct() {
			return true
		}
	}
	return false
}

// comparable reports whether == works on t (and t may be a map key).
func (t *typ) comparable() bool {
	switch t.u().kind {
	case kSlice, kMap, kFunc:
		return false
	case kArray:
		return t.u().elem.comparable()
	case kStruct:
		for _, f := range t.u().fields {
			if !f.t.comparable() {
				return false
			}
		}
	}
	return true
}

// ordered reports whether < works on t.
func (t *typ) ordered() bool {
	k := t.u().kind
	return k == kInt || k == kFloat || k == kString
}

// printable reports whether fmt prints values of t the same way in every
// run: no addresses (pointers, funcs, chans) anywhere inside.
func (t *typ) printable() bool {
	return t.printableDepth(0)
}

func (t *typ) printableDepth(d int) bool {
	if d > 6 {
		return false
	}
	if t.stringer {
		return true
	}
	switch t.u().kind {
	case kPointer, kFunc, kChan:
		return false
	case kSlice, kArray:
		return t.u().elem.printableDepth(d + 1)
	case kMap:
		return t.u().key.printableDepth(d+1) && t.u().elem.printableDepth(d+1) && t.u().key.u().kind != kFloat
	case kStruct:
		for _, f := range t.u().fields {
			if !f.t.printableDepth(d + 1) {
				return false
			}
		}
	case kInterface:
		return true // the generator only stores printable values in interfaces
	}
	return true
}

// methodSet returns the methods callable on a value of t (pointer: both).
func (t *typ) methodSet(addressable bool) []method {
	base := t
	ptr := false
	if t.kind == kPointer && t.elem.isNamed() {
		base, ptr = t.elem, true
	}
	if t.kind == kInterface || t.u().kind == kInterface {
		return t.u().methods
	}
	var ms []method
	for _, m := range base.methods {
		if !m.ptr || ptr || addressable {
			ms = append(ms, m)
		}
	}
	return ms
}

// implements reports whether values of t can be stored in iface.
func (t *typ) implements(iface *typ) bool {
	for _, want := range iface.u().methods {
		ok := false
		for _, m := range t.methodSet(false) {
			if m.name == want.name && sameSig(m, want) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func sameSig(a, b method) bool {
	if len(a.params) != len(b.params) || (a.result == nil) != (b.result == nil) {
		return false
	}
	for i := range a.params {
		if !same(a.params[i], b.params[i]) {
			return false
		}
	}
	return a.result == nil || same(a.result, b.result)
}
