package cellprep

import (
	"go/ast"
	"go/token"
	"slices"
	"strconv"
)

// helperStackBuf gives an empty slice gc's stack buffer (see the worker's
// helperSource).
const helperStackBuf = "_sbirStackBuf"

// Since Go 1.25, gc gives a slice that does not escape its function a
// 32-byte buffer on the stack, which its first growth takes: `var s
// []int` then `s = append(s, i)` in a loop reads cap 4 4 4 4 8 ..., not
// the runtime's 1 2 4 4 8. The interpreter does the same inside
// functions (yaegi patch 41); a cell's top-level statements, main's body
// in the program gc compiles, reach it in pieces, so the cell is looked
// at here, whole: for each slice variable the cell declares at its top
// level and uses only in ways that cannot make it escape, its first
// append of a fixed number of values gets, before it,
//
//	if len(s) == 0 { s = _sbirStackBuf(s, n) }
//
// which gives the slice the buffer's capacity when its elements and the n
// values fit, as gc's first growth does. A use in a later cell is not
// seen: a notebook has no single main to compare with; a variable of an
// earlier cell is a package-level one, whose growth is the runtime's.
//
// A cap(s) of a slice the cell declares and grows by append, which is
// neither one of those nor surely on the heap (its address taken, passed
// to fmt, used by a function the cell declares), is refused, as the
// interpreter does inside functions (yaegi patch 41): gc's escape analysis
// may still give s its buffer or grow it by another rule, and the cell
// would print other numbers than go run.

// stackBufSites returns the top-level append statements `s = append(s,
// v1, ..., vn)` of the cell whose slice takes gc's stack buffer, with n,
// and the cap calls refused, with their slice's name.
func stackBufSites(parsed []parsedSeg) (map[*ast.AssignStmt]int, map[*ast.CallExpr]string) {
	a := stackBufAnalysis{decls: map[string]int{}, declIdents: map[*ast.Ident]bool{},
		escapes: map[string]bool{}, first: map[string]*ast.AssignStmt{}, count: map[*ast.AssignStmt]int{},
		capAt: map[string]*ast.CallExpr{}, grown: map[string]bool{}, onHeap: map[string]bool{}}
	for _, ps := range parsed {
		for _, d := range ps.file.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				if ps.decl && d.Tok == token.VAR {
					a.walk(d, nil) // a top-level var declaration of the cell
				}
			case *ast.FuncDecl:
				switch {
				case ps.decl:
					// A function of the cell: the cell's variables it
					// uses are package-level ones.
					a.captured(d, localNames(d))
				case d.Body != nil:
					for _, s := range d.Body.List {
						a.walk(s, []ast.Node{d.Body})
					}
				}
			}
		}
	}
	sites := map[*ast.AssignStmt]int{}
	for name, as := range a.first {
		if a.decls[name] == 1 && !a.escapes[name] {
			sites[as] = a.count[as]
		}
	}
	refused := map[*ast.CallExpr]string{}
	for name, call := range a.capAt {
		emulated := a.decls[name] == 1 && !a.escapes[name] && a.first[name] != nil
		if a.decls[name] > 0 && a.grown[name] && !emulated && !a.onHeap[name] {
			refused[call] = name
		}
	}
	return sites, refused
}

// stackBufAnalysis is the state of stackBufSites' walk.
type stackBufAnalysis struct {
	decls      map[string]int // declarations by name
	declIdents map[*ast.Ident]bool
	escapes    map[string]bool
	first      map[string]*ast.AssignStmt // the first eligible append, by name
	count      map[*ast.AssignStmt]int
	capAt      map[string]*ast.CallExpr // the first cap(s), by name
	grown      map[string]bool          // s = append(s, ...) seen
	onHeap     map[string]bool          // a use that surely puts s on the heap
}

