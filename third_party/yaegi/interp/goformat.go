package interp

// sbir patch 7: fmt prints interpreted values as gc does.
//
// yaegi builds reflect types for interpreted types: a struct's unexported
// fields are renamed (x becomes Xx) and defined types lose their names
// (type point struct{...} is struct { Xx int; Xy int }, type Celsius
// float64 is float64), so %+v, %#v and %T printed those. When an
// interpreted value of such a type, without methods of its own, is passed
// to a function of package fmt, it is passed as a goValue, a
// fmt.Formatter that prints %v, %+v and %#v with the source's field and
// type names; %T verbs whose argument is a goValue are rewritten to a
// private verb that goValue prints as the source type.

import (
	"fmt"
	"go/ast"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// typeVerb stands for %T in a rewritten format.
const typeVerb = '\U000F0054'

var formatterType = reflect.TypeOf((*fmt.Formatter)(nil)).Elem()

// isFmtFunc reports whether f is a function the host marked, in its
// MapTypes, as formatting its arguments with fmt (fmt.Formatter first).
func isFmtFunc(interp *Interpreter, f reflect.Value) bool {
	lr, ok := interp.mapTypes[f]
	return ok && len(lr) > 0 && lr[0] == formatterType
}

// wrapsErrors reports whether the host's MapTypes wrap interpreted
// operands of the fmt function f as errors (fmt.Errorf) (sbir patch 9a).
func wrapsErrors(interp *Interpreter, f reflect.Value) bool {
	for _, t := range interp.mapTypes[f] {
		if t == reflect.TypeOf((*error)(nil)).Elem() {
			return true
		}
	}
	return false
}

// formatIndex returns the index of the format parameter of a
// Printf-like function type (the string just before the variadic
// ...any), or -1.
func formatIndex(ft reflect.Type) int {
	if ft.Kind() != reflect.Func || !ft.IsVariadic() || ft.NumIn() < 2 {
		return -1
	}
	i := ft.NumIn() - 2
	if ft.In(i).Kind() != reflect.String {
		return -1
	}
	return i
}

// needsGoFormat reports whether fmt would print a value of type t
// differently from gc: t is or contains a struct or a defined type.
func needsGoFormat(t *itype, depth int) bool {
	if t == nil || depth > 4 {
		return false
	}
	switch t.cat {
	case interfaceT:
		// sbir patch 9a: a nested interface holds a valueInterface.
		return depth > 0
	case funcT:
		// sbir patch 34: a func type is printed by %T with its name, or
		// with the interpreted types it is made of.
		if t.name != "" && t.path != "" {
			return true
		}
		for _, a := range append(append([]*itype(nil), t.arg...), t.ret...) {
			if needsGoFormat(a, depth+1) {
				return true
			}
		}
		return false
	case valueT, chanT, chanRecvT, chanSendT, nilT, builtinT, genericT:
		return false
	case structT:
		return true
	case linkedT:
		return true
	case ptrT, sliceT, arrayT, variadicT:
		// sbir patch 32: a defined slice, array or map type has its own
		// name in %T and %#v (main.bookcase{...}), whatever its elements.
		return t.name != "" || needsGoFormat(t.val, depth+1)
	case mapT:
		return t.name != "" || needsGoFormat(t.key, depth+1) || needsGoFormat(t.val, depth+1)
	}
	return t.name != "" && t.path != ""
}

func genGoFormat(n *node) func(*frame) reflect.Value {
	value := genValue(n)
	if isFuncSrc(n.typ) {
		value = genFuncValue(n) // a declared function is a func value (sbir patch 34)
	}
	typ := n.typ
	return func(f *frame) reflect.Value {
		return reflect.ValueOf(goValue{v: value(f), t: typ, f: f, src: &n.interp.srcTypes})
	}
}

// sbir patch 9a: useGoFormat reports whether an operand of interpreted
// type t goes to fmt as a goValue: t needs it, and its String, Error,
// Format or GoString methods, if any, are interpreted (goValue calls
// them); a method promoted from a compiled type is left to yaegi's
// interface wrappers, and so is an error operand of a function that
// wraps errors (fmt.Errorf's %w needs the error itself).
func useGoFormat(t *itype, wrapsErrors bool) bool {
	if !needsGoFormat(t, 0) {
		return false
	}
	if wrapsErrors {
		if m, _ := t.lookupMethod("Error"); m != nil {
			return false
		}
	}
	for _, name := range fmtMethodNames {
		if m, _ := t.lookupMethod(name); m != nil {
			continue
		}
		if _, _, _, ok := t.lookupBinMethod(name); ok {
			return false
		}
	}
	return true
}

// fmtMethodNames are the methods fmt calls, in the order it tries them.
var fmtMethodNames = []string{"Format", "GoString", "Error", "String"}

// fmtMethod returns the interpreted method name in the method set of t
// (a pointer receiver needs a pointer type, as fmt's operands are not
// addressable), with the path to an embedded receiver.
func fmtMethod(t *itype, name string) (*node, []int) {
	if t == nil || t.cat == valueT || isInterfaceSrc(t) {
		return nil, nil
	}
	m, index := t.lookupMethod(name)
	if m == nil || len(m.child) < 3 || m.kind != funcDecl {
		return nil, nil
	}
	if _, ok := m.val.(*node); !ok {
		return nil, nil
	}
	if t.cat != ptrT && len(index) == 0 && len(m.child[0].child) > 0 {
		if r := m.child[0].child[0].lastChild(); r != nil && r.kind == starExpr {
			return nil, nil
		}
	}
	return m, index
}

// callFmtMethod calls method name of the value v of interpreted type t,
// returning false if t has no such method or v is a nil pointer whose
// method would dereference it (fmt prints <nil> for those).
func callFmtMethod(f *frame, v reflect.Value, t *itype, name string, args ...reflect.Value) ([]reflect.Value, bool) {
	if f == nil || !v.IsValid() {
		return nil, false
	}
	m, index := fmtMethod(t, name)
	if m == nil {
		return nil, false
	}
	if v.Kind() == reflect.Ptr && v.IsNil() {
		return nil, false
	}
	nod := *m
	nod.recv = &receiver{val: v, index: index}
	return genFunctionWrapper(&nod)(f).Call(args), true
}

// fmtMethodString returns what fmt's handleMethods prints for v with
// verb (sharp for %#v), when t has a method fmt would call, Format
// excepted.
func fmtMethodString(f *frame, v reflect.Value, t *itype, verb rune, sharp bool) (string, bool) {
	if sharp {
		if r, ok := callFmtMethod(f, v, t, "GoString"); ok {
			return r[0].String(), true
		}
		return "", false
	}
	switch verb {
	case 'v', 's', 'x', 'X', 'q':
	default:
		return "", false
	}
	if r, ok := callFmtMethod(f, v, t, "Error"); ok {
		return r[0].String(), true
	}
	if r, ok := callFmtMethod(f, v, t, "String"); ok {
		return r[0].String(), true
	}
	return "", false
}

// formatFunc is a fmt.Formatter calling an interpreted Format method.
type formatFunc func(fmt.State, rune)

func (ff formatFunc) Format(st fmt.State, verb rune) { ff(st, verb) }

// fmtFormatter returns a fmt.Formatter calling the interpreted Format
// method of v, or nil.
func fmtFormatter(f *frame, v reflect.Value, t *itype) fmt.Formatter {
	if m, _ := fmtMethod(t, "Format"); m == nil || f == nil || !v.IsValid() || (v.Kind() == reflect.Ptr && v.IsNil()) {
		return nil
	}
	return formatFunc(func(st fmt.State, verb rune) {
		callFmtMethod(f, v, t, "Format", reflect.ValueOf(&st).Elem(), reflect.ValueOf(verb))
	})
}

// genGoFormatInterface passes an interface operand as a goValue when its
// dynamic type is interpreted, needs it, and has no String, Error or
// Format method; otherwise as yaegi passes interfaces.
func genGoFormatInterface(n *node, wrapsErrors bool) func(*frame) reflect.Value {
	var value func(*frame) reflect.Value
	if isEmptyInterface(n.typ) || isBinEmptyInterface(n.typ) {
		value = genValue(n)
	} else {
		value = genValueInterfaceValue(n)
	}
	raw := genValue(n)
	src := &n.interp.srcTypes
	return func(f *frame) reflect.Value {
		v := raw(f)
		for v.IsValid() && v.Kind() == reflect.Interface && !v.IsNil() {
			v = v.Elem()
		}
		if v.IsValid() && v.CanInterface() {
			if vi, ok := v.Interface().(valueInterface); ok && vi.node != nil && vi.node.typ != nil &&
				useGoFormat(vi.node.typ, wrapsErrors) {
				return reflect.ValueOf(goValue{v: vi.value, t: vi.node.typ, f: f, src: src})
			}
			// sbir patch 83: a declared struct held as its reflect value.
			if t := src.of(v.Type(), 0); t != nil && useGoFormat(t, wrapsErrors) {
				return reflect.ValueOf(goValue{v: v, t: t, f: f, src: src})
			}
		}
		return value(f)
	}
}

// goFormatResult passes the result at frame index ind of an interpreted
// call, of type t, to a fmt function as genGoFormat and
// genGoFormatInterface pass operands; keepErrors is for an error result
// (sbir patch 65).
//
// src names a declared struct held as its reflect value in an interface
// result, as genGoFormatInterface names it in an operand (sbir patch 161:
// fmt.Printf("%T", f()) of a func f() any returning a struct printed
// reflect's struct { Xa int ... }).
func goFormatResult(ind int, t *itype, wrapsErrors, keepErrors bool, src *srcTypes) func(*frame) reflect.Value {
	return func(f *frame) reflect.Value {
		v := f.data[ind]
		if isInterfaceSrc(t) || isEmptyInterface(t) {
			r := v
			for r.IsValid() && r.Kind() == reflect.Interface && !r.IsNil() {
				r = r.Elem()
			}
			if r.IsValid() && r.CanInterface() {
				if vi, ok := r.Interface().(valueInterface); ok && vi.node != nil && vi.node.typ != nil &&
					useGoFormat(vi.node.typ, wrapsErrors) {
					return reflect.ValueOf(goValue{v: vi.value, t: vi.node.typ, f: f, src: src})
				}
				if st := src.of(r.Type(), 0); st != nil && useGoFormat(st, wrapsErrors) {
					return reflect.ValueOf(goValue{v: r, t: st, f: f, src: src})
				}
			}
		} else if useGoFormat(t, wrapsErrors) {
			return reflect.ValueOf(goValue{v: v, t: t, f: f, src: src})
		} else if isInterfaceBin(t) {
			return goFormatWrapped(f, valueInterfaceValue(v), keepErrors) // sbir patch 65
		}
		return valueInterfaceValue(v)
	}
}

// goValue is an interpreted value with its interpreted type.
type goValue struct {
	v   reflect.Value
	t   *itype
	f   *frame    // to call the methods of t (sbir patch 9a)
	src *srcTypes // to name the structs in nested interfaces (sbir patch 83)
}

// Format implements fmt.Formatter.
func (g goValue) Format(st fmt.State, verb rune) {
	switch verb {
	case typeVerb:
		fmt.Fprintf(st, fmtDirective(st, 's'), typeString(g.t))
		return
	}
	// sbir patch 9a: as fmt's handleMethods, call the operand's Format,
	// GoString, Error or String method.
	if ff := fmtFormatter(g.f, g.v, g.t); ff != nil {
		ff.Format(st, verb)
		return
	}
	if s, ok := fmtMethodString(g.f, g.v, g.t, verb, verb == 'v' && st.Flag('#')); ok {
		if verb == 'v' && st.Flag('#') {
			verb = 's' // GoString's result is printed as is
		}
		fmt.Fprintf(st, fmtDirective(st, verb), s)
		return
	}
	switch verb {
	case 'v':
		// As fmt does, flags and width apply to each basic value.
		var b strings.Builder
		writeGo(&b, g.v, g.t, st.Flag('+'), st.Flag('#'), 0, fmtDirective(st, 'v'), g.f, g.src)
		_, _ = st.Write([]byte(b.String()))
	default:
		if g.v.IsValid() && g.v.CanInterface() {
			fmt.Fprintf(st, fmtDirective(st, verb), g.v.Interface())
		}
	}
}

// fmtDirective rebuilds the directive st was parsed from, with verb.
func fmtDirective(st fmt.State, verb rune) string {
	var b strings.Builder
	b.WriteByte('%')
	for _, f := range "+-# 0" {
		if st.Flag(int(f)) && !(verb == 's' && (f == '+' || f == '#')) {
			b.WriteRune(f)
		}
	}
	if w, ok := st.Width(); ok {
		b.WriteString(strconv.Itoa(w))
	}
	if p, ok := st.Precision(); ok {
		b.WriteByte('.')
		b.WriteString(strconv.Itoa(p))
	}
	b.WriteRune(verb)
	return b.String()
}

// typeString is the type as gc's %T prints it.
func typeString(t *itype) string {
	if t == nil {
		return "<nil>"
	}
	switch t.cat {
	case valueT:
		if t.rtype != nil {
			return t.rtype.String()
		}
	case interfaceT:
		if s, ok := interfaceString(t); ok {
			return s
		}
	case ptrT:
		return "*" + typeString(t.val)
	case sliceT, variadicT:
		if t.name == "" {
			return "[]" + typeString(t.val)
		}
	case arrayT:
		if t.name == "" {
			return "[" + strconv.Itoa(t.length) + "]" + typeString(t.val)
		}
	case mapT:
		if t.name == "" {
			return "map[" + typeString(t.key) + "]" + typeString(t.val)
		}
	case funcT:
		if t.name == "" {
			return funcTypeString(t) // sbir patch 68
		}
	}
	if t.name != "" && (t.path != "" || t.cat == structT || t.cat == arrayT || t.cat == sliceT || t.cat == mapT) { // sbir patch 8i: instances of generic types (and sbir patch 32: local types) have no path
		pkg := t.path
		if i := strings.LastIndexByte(pkg, '/'); i >= 0 {
			pkg = pkg[i+1:]
		}
		if pkg == "_" || pkg == "" {
			pkg = "main"
		}
		return pkg + "." + t.name
	}
	if t.cat == structT {
		var b strings.Builder
		b.WriteString("struct {")
		for i, f := range t.field {
			if i > 0 {
				b.WriteByte(';')
			}
			b.WriteString(" ")
			if !f.embed {
				b.WriteString(f.name + " ")
			}
			b.WriteString(typeString(f.typ))
		}
		if len(t.field) > 0 {
			b.WriteString(" ")
		}
		b.WriteString("}")
		return b.String()
	}
	switch t.str {
	case "byte":
		return "uint8" // sbir patch 84: the aliases as reflect names them
	case "rune":
		return "int32"
	case "":
	default:
		return t.str
	}
	if rt := t.TypeOf(); rt != nil {
		return rt.String()
	}
	return "?"
}

// interfaceString returns how reflect names an interface type that is
// not declared by name: any and interface{} as "interface {}", a method
// set as "interface { M(); N() string }", methods sorted by name (sbir
// patch 84). It reports false for a declared interface, or one embedding
// another (left to the type's own string).
func interfaceString(t *itype) (string, bool) {
	if t.name != "" && t.path != "" {
		return "", false
	}
	if len(t.field) == 0 {
		return "interface {}", true
	}
	if t.name != "" {
		return "", false // error and the other predeclared interfaces
	}
	ms := make([]string, 0, len(t.field))
	for _, f := range t.field {
		if f.embed || f.typ == nil || f.typ.cat != funcT {
			return "", false
		}
		ms = append(ms, f.name+strings.TrimPrefix(typeString(f.typ), "func"))
	}
	sort.Strings(ms)
	return "interface { " + strings.Join(ms, "; ") + " }", true
}

// writeGo writes v of interpreted type t as fmt's %v (%+v with plus,
// %#v with sharp) prints a compiled value of that type. With a frame f,
// the String, Error, Format and GoString methods of nested values are
// called as fmt calls them; f is nil below unexported fields, as fmt
// calls no methods there.
func writeGo(b *strings.Builder, v reflect.Value, t *itype, plus, sharp bool, depth int, dir string, f *frame, src *srcTypes) {
	if depth > 20 {
		b.WriteString("...")
		return
	}
	if v.IsValid() && v.Kind() == reflect.Interface {
		if v.IsNil() {
			if sharp {
				b.WriteString(typeString(t) + "(nil)")
			} else {
				b.WriteString("<nil>")
			}
			return
		}
		v = v.Elem()
		t = src.of(v.Type(), 0) // sbir patch 83: nil unless a declared struct
	}
	if v.IsValid() && v.CanInterface() {
		if vi, ok := v.Interface().(valueInterface); ok {
			if vi.node == nil {
				b.WriteString("<nil>")
				return
			}
			writeGo(b, vi.value, vi.node.typ, plus, sharp, depth, dir, f, src)
			return
		}
	}
	// sbir patch 9a: fmt calls the methods of nested values.
	if depth > 0 && f != nil && t != nil {
		if ff := fmtFormatter(f, v, t); ff != nil {
			fmt.Fprintf(b, dir, ff)
			return
		}
		if s, ok := fmtMethodString(f, v, t, 'v', sharp); ok {
			if sharp {
				b.WriteString(s)
			} else {
				plain(b, reflect.ValueOf(s), dir)
			}
			return
		}
	}
	u := t
	for u != nil && u.cat == linkedT && u.val != nil {
		u = u.val
	}
	if u == nil || !v.IsValid() || u.cat == valueT || u.cat == interfaceT || (u.cat != structT && u.cat != ptrT && u.cat != sliceT && u.cat != arrayT && u.cat != mapT && u.cat != variadicT) {
		plain(b, v, dir)
		return
	}
	switch u.cat {
	case structT:
		if sharp {
			b.WriteString(typeString(t))
		}
		b.WriteByte('{')
		for i, fld := range u.field {
			if i >= v.NumField() {
				break
			}
			if i > 0 {
				if sharp {
					b.WriteString(", ")
				} else {
					b.WriteByte(' ')
				}
			}
			if plus || sharp {
				name := fld.name
				if fld.embed && name == "" {
					name = typeString(fld.typ)
				}
				b.WriteString(name + ":")
			}
			ff := f
			if !fld.embed && !ast.IsExported(fld.name) || fld.embed && !ast.IsExported(fld.name+embeddedName(fld.typ)) {
				ff = nil // fmt calls no methods through unexported fields
			}
			writeGo(b, v.Field(i), fld.typ, plus, sharp, depth+1, dir, ff, src)
		}
		b.WriteByte('}')
	case ptrT:
		if v.IsNil() {
			if sharp {
				b.WriteString("(" + typeString(t) + ")(nil)")
			} else {
				b.WriteString("<nil>")
			}
			return
		}
		e := u.val
		for e != nil && e.cat == linkedT && e.val != nil {
			e = e.val
		}
		if depth == 0 && e != nil && (e.cat == structT || e.cat == sliceT || e.cat == arrayT || e.cat == mapT) {
			b.WriteByte('&')
			writeGo(b, v.Elem(), u.val, plus, sharp, depth+1, dir, f, src)
			return
		}
		if sharp {
			fmt.Fprintf(b, "(%s)(%#x)", typeString(t), v.Pointer())
		} else {
			fmt.Fprintf(b, "%#x", v.Pointer())
		}
	case sliceT, arrayT, variadicT:
		if sharp {
			if u.cat != arrayT && v.IsNil() {
				b.WriteString(typeString(t) + "(nil)")
				return
			}
			b.WriteString(typeString(t) + "{")
		} else {
			b.WriteByte('[')
		}
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				if sharp {
					b.WriteString(", ")
				} else {
					b.WriteByte(' ')
				}
			}
			writeGo(b, v.Index(i), u.val, plus, sharp, depth+1, dir, f, src)
		}
		if sharp {
			b.WriteByte('}')
		} else {
			b.WriteByte(']')
		}
	case mapT:
		if sharp {
			if v.IsNil() {
				b.WriteString(typeString(t) + "(nil)")
				return
			}
			b.WriteString(typeString(t) + "{")
		} else {
			b.WriteString("map[")
		}
		keys := v.MapKeys()
		// sbir patch 202: a map keyed by interfaces holds canonical
		// keys; they are printed (and sorted) as interpreted code sees
		// them, and looked up as they are.
		shown := keys
		if hasInterfacePart(v.Type().Key(), 0) {
			shown = make([]reflect.Value, len(keys))
			for i, k := range keys {
				shown[i] = restoreKey(k)
			}
		}
		order := make([]int, len(keys))
		for i := range order {
			order[i] = i
		}
		sort.Slice(order, func(i, j int) bool { return lessKey(shown[order[i]], shown[order[j]]) })
		for i, o := range order {
			if i > 0 {
				if sharp {
					b.WriteString(", ")
				} else {
					b.WriteByte(' ')
				}
			}
			writeGo(b, shown[o], u.key, plus, sharp, depth+1, dir, f, src)
			b.WriteByte(':')
			writeGo(b, v.MapIndex(keys[o]), u.val, plus, sharp, depth+1, dir, f, src)
		}
		if sharp {
			b.WriteByte('}')
		} else {
			b.WriteByte(']')
		}
	}
}

