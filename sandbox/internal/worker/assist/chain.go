package assist

import (
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"reflect"
	"sort"
	"strings"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/symbols"
)

// Completion and inspection follow types through expressions such as
// award_data.GroupBy("Agency").Sum without running anything: the result
// type of a call to a compiled function or method is in its reflect.Type,
// and a session variable's type is that of its value. The cell's text is
// tokenized with go/scanner (so dots and parentheses inside strings do not
// count) and the operand before a dot is parsed with go/parser.

// maxTypeDepth bounds the recursion through variables assigned in the
// cell (x := y.F(); y := x.G() ...).
const maxTypeDepth = 8

// tok is one token of the cell, with its byte offsets.
type tok struct {
	t          token.Token
	start, end int
	lit        string
}

// tokenize scans src, dropping the semicolon the scanner adds at the end.
func tokenize(src string) []tok {
	fset := token.NewFileSet()
	f := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(f, []byte(src), func(token.Position, string) {}, 0)
	var out []tok
	for {
		pos, t, lit := s.Scan()
		if t == token.EOF {
			break
		}
		off := f.Offset(pos)
		end := off + len(lit)
		if lit == "" {
			end = off + len(t.String())
		}
		if t == token.SEMICOLON && lit == "\n" {
			end = off + 1
			if off >= len(src) {
				continue // the one added at the end of the text
			}
		}
		out = append(out, tok{t: t, start: off, end: min(end, len(src)), lit: lit})
	}
	return out
}

// operandStart returns the index of the first token of the operand
// (identifiers, selectors, calls, indexes, parenthesised expressions)
// that ends with toks[last], or -1.
func operandStart(toks []tok, last int) int {
	i := last
	for i >= 0 {
		switch toks[i].t {
		case token.IDENT, token.STRING, token.INT, token.FLOAT, token.CHAR:
		case token.RPAREN, token.RBRACK:
			j := matchOpen(toks, i)
			if j < 0 {
				return -1
			}
			if j > 0 && endsOperand(toks[j-1].t) {
				i = j - 1 // a call or an index: its function or operand
				continue
			}
			if toks[i].t == token.RBRACK {
				return -1 // a slice type or literal: not followed
			}
			i = j // a parenthesised expression
		default:
			return -1
		}
		if i >= 2 && toks[i-1].t == token.PERIOD && endsOperand(toks[i-2].t) {
			i -= 2
			continue
		}
		return i
	}
	return -1
}

func endsOperand(t token.Token) bool {
	return t == token.IDENT || t == token.RPAREN || t == token.RBRACK
}