// captured marks every variable name used in n as escaping (field,
// method and label names aside). With locals, n is a function the cell
// declares, for which the cell's variables are package-level ones, on the
// heap; names in locals are its own. Cap calls and appends are noted.
func (a *stackBufAnalysis) captured(n ast.Node, locals map[string]bool) {
	var stack []ast.Node
	ast.Inspect(n, func(m ast.Node) bool {
		if m == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		switch m := m.(type) {
		case *ast.SelectorExpr:
			a.captured(m.X, locals)
			return false
		case *ast.KeyValueExpr:
			if _, isIdent := m.Key.(*ast.Ident); isIdent {
				a.captured(m.Value, locals)
				return false
			}
		case *ast.LabeledStmt:
			a.captured(m.Stmt, locals)
			return false
		case *ast.Field, *ast.BranchStmt:
			return false
		case *ast.Ident:
			if locals[m.Name] {
				break
			}
			a.escapes[m.Name] = true
			a.onHeap[m.Name] = a.onHeap[m.Name] || locals != nil
			a.note(m, stack)
		}
		stack = append(stack, m)
		return true
	})
}

// localNames returns the names f declares: receiver, parameters, results
// and variables at any depth.
func localNames(f *ast.FuncDecl) map[string]bool {
	names := map[string]bool{}
	add := func(es ...ast.Expr) {
		for _, e := range es {
			if id, ok := e.(*ast.Ident); ok {
				names[id.Name] = true
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			for _, id := range n.Names {
				add(id)
			}
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				add(n.Lhs...)
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				add(id)
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				add(n.Key, n.Value)
			}
		}
		return true
	})
	return names
}

// note records, for the refusal of cap calls, a use of the identifier id
// whose ancestors are stack: cap(id), id = append(id, ...), &id or id
// passed to fmt's printing functions (which keep their operands).
func (a *stackBufAnalysis) note(id *ast.Ident, stack []ast.Node) {
	parent := func(i int) ast.Node {
		if len(stack) > i {
			return stack[len(stack)-1-i]
		}
		return nil
	}
	switch p := parent(0).(type) {
	case *ast.UnaryExpr:
		if p.Op == token.AND {
			a.onHeap[id.Name] = true
		}
	case *ast.CallExpr:
		if f, ok := p.Fun.(*ast.Ident); ok && len(p.Args) > 0 && p.Args[0] == id {
			switch f.Name {
			case "cap":
				if a.capAt[id.Name] == nil {
					a.capAt[id.Name] = p
				}
			case "append":
				if as, ok := parent(1).(*ast.AssignStmt); ok && selfAppend(as, id.Name) {
					a.grown[id.Name] = true
				}
			}
			return
		}
		if isFmtPrint(p.Fun) && slices.Contains(p.Args, ast.Expr(id)) {
			a.onHeap[id.Name] = true
		}
	}
}

// isFmtPrint reports whether fun is fmt's Print, Sprint, Fprint, Append
// (and their ln and f forms) or Errorf, whose operands escape to the heap.
func isFmtPrint(fun ast.Expr) bool {
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "fmt" {
		return false
	}
	switch sel.Sel.Name {
	case "Print", "Println", "Printf", "Sprint", "Sprintln", "Sprintf", "Fprint", "Fprintln", "Fprintf",
		"Errorf", "Append", "Appendln", "Appendf":
		return true
	}
	return false
}

// declare records the declaration of e, whose ancestors are stack. A
// variable declared in a loop is declared again at each iteration, and
// gc's buffer serves only the first (once per call of main): it is left
// out.
func (a *stackBufAnalysis) declare(e ast.Expr, stack []ast.Node) {
	id, ok := e.(*ast.Ident)
	if !ok || id.Name == "_" {
		return
	}
	a.decls[id.Name]++
	a.declIdents[id] = true
	for _, n := range stack {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			a.decls[id.Name]++
		}
	}
}

// walk analyses n, whose ancestors are stack.
func (a *stackBufAnalysis) walk(n ast.Node, stack []ast.Node) {
	ast.Inspect(n, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			a.captured(n, nil)
			return false
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					a.declare(l, stack)
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				a.declare(id, stack)
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				a.declare(n.Key, append(stack, n))
				a.declare(n.Value, append(stack, n))
			}
		case *ast.TypeSwitchStmt:
			if as, ok := n.Assign.(*ast.AssignStmt); ok {
				for _, l := range as.Lhs {
					a.declare(l, stack)
				}
			}
		case *ast.Ident:
			if !a.declIdents[n] {
				a.note(n, stack)
				a.use(n, stack)
			}
		}
		stack = append(stack, n)
		return true
	})
}

