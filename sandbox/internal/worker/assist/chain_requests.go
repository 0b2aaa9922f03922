package assist

import (
	"fmt"
	"go/parser"
	"go/token"
	"reflect"
	"strings"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/allowlist"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/symbols"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// identBounds returns the byte range of the identifier around off.
func identBounds(code string, off int) (s, e int) {
	isID := func(b byte) bool {
		return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b >= 0x80
	}
	s, e = off, off
	for s > 0 && isID(code[s-1]) {
		s--
	}
	for e < len(code) && isID(code[e]) {
		e++
	}
	return s, e
}

// chainMembers returns the completions for the member being typed at the
// end of before (".Su", "."): nil, false when before does not end with a
// selector whose operand is more than one identifier (or, with idents,
// is any operand), the members of the operand's type otherwise.
func (a *Assistant) chainMembers(before string, names []string, idents bool) (prefix string, members []string, ok bool) {
	ty := a.newTyper(before, names)
	toks := ty.toks
	i := len(toks) - 1
	if i >= 0 && toks[i].t == token.IDENT && toks[i].end == len(before) {
		prefix = toks[i].lit
		i--
	}
	if i < 1 || toks[i].t != token.PERIOD {
		return "", nil, false
	}
	first := operandStart(toks, i-1)
	if first < 0 || first == i-1 && !idents {
		return "", nil, false
	}
	_, x, ok := ty.operand(i - 1)
	if !ok {
		return prefix, nil, first != i-1
	}
	if x.pkg != "" {
		return prefix, symbols.Members(x.pkg), true
	}
	return prefix, typeMembers(x), true
}

// inspectChain documents the member under the cursor of a selector whose
// operand is more than one identifier (award_data.Frame.Where,
// award_data.GroupBy("Agency").Sum; any operand with idents), or the
// type of the call or index expression that ends just before the cursor.
func (a *Assistant) inspectChain(code string, off int, names []string, idents bool) (wire.Inspection, bool) {
	s, e := identBounds(code, off)
	if s == e && off > 0 && code[off-1] == '(' {
		// JupyterLab's tooltip, right after "Sum(": the function called.
		off--
		s, e = identBounds(code, off)
	}
	if s == e {
		// Just after a call or an index: what it returns.
		ty := a.newTyper(code[:off], names)
		last := len(ty.toks) - 1
		if last < 0 || ty.toks[last].end != off || ty.toks[last].t != token.RPAREN && ty.toks[last].t != token.RBRACK {
			return wire.Inspection{}, false
		}
		text, x, ok := ty.operand(last)
		if !ok || x.pkg != "" || x.isType {
			return wire.Inspection{}, false
		}
		return typeInspection(text, x.typ), true
	}
	ty := a.newTyper(code[:e], names)
	toks := ty.toks
	i := len(toks) - 1
	if i < 2 || toks[i].t != token.IDENT || toks[i-1].t != token.PERIOD {
		return wire.Inspection{}, false
	}
	name := toks[i].lit
	first := operandStart(toks, i-2)
	if first < 0 || first == i-2 && !idents {
		return wire.Inspection{}, false
	}
	text, x, ok := ty.operand(i - 2)
	if !ok {
		return wire.Inspection{}, false
	}
	switch {
	case x.pkg != "":
		if d, ok := allowlist.Doc(x.pkg, name); ok {
			return docInspection(d), true
		}
		return wire.Inspection{}, false
	case x.isType:
		if _, ok := methodOf(x.typ, name); !ok {
			return wire.Inspection{}, false
		}
		if d, ok := a.typeMethodDoc(x.typ, name); ok {
			return docInspection(d), true
		}
		m, _ := methodOf(x.typ, name)
		return textInspection(fmt.Sprintf("%s.%s: %s", text, name, typeName(m.Type))), true
	}
	t, ok := memberType(x.typ, name)
	if !ok {
		// A method of a type the cells declared (see typeOf).
		sel := text + "." + name
		e, err := parser.ParseExpr(sel)
		if err != nil {
			return wire.Inspection{}, false
		}
		st, ok := ty.typeOf(e, sel, ty.toks[first].start)
		if !ok {
			return wire.Inspection{}, false
		}
		return textInspection(fmt.Sprintf("%s: %s", sel, typeName(st.typ))), true
	}
	if _, isMethod := methodOf(x.typ, name); isMethod {
		if d, ok := a.typeMethodDoc(x.typ, name); ok {
			return docInspection(d), true
		}
	}
	return textInspection(fmt.Sprintf("%s.%s: %s", text, name, typeName(t))), true
}

// typeInspection says what an expression's value is: its type and the
// type's documentation when the type is from an allowed package.
func typeInspection(text string, t reflect.Type) wire.Inspection {
	head := fmt.Sprintf("%s has type %s", text, typeName(t))
	nt := t
	if nt.Kind() == reflect.Pointer {
		nt = nt.Elem()
	}
	if d, ok := docOfType(nt); ok {
		in := docInspection(d)
		in.Data["text/plain"] = head + "\n\n" + in.Data["text/plain"].(string)
		in.Data["text/markdown"] = "`" + head + "`\n\n" + in.Data["text/markdown"].(string)
		return in
	}
	return textInspection(head)
}

// docOfType finds the documentation of a named type of an allowed package.
func docOfType(t reflect.Type) (allowlist.Entry, bool) {
	path := t.PkgPath()
	if path == "" || t.Name() == "" {
		return allowlist.Entry{}, false
	}
	for _, p := range allowlist.Packages() {
		if p == path || strings.HasSuffix(path, "/"+p) && (p == "award_data" || p == "display") {
			return allowlist.Doc(p, t.Name())
		}
	}
	return allowlist.Entry{}, false
}