// plain writes a value whose type fmt already prints as gc does, with
// the directive (flags, width, precision) of the whole operand.
func plain(b *strings.Builder, v reflect.Value, dir string) {
	if !v.IsValid() {
		b.WriteString("<nil>")
		return
	}
	if !v.CanInterface() {
		b.WriteString(v.String())
		return
	}
	fmt.Fprintf(b, dir, v.Interface())
}

// lessKey orders map keys as fmt does for the basic kinds.
func lessKey(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() < b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() < b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() < b.Float()
	case reflect.String:
		return a.String() < b.String()
	case reflect.Bool:
		return !a.Bool() && b.Bool()
	}
	return fmt.Sprint(a) < fmt.Sprint(b)
}

// rewriteTypeVerbs rewrites, in the format in[fi], each %T whose operand
// is a goValue to typeVerb, following fmt's argument numbering (explicit
// [n] indexes and * widths included). sbir patch 30: the operand of a %p
// is passed as the value itself, not as a goValue: fmt prints a pointer
// for %p before it looks for a Format method, so a goValue printed as
// "%!p(interp.goValue=...)".
func rewriteTypeVerbs(in []reflect.Value, fi int) []reflect.Value {
	if fi >= len(in) || in[fi].Kind() != reflect.String {
		return in
	}
	format := in[fi].String()
	if !strings.Contains(format, "%") || !strings.ContainsAny(format, "Tp") {
		return in
	}
	args := in[fi+1:]
	isGo := func(i int) bool {
		if i < 0 || i >= len(args) || !args[i].IsValid() {
			return false
		}
		v := args[i]
		if v.Kind() == reflect.Interface && !v.IsNil() {
			v = v.Elem()
		}
		return v.IsValid() && v.Type() == reflect.TypeOf(goValue{})
	}
	var out strings.Builder
	changed := false
	var raw []int // operands of %p
	argNum := 0
	for i := 0; i < len(format); {
		c := format[i]
		if c != '%' {
			out.WriteByte(c)
			i++
			continue
		}
		start := i
		i++
		for i < len(format) && strings.IndexByte("+-# 0", format[i]) >= 0 {
			i++
		}
		argIndex := func() {
			if i < len(format) && format[i] == '[' {
				j := strings.IndexByte(format[i:], ']')
				if j > 0 {
					if n, err := strconv.Atoi(format[i+1 : i+j]); err == nil {
						argNum = n - 1
					}
					i += j + 1
				}
			}
		}
		argIndex()
		if i < len(format) && format[i] == '*' {
			argNum++
			i++
		} else {
			for i < len(format) && format[i] >= '0' && format[i] <= '9' {
				i++
			}
		}
		if i < len(format) && format[i] == '.' {
			i++
			argIndex()
			if i < len(format) && format[i] == '*' {
				argNum++
				i++
			} else {
				for i < len(format) && format[i] >= '0' && format[i] <= '9' {
					i++
				}
			}
		}
		argIndex()
		if i >= len(format) {
			out.WriteString(format[start:])
			break
		}
		verb, size := utf8.DecodeRuneInString(format[i:])
		i += size
		if verb == '%' {
			out.WriteString(format[start:i])
			continue
		}
		if verb == 'T' && isGo(argNum) {
			out.WriteString(format[start : i-size])
			out.WriteRune(typeVerb)
			changed = true
		} else {
			out.WriteString(format[start:i])
		}
		if verb == 'p' && isGo(argNum) {
			raw = append(raw, argNum)
		}
		argNum++
	}
	if !changed && len(raw) == 0 {
		return in
	}
	r := append([]reflect.Value(nil), in...)
	r[fi] = reflect.ValueOf(out.String()).Convert(in[fi].Type())
	for _, i := range raw {
		a := args[i]
		if a.Kind() == reflect.Interface {
			a = a.Elem()
		}
		if g := a.Interface().(goValue); g.v.IsValid() && g.v.CanInterface() {
			r[fi+1+i] = g.v
		}
	}
	return r
}