// use records a use of the identifier id, whose ancestors are stack: one
// that keeps a slice from escaping (s = append(s, ...), len(s), cap(s),
// s[i] with no address taken, range s), with the first
// eligible append, or one that may let it escape.
func (a *stackBufAnalysis) use(id *ast.Ident, stack []ast.Node) {
	parent := func(i int) ast.Node {
		if len(stack) > i {
			return stack[len(stack)-1-i]
		}
		return nil
	}
	switch p := parent(0).(type) {
	case *ast.SelectorExpr:
		if p.Sel == id {
			return // a field or method name
		}
	case *ast.KeyValueExpr:
		if p.Key == id {
			return // a struct literal's field name
		}
	case *ast.Field, *ast.BranchStmt, *ast.LabeledStmt:
		return
	case *ast.AssignStmt:
		if selfAppend(p, id.Name) && p.Lhs[0] == id {
			return
		}
	case *ast.CallExpr:
		if f, ok := p.Fun.(*ast.Ident); ok && len(p.Args) > 0 && p.Args[0] == id {
			switch f.Name {
			case "len", "cap":
				return
			case "append":
				if as, ok := parent(1).(*ast.AssignStmt); ok && selfAppend(as, id.Name) && as.Rhs[0] == p {
					if a.first[id.Name] == nil && p.Ellipsis == token.NoPos && len(p.Args) > 1 && isStmtList(parent(2)) {
						a.first[id.Name] = as
						a.count[as] = len(p.Args) - 1
					}
					return
				}
			}
		}
	case *ast.RangeStmt:
		if p.X == id {
			return
		}
	case *ast.IndexExpr:
		if p.X == id && elementInPlaceUnused(parent) {
			return
		}
	}
	a.escapes[id.Name] = true
}

// elementInPlaceUnused reports whether s[i], the parent(0) of s, is used
// as a value (read, assigned, a method's receiver), not as the operand of
// & or of a slice expression, which refer to the element in place (a
// method with a pointer receiver does too, but gc finds most do not keep
// it).
func elementInPlaceUnused(parent func(int) ast.Node) bool {
	for i := 1; ; i++ {
		switch q := parent(i).(type) {
		case *ast.SelectorExpr, *ast.IndexExpr, *ast.ParenExpr:
			continue
		case *ast.UnaryExpr:
			return q.Op != token.AND
		case *ast.SliceExpr:
			return false
		}
		return true
	}
}

// isStmtList reports whether n holds a list of statements, where a
// statement may be inserted before another.
func isStmtList(n ast.Node) bool {
	switch n.(type) {
	case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
		return true
	}
	return false
}

