package interp

import (
	"errors"
	htmltemplate "html/template"
	"reflect"
	"sort"
	"strings"
	"text/template"
)

// sbir patch 76: text/template and html/template evaluate {{.Name}} by
// reflection, and an interpreted type's reflect type is an unnamed
// struct without methods. So a template calling a method of the script's
// type failed with "can't evaluate field Total in type struct { Customer
// string; ... }", a message that blames a field that the program never
// declared, and every error naming such a type spelled out its struct
// where gc prints main.Invoice. Reflection cannot give a type methods, so
// a template cannot call them: Execute and ExecuteTemplate of both
// packages now panic with an *Unsupported naming the method and the
// rewrite (unlike an error, which a program may ignore after part of the
// output is written, a panic never passes for gc's output). The other
// errors they return name the script's types as gc does.

// Unsupported is the panic value of a construct the interpreter cannot
// run as gc does: the message names it and a rewrite that works.
type Unsupported struct {
	Msg string
}

func (e *Unsupported) Error() string { return e.Msg }

var (
	textTemplateType  = reflect.TypeOf((*template.Template)(nil))
	htmlTemplateType  = reflect.TypeOf((*htmltemplate.Template)(nil))
	errorsNewType     = reflect.TypeOf(errors.New(""))
	templateExecTypes = map[string]bool{"Execute": true, "ExecuteTemplate": true}
)

// isTemplateExec reports whether the function called, c0, is the Execute
// or ExecuteTemplate method of a text/template or html/template
// *Template, which evaluate their last argument.
func isTemplateExec(c0 *node) bool {
	if c0.kind != selectorExpr || len(c0.child) != 2 || !templateExecTypes[c0.child[1].ident] {
		return false
	}
	t := c0.child[0].typ
	return t != nil && t.cat == valueT && (t.rtype == textTemplateType || t.rtype == htmlTemplateType)
}

// templateExecCall wraps call, which executes a template on its last
// argument, whose static type is data, so that its errors name the
// script's types as gc does, and a call of a method of one panics with
// an *Unsupported.
func (interp *Interpreter) templateExecCall(data *itype, call func(reflect.Value, []reflect.Value) []reflect.Value) func(reflect.Value, []reflect.Value) []reflect.Value {
	return func(v reflect.Value, in []reflect.Value) []reflect.Value {
		out := call(v, in)
		if len(out) != 1 || out[0].Kind() != reflect.Interface || out[0].IsNil() {
			return out
		}
		e, ok := out[0].Interface().(template.ExecError)
		if !ok || e.Err == nil {
			return out
		}
		names := interp.scriptTypeNames(data)
		msg := e.Err.Error()
		if u := templateMethodCall(msg, names); u != nil {
			panic(u)
		}
		fixed := rewordTypes(templateUnexported(msg, names), names)
		if fixed == msg || reflect.TypeOf(e.Err) != errorsNewType {
			return out
		}
		r := reflect.New(out[0].Type()).Elem()
		r.Set(reflect.ValueOf(template.ExecError{Name: e.Name, Err: errors.New(fixed)}))
		return []reflect.Value{r}
	}
}

// scriptTypes maps the reflect type strings of the script's types that a
// message may name to those types (a nil entry when two types share the
// string).
type scriptTypes map[string]*scriptType

// scriptType is one of the script's types, or a pointer to one.
type scriptType struct {
	t   *itype
	ptr bool
	gc  string // as gc prints it
}

// scriptTypeNames gathers the types reachable from the types ts (through
// fields, pointers, slices, arrays and maps) and from the main package's
// defined types, with pointers to the defined ones. It reads only the
// reflect types the interpreter made already (and makes no pointer
// types): it runs as the script runs, maybe on several goroutines.
func (interp *Interpreter) scriptTypeNames(ts ...*itype) scriptTypes {
	names := scriptTypes{}
	seen := map[*itype]bool{}
	var walk func(t *itype, depth int)
	walk = func(t *itype, depth int) {
		if t == nil || seen[t] || depth > 32 || t.cat == valueT {
			return
		}
		seen[t] = true
		names.add(t)
		u := underlying(t)
		switch u.cat {
		case structT:
			for _, f := range u.field {
				walk(f.typ, depth+1)
			}
		case mapT:
			walk(u.key, depth+1)
			walk(u.val, depth+1)
		case ptrT, sliceT, arrayT:
			walk(u.val, depth+1)
		}
	}
	for _, t := range ts {
		walk(t, 0)
	}
	if sc := interp.scopes[mainID]; sc != nil {
		for _, sym := range sc.sym {
			if sym.kind == typeSym && sym.typ != nil && sym.typ.name != "" && !seen[sym.typ] {
				walk(sym.typ, 0)
			}
		}
	}
	return names
}