// embeddedName is the name of an embedded field of type t.
func embeddedName(t *itype) string {
	for t != nil && t.cat == ptrT {
		t = t.val
	}
	if t == nil {
		return ""
	}
	if t.name == "" && t.rtype != nil {
		return t.rtype.Name()
	}
	return t.name
}

// isEmptyInterfaceSlice reports whether t is a slice of an empty
// interface type ([]any).
func isEmptyInterfaceSlice(t *itype) bool {
	t = resolveLinked(t)
	return t != nil && (t.cat == sliceT || t.cat == variadicT) && t.val != nil && isEmptyInterface(resolveLinked(t.val))
}

// genGoFormatSpread passes a []any spread into fmt's ...any
// (fmt.Println(xs...)) with each element given as genGoFormatInterface
// gives an operand (sbir patch 98b): an element holding a valueInterface
// (a value of a type with methods) printed as the interpreter's struct,
// `{0xc000... {0x... 130}}`, where gc prints the value.
func genGoFormatSpread(n *node, wrapsErrors bool) func(*frame) reflect.Value {
	value := genValue(n)
	src := &n.interp.srcTypes
	return func(f *frame) reflect.Value {
		s := value(f)
		if !s.IsValid() || s.Kind() != reflect.Slice || s.IsNil() {
			return s
		}
		out := reflect.MakeSlice(s.Type(), s.Len(), s.Len())
		for i := 0; i < s.Len(); i++ {
			e := s.Index(i)
			for e.IsValid() && e.Kind() == reflect.Interface && !e.IsNil() {
				e = e.Elem()
			}
			switch {
			case !e.IsValid() || !e.CanInterface():
				out.Index(i).Set(s.Index(i))
				continue
			}
			if vi, ok := e.Interface().(valueInterface); ok {
				if vi.node != nil && vi.node.typ != nil && useGoFormat(vi.node.typ, wrapsErrors) {
					out.Index(i).Set(reflect.ValueOf(goValue{v: vi.value, t: vi.node.typ, f: f, src: src}))
				} else if vi.value.IsValid() && vi.value.CanInterface() {
					out.Index(i).Set(reflect.ValueOf(vi.value.Interface()))
				}
				continue
			}
			if t := src.of(e.Type(), 0); t != nil && useGoFormat(t, wrapsErrors) {
				out.Index(i).Set(reflect.ValueOf(goValue{v: e, t: t, f: f, src: src}))
				continue
			}
			out.Index(i).Set(s.Index(i))
		}
		return out
	}
}