// selfAppend reports whether a is `name = append(name, ...)`.
func selfAppend(a *ast.AssignStmt, name string) bool {
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

// planStackBuf inserts, before the append statement as, the statement
// that gives its slice gc's stack buffer (see stackBufSites).
func (c *checker) planStackBuf(as *ast.AssignStmt, n int) {
	at := c.off(as.Pos())
	if at < 0 {
		return
	}
	s := as.Lhs[0].(*ast.Ident).Name
	call := s + " = " + helperStackBuf + "(" + s + ", " + strconv.Itoa(n) + ")"
	if c.known != nil && c.known("len") {
		// The session or the cell declares a variable named len, a
		// global of the interpreter's that the guard would call: the
		// helper checks the length itself.
		c.edits = append(c.edits, edit{at, at, call + "; "})
		return
	}
	c.edits = append(c.edits, edit{at, at, "if len(" + s + ") == 0 { " + call + " }; "})
}

// gc also inlines small functions, and an inlined function's stack
// buffer belongs to its caller's frame, used once per call of the caller:
// a function that appends to a slice and reads its cap, called three times
// in a loop of main, prints cap 4 the first time and 1 after, where the
// interpreter gives the buffer at every call. Whether gc inlines a
// function depends on its inlining budget, which the kernel does not
// follow, so such a function (or one calling it) may be called only where
// the call runs once per call of its caller: not in a loop, a function
// literal, or as a function value.

// capFuncs returns the names of the functions and methods that the cell
// declares and that append to a slice and read its cap, or call one of
// those, given those of earlier cells (known).
func capFuncs(parsed []parsedSeg, known map[string]bool) map[string]bool {
	flagged := map[string]bool{}
	var funcs []*ast.FuncDecl
	for _, ps := range parsed {
		for _, d := range ps.file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && ps.decl && fd.Body != nil && fd.Name.Name != "main" {
				funcs = append(funcs, fd)
			}
		}
	}
	for _, fd := range funcs {
		grown, capped := map[string]bool{}, map[string]bool{}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if id, ok := n.Lhs[0].(*ast.Ident); ok && selfAppend(n, id.Name) {
					grown[id.Name] = true
				}
			case *ast.CallExpr:
				if f, ok := n.Fun.(*ast.Ident); ok && f.Name == "cap" && len(n.Args) == 1 {
					if id, ok := n.Args[0].(*ast.Ident); ok {
						capped[id.Name] = true
					}
				}
			}
			return true
		})
		for name := range grown {
			if capped[name] {
				flagged[fd.Name.Name] = true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, fd := range funcs {
			if !flagged[fd.Name.Name] && callsAny(fd.Body, func(name string) bool { return flagged[name] || known[name] }) {
				flagged[fd.Name.Name] = true
				changed = true
			}
		}
	}
	return flagged
}

// callsAny reports whether n uses a name for which flagged is true.
func callsAny(n ast.Node, flagged func(string) bool) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if id, ok := m.(*ast.Ident); ok && flagged(id.Name) {
			found = true
		}
		return !found
	})
	return found
}

// inlinedCapRefusals returns the uses of the functions flagged (see
// capFuncs) that may run more than once per call of their caller: calls
// in a loop or a function literal, and uses as a function value (go and
// defer statements, whose calls gc does not inline, aside).
func inlinedCapRefusals(parsed []parsedSeg, flagged func(string) bool) map[ast.Node]string {
	refused := map[ast.Node]string{}
	for _, ps := range parsed {
		var stack []ast.Node
		ast.Inspect(ps.file, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return false
			}
			switch n := n.(type) {
			case *ast.GoStmt, *ast.DeferStmt:
				return false
			case *ast.Ident:
				if flagged(n.Name) && inlinedMayRepeat(n, stack) {
					refused[n] = n.Name
				}
			}
			stack = append(stack, n)
			return true
		})
	}
	return refused
}

// isValueUse reports whether e, whose parent is p, is used as a value
// there (an operand, a value assigned, returned, sent or in a literal),
// not as a name declared, a field or a package.
func isValueUse(p ast.Node, e ast.Expr) bool {
	switch p := p.(type) {
	case *ast.CallExpr, *ast.CompositeLit, *ast.ReturnStmt, *ast.SendStmt:
		return true
	case *ast.AssignStmt:
		return slices.Contains(p.Rhs, e)
	case *ast.ValueSpec:
		return slices.Contains(p.Values, e)
	case *ast.KeyValueExpr:
		return p.Value == e
	}
	return false
}

// inlinedMayRepeat reports whether the use id of a flagged function,
// whose ancestors are stack, may run more than once per call of the
// function around it, or is not a call.
func inlinedMayRepeat(id *ast.Ident, stack []ast.Node) bool {
	var fun ast.Expr = id
	p := stack[len(stack)-1]
	if sel, ok := p.(*ast.SelectorExpr); ok && sel.Sel == id && len(stack) > 1 {
		fun, p, stack = sel, stack[len(stack)-2], stack[:len(stack)-1]
	}
	if call, ok := p.(*ast.CallExpr); !ok || call.Fun != fun {
		return isValueUse(p, fun)
	}
	for i := len(stack) - 2; i >= 0; i-- {
		switch stack[i].(type) {
		case *ast.ForStmt, *ast.RangeStmt, *ast.FuncLit:
			return true
		case *ast.FuncDecl:
			return false
		}
	}
	return false
}
