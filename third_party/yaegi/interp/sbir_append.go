package interp

import (
	"go/ast"
	"go/token"
	"reflect"
)

// sbir patch 40: append's first growth as gc compiles it.
//
// Since Go 1.25, gc gives a slice that does not escape its function a
// 32-byte buffer on the stack: the first append that must grow it (its
// length 0, the new length fitting the buffer) takes the buffer, so its
// capacity becomes 32/size-of-element (4 for ints, 2 for strings, 32
// for bytes) rather than what the runtime's growslice picks (1, 1, 8);
// later growth is growslice's, from there. Programs that print cap()
// while appending (a staple of tutorials) print gc's numbers, so the
// interpreter picks the same capacity where gc surely does: the first
// append of a fixed number of values, in the function that declares the
// slice, to a variable that nothing but appends, len, cap, indexing and
// range loops uses (so it cannot escape), of elements at most 32 bytes
// large. Only functions are analysed, not a cell's top-level statements,
// which the sandbox evaluates in pieces. As gc, once per call of the
// function (a flag in its frame), on the buffer's first use only.

// stackAppendSite marks, in node.meta, an append call that gc may
// compile with a stack buffer; cfg replaces it with a stackAppend.
type stackAppendSite struct{}

// stackAppend holds the frame index of the flag that says the buffer of
// an append call was used in this call of its function.
type stackAppend struct{ used int }

// stackAppendBuffer is gc's buffer size (cmd/compile's
// VariableMakeThreshold).
const stackAppendBuffer = 32

// stackAppendSites returns the append calls of the functions in f that
// gc compiles with a stack buffer for their slice.
func stackAppendSites(f ast.Node) map[*ast.CallExpr]bool {
	sites := map[*ast.CallExpr]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch fn := n.(type) {
		case *ast.FuncDecl:
			if fn.Body != nil {
				findStackAppends(fn.Recv, fn.Type, fn.Body, sites)
			}
		case *ast.FuncLit:
			findStackAppends(nil, fn.Type, fn.Body, sites)
		}
		return true
	})
	return sites
}

// findStackAppends adds to sites the first append of each slice variable
// of the function (recv, typ, body) that cannot escape it.
func findStackAppends(recv *ast.FieldList, typ *ast.FuncType, body *ast.BlockStmt, sites map[*ast.CallExpr]bool) {
	decls := map[string]int{} // declarations by name; params count twice
	declIdents := map[*ast.Ident]bool{}
	for _, fl := range []*ast.FieldList{recv, typ.Params, typ.Results} {
		if fl == nil {
			continue
		}
		for _, f := range fl.List {
			for _, id := range f.Names {
				decls[id.Name] += 2
			}
		}
	}
	declare := func(e ast.Expr) {
		if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
			decls[id.Name]++
			declIdents[id] = true
		}
	}
	escapes := map[string]bool{}
	first := map[string]*ast.CallExpr{}
	var order []string
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			// A variable used in a function literal is captured: it may
			// outlive the call (gc: may escape).
			ast.Inspect(n, func(m ast.Node) bool {
				if id, ok := m.(*ast.Ident); ok {
					escapes[id.Name] = true
				}
				return true
			})
			return false
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					declare(l)
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				declare(id)
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				declare(n.Key)
				declare(n.Value)
			}
		case *ast.TypeSwitchStmt:
			if a, ok := n.Assign.(*ast.AssignStmt); ok {
				for _, l := range a.Lhs {
					declare(l)
				}
			}
		case *ast.Ident:
			if !declIdents[n] {
				site, ok := stackAppendUse(n, stack)
				switch {
				case !ok:
					escapes[n.Name] = true
				case site != nil && first[n.Name] == nil:
					first[n.Name] = site
					order = append(order, n.Name)
				}
			}
		}
		stack = append(stack, n)
		return true
	})
	for _, name := range order {
		if decls[name] == 1 && !escapes[name] {
			sites[first[name]] = true
		}
	}
}