// matchOpen returns the index of the bracket that toks[i] closes, or -1.
func matchOpen(toks []tok, i int) int {
	depth := 0
	for j := i; j >= 0; j-- {
		switch toks[j].t {
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth++
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// exprType is what a typed expression denotes.
type exprType struct {
	pkg    string       // a package, by the path cells import it with
	typ    reflect.Type // the type of a value, or the type named
	isType bool         // typ is a type name (award_data.Frame), not a value's type
}

// typer types expressions of one cell for one request.
type typer struct {
	a     *Assistant
	code  string
	toks  []tok
	names []string // the session's variables
	depth int
}

func (a *Assistant) newTyper(code string, names []string) *typer {
	return &typer{a: a, code: code, toks: tokenize(code), names: names}
}

// operand returns the text and the type of the operand ending with token
// index last (exclusive of anything after it).
func (ty *typer) operand(last int) (string, exprType, bool) {
	first := operandStart(ty.toks, last)
	if first < 0 {
		return "", exprType{}, false
	}
	text := ty.code[ty.toks[first].start:ty.toks[last].end]
	e, err := parser.ParseExpr(text)
	if err != nil {
		return text, exprType{}, false
	}
	t, ok := ty.typeOf(e, text, ty.toks[first].start)
	return text, t, ok
}

// typeOf types e, whose source is text and which starts at byte offset at
// of the cell (assignments in the cell count only before it).
func (ty *typer) typeOf(e ast.Expr, text string, at int) (exprType, bool) {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return ty.typeOf(e.X, text, at)
	case *ast.BasicLit:
		switch e.Kind {
		case token.STRING:
			return exprType{typ: reflect.TypeFor[string]()}, true
		case token.INT:
			return exprType{typ: reflect.TypeFor[int]()}, true
		case token.FLOAT:
			return exprType{typ: reflect.TypeFor[float64]()}, true
		}
	case *ast.Ident:
		return ty.ident(e.Name, at)
	case *ast.SelectorExpr:
		x, ok := ty.typeOf(e.X, text, at)
		if !ok {
			return exprType{}, false
		}
		name := e.Sel.Name
		if x.pkg != "" {
			return packageMember(x.pkg, name)
		}
		if x.isType {
			if m, ok := methodOf(x.typ, name); ok {
				if x.typ.Kind() != reflect.Interface {
					return exprType{typ: m.Type}, true
				}
			}
			return exprType{}, false
		}
		if t, ok := memberType(x.typ, name); ok {
			return exprType{typ: t}, true
		}
		// A method of a type the cells declared is not in the reflect
		// type of its values; yaegi knows it. Evaluating a selector of
		// session variables calls nothing.
		if src := text[e.Pos()-1 : e.End()-1]; pureSelector(e) && contains(ty.names, rootIdent(e)) {
			if v, ok := ty.a.value(src); ok {
				return exprType{typ: v.Type()}, true
			}
		}
	case *ast.CallExpr:
		f, ok := ty.typeOf(e.Fun, text, at)
		if !ok || f.pkg != "" {
			return exprType{}, false
		}
		if f.isType {
			return exprType{typ: f.typ}, true // a conversion
		}
		if f.typ.Kind() == reflect.Func && f.typ.NumOut() > 0 {
			return exprType{typ: f.typ.Out(0)}, true
		}
	case *ast.IndexExpr:
		x, ok := ty.typeOf(e.X, text, at)
		if !ok || x.isType || x.pkg != "" {
			return exprType{}, false
		}
		t := x.typ
		if t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Array {
			t = t.Elem()
		}
		switch t.Kind() {
		case reflect.Slice, reflect.Array, reflect.Map:
			return exprType{typ: t.Elem()}, true
		case reflect.String:
			return exprType{typ: reflect.TypeFor[byte]()}, true
		}
	case *ast.StarExpr:
		x, ok := ty.typeOf(e.X, text, at)
		if ok && !x.isType && x.pkg == "" && x.typ.Kind() == reflect.Pointer {
			return exprType{typ: x.typ.Elem()}, true
		}
	}
	return exprType{}, false
}

// ident types a name: a variable the cell assigned before at, a session
// variable, or a package.
func (ty *typer) ident(name string, at int) (exprType, bool) {
	if rhs, start, ok := ty.assignment(name, at); ok && ty.depth < maxTypeDepth {
		ty.depth++
		defer func() { ty.depth-- }()
		if e, err := parser.ParseExpr(rhs); err == nil {
			if t, ok := ty.typeOf(e, rhs, start); ok {
				return t, true
			}
		}
	}
	if contains(ty.names, name) {
		if v, ok := ty.a.value(name); ok {
			return exprType{typ: v.Type()}, true
		}
		return exprType{}, false
	}
	if path, ok := packageNames()[name]; ok {
		return exprType{pkg: path}, true
	}
	return exprType{}, false
}

// assignment finds the last "name := expr", "name = expr" or
// "var name = expr" of the cell before byte offset at and returns the
// text of expr (up to the end of its statement) and its offset.
func (ty *typer) assignment(name string, at int) (string, int, bool) {
	toks := ty.toks
	for i := len(toks) - 2; i >= 0; i-- {
		if toks[i].start >= at || toks[i].t != token.IDENT || toks[i].lit != name {
			continue
		}
		if op := toks[i+1].t; op != token.DEFINE && op != token.ASSIGN {
			continue
		}
		// Only a single name on the left: "a, b := f()" is not followed.
		if i > 0 && toks[i-1].t == token.COMMA {
			continue
		}
		j := i + 2
		if j >= len(toks) || toks[j].start >= at {
			continue
		}
		depth, k := 0, j
		for ; k < len(toks) && toks[k].start < at; k++ {
			switch toks[k].t {
			case token.LPAREN, token.LBRACK, token.LBRACE:
				depth++
			case token.RPAREN, token.RBRACK, token.RBRACE:
				depth--
			}
			if depth < 0 || depth == 0 && (toks[k].t == token.SEMICOLON || toks[k].t == token.COMMA) {
				break
			}
		}
		if k == j || depth > 0 {
			continue
		}
		return ty.code[toks[j].start:toks[k-1].end], toks[j].start, true
	}
	return "", 0, false
}

// packageMember types a member of an allowed compiled package.
func packageMember(path, name string) (exprType, bool) {
	v, ok := symbols.Value(path, name)
	if !ok || !v.IsValid() {
		return exprType{}, false
	}
	switch {
	case v.Kind() == reflect.Func:
		return exprType{typ: v.Type()}, true
	case v.Kind() == reflect.Pointer && v.IsNil() && !v.CanAddr():
		return exprType{typ: v.Type().Elem(), isType: true}, true
	case v.CanAddr():
		return exprType{typ: v.Type()}, true
	}
	return exprType{}, false // a constant
}

// methodOf finds a method of t or, for an addressable value, of *t.
func methodOf(t reflect.Type, name string) (reflect.Method, bool) {
	if m, ok := t.MethodByName(name); ok {
		return m, true
	}
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface {
		return reflect.PointerTo(t).MethodByName(name)
	}
	return reflect.Method{}, false
}

// memberType is the type of field or method value name of a value of
// type t.
func memberType(t reflect.Type, name string) (reflect.Type, bool) {
	if m, ok := methodOf(t, name); ok {
		if t.Kind() == reflect.Interface {
			return m.Type, true
		}
		// Drop the receiver.
		in := make([]reflect.Type, 0, m.Type.NumIn()-1)
		for i := 1; i < m.Type.NumIn(); i++ {
			in = append(in, m.Type.In(i))
		}
		out := make([]reflect.Type, m.Type.NumOut())
		for i := range out {
			out[i] = m.Type.Out(i)
		}
		return reflect.FuncOf(in, out, m.Type.IsVariadic()), true
	}
	st := t
	if st.Kind() == reflect.Pointer {
		st = st.Elem()
	}
	if st.Kind() == reflect.Struct {
		if f, ok := st.FieldByName(name); ok && f.IsExported() {
			return f.Type, true
		}
	}
	return nil, false
}

// typeMembers lists the exported methods and fields of a value of type t
// (of the type itself, for a method expression).
func typeMembers(x exprType) []string {
	t := x.typ
	seen := map[string]bool{}
	var out []string
	add := func(n string) {
		if token.IsExported(n) && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, mt := range []reflect.Type{t, ptrOrNil(t)} {
		if mt == nil {
			continue
		}
		for i := 0; i < mt.NumMethod(); i++ {
			add(mt.Method(i).Name)
		}
	}
	if !x.isType {
		st := t
		if st.Kind() == reflect.Pointer {
			st = st.Elem()
		}
		if st.Kind() == reflect.Struct {
			for _, f := range reflect.VisibleFields(st) {
				add(f.Name)
			}
		}
	}
	sort.Strings(out)
	return out
}

func ptrOrNil(t reflect.Type) reflect.Type {
	if t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface {
		return nil
	}
	return reflect.PointerTo(t)
}

// pureSelector reports whether e is made of identifiers and dots only.
func pureSelector(e ast.Expr) bool {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return true
		case *ast.SelectorExpr:
			e = x.X
		default:
			return false
		}
	}
}

// rootIdent returns the leftmost identifier of a pure selector.
func rootIdent(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x.Name
		case *ast.SelectorExpr:
			e = x.X
		default:
			return ""
		}
	}
}

// typeName names t for a reader: "award_data.Frame", "[]string".
func typeName(t reflect.Type) string {
	s := t.String()
	return strings.ReplaceAll(s, "github.com/sbirtools/sbir-kernel/", "")
}