// add records t, and a pointer to t if t is defined, under their reflect
// strings when those spell out one of the script's structs (and so
// differ from gc's). Other types are left out: their reflect strings are
// those of other types too (int for a type Temp int), so replacing them
// would rename what is not theirs.
func (s scriptTypes) add(t *itype) {
	rt := knownRType(t)
	if rt == nil || !strings.Contains(rt.String(), "struct {") {
		return
	}
	s.put(rt.String(), &scriptType{t: t, gc: typeString(t)})
	if t.name != "" {
		s.put(reflect.PointerTo(rt).String(), &scriptType{t: t, ptr: true, gc: "*" + typeString(t)})
	}
}

func (s scriptTypes) put(str string, x *scriptType) {
	if str == x.gc {
		return
	}
	if old, ok := s[str]; ok && (old == nil || old.gc != x.gc) {
		s[str] = nil // two types with one reflect type
		return
	}
	s[str] = x
}

// rewordTypes replaces in msg the reflect strings of the script's types
// by gc's names, longest first (a struct's string holds its fields').
func rewordTypes(msg string, names scriptTypes) string {
	keys := make([]string, 0, len(names))
	for k, x := range names {
		if x != nil && strings.Contains(msg, k) {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool { return len(keys[i]) > len(keys[j]) })
	for _, k := range keys {
		msg = strings.ReplaceAll(msg, k, names[k].gc)
	}
	return msg
}

const cantEvaluate = "can't evaluate field "

// templateField finds the script type a "can't evaluate field" message at
// the end of msg names, and the field name.
func templateField(msg string, names scriptTypes) (prefix, field string, x *scriptType) {
	i := strings.LastIndex(msg, cantEvaluate)
	if i < 0 {
		return "", "", nil
	}
	field, typ, ok := strings.Cut(msg[i+len(cantEvaluate):], " in type ")
	if !ok {
		return "", "", nil
	}
	x = names[typ]
	if x == nil && strings.HasPrefix(typ, "interface {") {
		// text/template names the type of an interface value before
		// looking inside it (a value of a map[string]any): take the
		// script's type with a method of that name, if one has.
		x = names.withMethod(field)
	}
	return msg[:i], field, x
}

// withMethod returns the first (by name) of the script's defined types
// that has a method name, or nil.
func (s scriptTypes) withMethod(name string) *scriptType {
	var found *scriptType
	for _, x := range s {
		if x == nil || x.ptr || x.t.name == "" {
			continue
		}
		if m, _ := x.t.lookupMethod(name); m != nil && (found == nil || x.gc < found.gc) {
			found = x
		}
	}
	return found
}

// templateMethodCall returns the panic value for a message saying that a
// template could not evaluate NAME on a script type that has a method
// NAME, or nil.
func templateMethodCall(msg string, names scriptTypes) *Unsupported {
	prefix, name, x := templateField(msg, names)
	if x == nil || x.t.name == "" {
		return nil
	}
	m, _ := x.t.lookupMethod(name)
	if m == nil {
		return nil
	}
	typ := typeString(x.t)
	recv := strings.TrimPrefix(typ, "main.")
	if isPtrRecv(m) {
		recv = "(*" + recv + ")"
	}
	fn := strings.ToLower(name[:1]) + name[1:]
	return &Unsupported{Msg: prefix + "cannot call method " + name + " of " + typ +
		": a template cannot call the methods of a type declared in a cell (the compiled template package sees only its fields)." +
		" Pass the method as a function instead: .Funcs(template.FuncMap{\"" + fn + "\": " + recv + "." + name + "}) before Parse, and {{" + fn + " .}} in the template;" +
		" or compute the value in the cell and pass it in a field or a map"}
}

// isPtrRecv reports whether the method declaration m has a pointer
// receiver.
func isPtrRecv(m *node) bool {
	if m == nil || len(m.child) == 0 || len(m.child[0].child) == 0 {
		return false
	}
	r := m.child[0].child[0].lastChild()
	return r != nil && r.kind == starExpr
}

// templateUnexported rewords "can't evaluate field x in type T" for an
// unexported field x of the script's struct type T as gc words it (the
// reflect type holds x under another name).
func templateUnexported(msg string, names scriptTypes) string {
	prefix, name, x := templateField(msg, names)
	if x == nil {
		return msg
	}
	st := underlying(x.t)
	if st.cat != structT {
		return msg
	}
	for _, f := range st.field {
		if f.name == name && !f.embed && !canExport(name) {
			return prefix + name + " is an unexported field of struct type " + x.gc
		}
	}
	return msg
}