// stackAppendUse reports whether the identifier id, whose ancestors are
// stack, is used in a way that keeps a slice variable of that name from
// escaping: s = append(s, v...) (then site is the append call if it may
// take gc's buffer: a fixed number of values), len(s), cap(s), s[i] (its
// address not taken, no method called on it) or range s. A name used
// otherwise, or not a variable (a field, a key, a label), may escape.
func stackAppendUse(id *ast.Ident, stack []ast.Node) (site *ast.CallExpr, ok bool) {
	parent := func(i int) ast.Node {
		if len(stack) > i {
			return stack[len(stack)-1-i]
		}
		return nil
	}
	switch p := parent(0).(type) {
	case *ast.SelectorExpr:
		if p.Sel == id {
			return nil, true // a field or method name
		}
	case *ast.KeyValueExpr:
		if p.Key == id {
			return nil, true // a struct literal's field name
		}
	case *ast.BranchStmt, *ast.LabeledStmt:
		return nil, true
	case *ast.Field:
		for _, n := range p.Names {
			if n == id {
				return nil, true // a field or parameter of a type written here
			}
		}
	case *ast.AssignStmt:
		if isSelfAppend(p, id.Name) && p.Lhs[0] == id {
			return nil, true
		}
	case *ast.CallExpr:
		if f, isIdent := p.Fun.(*ast.Ident); isIdent && len(p.Args) > 0 && p.Args[0] == id {
			switch f.Name {
			case "len", "cap":
				return nil, true
			case "append":
				if a, isAssign := parent(1).(*ast.AssignStmt); isAssign && isSelfAppend(a, id.Name) && a.Rhs[0] == p {
					if p.Ellipsis == token.NoPos && len(p.Args) > 1 {
						return p, true
					}
					return nil, true
				}
			}
		}
	case *ast.RangeStmt:
		if p.X == id {
			return nil, true
		}
	case *ast.IndexExpr:
		if p.X != id {
			return nil, false
		}
		// s[i], s[i].f, s[i][j]: not as an operand of &, a method call
		// or a slice expression, which refer to the element in place.
		for i := 1; ; i++ {
			switch q := parent(i).(type) {
			case *ast.SelectorExpr, *ast.IndexExpr, *ast.ParenExpr:
				continue
			case *ast.UnaryExpr:
				return nil, q.Op != token.AND
			case *ast.CallExpr:
				return nil, q.Fun != parent(i-1)
			case *ast.SliceExpr:
				return nil, false
			}
			return nil, true
		}
	}
	return nil, false
}

// isSelfAppend reports whether a is `name = append(name, ...)`.
func isSelfAppend(a *ast.AssignStmt, name string) bool {
	if a.Tok != token.ASSIGN || len(a.Lhs) != 1 || len(a.Rhs) != 1 {
		return false
	}
	l, ok := a.Lhs[0].(*ast.Ident)
	if !ok || l.Name != name {
		return false
	}
	c, ok := a.Rhs[0].(*ast.CallExpr)
	if !ok || len(c.Args) == 0 {
		return false
	}
	f, ok := c.Fun.(*ast.Ident)
	s, ok2 := c.Args[0].(*ast.Ident)
	return ok && ok2 && f.Name == "append" && s.Name == name
}

// genStackAppend wraps exec, the append n of count values to the slice
// n.child[1], so that it takes gc's stack buffer when gc's would: the
// first time in this call of the function, if the slice is empty and
// must grow, and the values fit the buffer. The slice is then given the
// buffer's capacity before the append.
func genStackAppend(n *node, count int, exec bltn) bltn {
	sa, ok := n.meta.(stackAppend)
	if !ok || n.action == aCallSlice {
		return exec
	}
	t := n.child[1].typ.TypeOf()
	if t.Kind() != reflect.Slice {
		return exec
	}
	size := t.Elem().Size()
	if size == 0 || size > stackAppendBuffer || count > int(stackAppendBuffer/size) {
		return exec
	}
	k := int(stackAppendBuffer / size)
	slice := genValue(n.child[1])
	return func(f *frame) bltn {
		if used := f.data[sa.used]; !used.Bool() {
			if s := slice(f); s.Len() == 0 && s.Cap() < count && s.CanSet() {
				used.SetBool(true)
				s.Set(reflect.MakeSlice(t, 0, k))
			}
		}
		return exec(f)
	}
}
