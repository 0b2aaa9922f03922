package interp

import (
	"go/ast"
	"go/token"
	"reflect"
)

// sbir patch 41: append's first growth as gc compiles it.
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
//
// A cap(s) that reads the capacity of a slice variable s of a function
// that appends to s, where s is neither one of those nor surely on the
// heap (its address taken, or passed to fmt, which keeps its operands),
// is refused with a *StackCapError: gc's escape analysis may still give
// s its buffer, or grow it by another rule (Go 1.26 grows some slices
// that escape only at the end 1, 2, 3, 4), and the interpreter would
// print other numbers.
func stackAppendSites(f ast.Node) (map[*ast.CallExpr]bool, *StackCapError) {
	sites := map[*ast.CallExpr]bool{}
	var refused *StackCapError
	ast.Inspect(f, func(n ast.Node) bool {
		var err *StackCapError
		switch fn := n.(type) {
		case *ast.FuncDecl:
			if fn.Body != nil {
				err = findStackAppends(fn.Recv, fn.Type, fn.Body, sites)
			}
		case *ast.FuncLit:
			err = findStackAppends(nil, fn.Type, fn.Body, sites)
		}
		if refused == nil {
			refused = err
		}
		return true
	})
	return sites, refused
}

// StackCapError refuses a cap(s) whose value gc's escape analysis decides
// (see stackAppendSites).
type StackCapError struct {
	Pos   token.Pos // the cap call
	Slice string    // the slice variable
}

func (e *StackCapError) Error() string {
	return "cap(" + e.Slice + ") after append is not supported here: gc gives " + e.Slice +
		" a capacity its escape analysis decides, which the interpreter follows only for a slice used by nothing but" +
		" append, len, cap, indexing and range (or passed to fmt); print len(" + e.Slice + ") instead"
}

// stackCapUses records, for the refusal of stackAppendSites, the cap(s)
// calls, the self-appends and the uses that surely put s on the heap.
type stackCapUses struct {
	capAt  map[string]token.Pos
	grown  map[string]bool
	onHeap map[string]bool
}

// note records the use of id, whose parent is p.
func (u *stackCapUses) note(id *ast.Ident, p ast.Node, grand ast.Node, localFmt bool) {
	switch p := p.(type) {
	case *ast.UnaryExpr:
		if p.Op == token.AND {
			u.onHeap[id.Name] = true
		}
	case *ast.CallExpr:
		if f, ok := p.Fun.(*ast.Ident); ok && len(p.Args) > 0 && p.Args[0] == id {
			switch f.Name {
			case "cap":
				if _, seen := u.capAt[id.Name]; !seen {
					u.capAt[id.Name] = p.Pos()
				}
			case "append":
				if a, ok := grand.(*ast.AssignStmt); ok && isSelfAppend(a, id.Name) {
					u.grown[id.Name] = true
				}
			}
			return
		}
		if !localFmt && isFmtPrint(p.Fun) {
			u.onHeap[id.Name] = true
		}
	}
}

// isFmtPrint reports whether fun is fmt's Print, Sprint, Fprint (and
// their ln and f forms) or Errorf, whose operands escape to the heap.
func isFmtPrint(fun ast.Expr) bool {
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "fmt" {
		return false
	}
	switch sel.Sel.Name {
	case "Print", "Println", "Printf", "Sprint", "Sprintln", "Sprintf", "Fprint", "Fprintln", "Fprintf", "Errorf", "Append", "Appendln", "Appendf":
		return true
	}
	return false
}

// findStackAppends adds to sites the first append of each slice variable
// of the function (recv, typ, body) that cannot escape it, or refuses a
// cap call (see stackAppendSites).
func findStackAppends(recv *ast.FieldList, typ *ast.FuncType, body *ast.BlockStmt, sites map[*ast.CallExpr]bool) *StackCapError {
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
	uses := stackCapUses{capAt: map[string]token.Pos{}, grown: map[string]bool{}, onHeap: map[string]bool{}}
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
			var inner []ast.Node
			ast.Inspect(n, func(m ast.Node) bool {
				if m == nil {
					inner = inner[:len(inner)-1]
					return false
				}
				if id, ok := m.(*ast.Ident); ok {
					escapes[id.Name] = true
					uses.note(id, inner[len(inner)-1], parentOf(inner, 1), decls["fmt"] > 0)
				}
				inner = append(inner, m)
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
				uses.note(n, parentOf(stack, 0), parentOf(stack, 1), decls["fmt"] > 0)
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
	var refused *StackCapError
	for name, at := range uses.capAt {
		emulated := decls[name] == 1 && !escapes[name] && first[name] != nil
		if decls[name] > 0 && uses.grown[name] && !emulated && !uses.onHeap[name] && (refused == nil || at < refused.Pos) {
			refused = &StackCapError{Pos: at, Slice: name}
		}
	}
	return refused
}

// parentOf returns the i-th ancestor (0: the parent) at the top of stack.
func parentOf(stack []ast.Node, i int) ast.Node {
	if len(stack) > i {
		return stack[len(stack)-1-i]
	}
	return nil
}

// stackAppendUse reports whether the identifier id, whose ancestors are
// stack, is used in a way that keeps a slice variable of that name from
// escaping: s = append(s, v...) (then site is the append call if it may
// take gc's buffer: a fixed number of values), len(s), cap(s), s[i] (its
// address not taken) or range s. A name used
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
		// s[i], s[i].f, s[i][j], s[i].M(): not as an operand of & or of
		// a slice expression, which refer to the element in place (a
		// method with a pointer receiver does too, but gc finds most do
		// not keep it).
		for i := 1; ; i++ {
			switch q := parent(i).(type) {
			case *ast.SelectorExpr, *ast.IndexExpr, *ast.ParenExpr:
				continue
			case *ast.UnaryExpr:
				return nil, q.Op != token.AND
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
	elem := n.child[1].typ.elem()
	if t.Kind() != reflect.Slice || elem == nil {
		return exec
	}
	size, _, ok := gcSizeof(elem, 0)
	if !ok || size == 0 || size > stackAppendBuffer || count > int(stackAppendBuffer/size) {
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

// gcSizeof returns the size and alignment gc gives a value of type t,
// which the reflect type yaegi builds for it need not have: an
// interpreted interface is a valueInterface of 32 bytes, where gc's
// interfaces take 16. ok is false for a type it cannot size.
func gcSizeof(t *itype, depth int) (size, align uintptr, ok bool) {
	const word = 8
	if t == nil || depth > 10 {
		return 0, 0, false
	}
	switch t.cat {
	case linkedT:
		return gcSizeof(t.val, depth+1)
	case interfaceT, errorT:
		return 2 * word, word, true
	case structT:
		var off, maxAlign uintptr = 0, 1
		for _, f := range t.field {
			s, a, ok := gcSizeof(f.typ, depth+1)
			if !ok {
				return 0, 0, false
			}
			off = (off + a - 1) &^ (a - 1)
			off += s
			maxAlign = max(maxAlign, a)
		}
		if off > 0 && len(t.field) > 0 {
			// A final zero-size field gets a byte, as gc pads it.
			if s, _, _ := gcSizeof(t.field[len(t.field)-1].typ, depth+1); s == 0 {
				off++
			}
		}
		return (off + maxAlign - 1) &^ (maxAlign - 1), maxAlign, true
	case arrayT:
		s, a, ok := gcSizeof(t.val, depth+1)
		return s * uintptr(t.length), a, ok
	}
	rt := t.TypeOf()
	if rt == nil {
		return 0, 0, false
	}
	return rt.Size(), uintptr(rt.Align()), true
}
