package cellprep

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"
)

// Go 1.22 gives each iteration of a loop its own copy of the variables the
// loop declares; yaegi keeps one variable for the whole loop, so closures
// made in the body (goroutines, deferred calls, funcs kept in a slice) and
// pointers taken there (`ptrs = append(ptrs, &v)`) all see its last value.
// copyLoopVars plans, for each loop whose body captures one of its
// variables in a function literal or takes its address, a copy at the top
// of the body:
//
//	for i := 0; i < n; i++ { go f(func() { use(i) }) }
//	→ for i := 0; i < n; i++ { i := i; { go f(func() { use(i) }) }}
//
// The copy is the per-iteration variable. It is exact for range loops,
// whose variables the loop never reads back, and for three-clause loops
// whose body does not change the variable. A three-clause loop whose body
// may change it (assigns it, takes its address, calls a method on it) also
// copies the iteration's value back into the loop's variable when the
// iteration ends, as the spec's "initialized to the value of the previous
// iteration's variable" says, at the end of the body and before each
// continue of the loop:
//
//	for i := 0; i < n; i++ { ps = append(ps, &i); if c { continue }; i++ }
//	→ for i := 0; i < n; i++ { _sbirL1_0, i := &i, i; { ps = append(ps, &i);
//	  if c { *_sbirL1_0 = i; continue }; i++ }; *_sbirL1_0 = i }
//
// Such a loop whose body declares one of its names again (so that a
// continue may not see the iteration's variable) is left as written.
//
// At a cell's top level yaegi makes every variable a global, the copy
// included, so a loop there is first moved into a function literal called
// in place, `(func() { for … })()` (in parentheses: yaegi takes a chunk
// that starts with `func` for a declaration). The loop's variables are
// scoped to it, so nothing else changes (a defer there is the cell's and
// still runs when the cell ends), unless the statement holds a return or
// a label; such a statement keeps the shared variable.
//
// One walk over the segment: each identifier is matched against the
// innermost loop declaring its name, so nesting costs nothing extra.
func (c *checker) copyLoopVars(f *ast.File) {
	var w loopWalker
	if c.topList != nil {
		// Each top-level statement is walked as itself, so that a loop
		// knows the statement that holds it.
		for _, s := range c.topList {
			w.cur = s
			w.walk(s)
		}
	} else {
		w.walk(f)
	}
	wrapped := map[ast.Stmt]bool{}
	for k, l := range w.loops {
		back := l.assigned && !l.ranged // the body's value goes back to the loop
		if !l.captured && !l.addressed || back && l.redeclared {
			continue
		}
		at, end := c.off(l.body.Lbrace), c.off(l.body.Rbrace)
		if at < 0 || end < at {
			continue
		}
		if l.top != nil {
			ok, seen := wrapped[l.top]
			if !seen {
				ok = c.wrapInFunc(l.top)
				wrapped[l.top] = ok
			}
			if !ok {
				continue
			}
		}
		// The body goes in a block of its own, so that a copy the body
		// already makes (`i := i`, the pre-1.22 idiom) is legal.
		names := strings.Join(l.names, ", ")
		if !back {
			c.edits = append(c.edits, edit{at + 1, at + 1, " " + names + " := " + names + "; {"}, edit{end, end, "}"})
			continue
		}
		ptrs, addrs, store := make([]string, len(l.names)), make([]string, len(l.names)), ""
		for i, name := range l.names {
			ptrs[i] = "_sbirL" + strconv.Itoa(k) + "_" + strconv.Itoa(i)
			addrs[i] = "&" + name
			store += "*" + ptrs[i] + " = " + name + "; "
		}
		c.edits = append(c.edits,
			edit{at + 1, at + 1, " " + strings.Join(ptrs, ", ") + ", " + names + " := " + strings.Join(addrs, ", ") + ", " + names + "; {"},
			edit{end, end, "}; " + strings.TrimSuffix(store, " ")})
		for _, br := range l.continues {
			s := c.off(br.Pos())
			if s >= 0 {
				c.edits = append(c.edits, edit{s, s, "{ " + store}, edit{c.off(br.End()), c.off(br.End()), " }"})
			}
		}
	}
}

// wrapInFunc plans `(func() { stmt })()` for a top-level statement, keeping
// the statement's line and column, and reports whether it could.
func (c *checker) wrapInFunc(stmt ast.Stmt) bool {
	s, e := c.off(stmt.Pos()), c.off(stmt.End())
	if s < 0 || e < s || !movable(stmt) {
		return false
	}
	line, col := c.lines.pos(s)
	c.edits = append(c.edits,
		edit{s, s, "(func() {/*line :" + strconv.Itoa(line+1) + ":" + strconv.Itoa(col) + "*/"},
		edit{e, e, "})()"})
	return true
}

// movable reports whether a statement means the same inside a function
// literal: no return, goto or label outside nested literals. (A defer
// there is the cell's, rewritten to run when the cell ends, wherever it
// stands.)
func movable(stmt ast.Stmt) bool {
	ok := true
	ast.Inspect(stmt, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt, *ast.LabeledStmt:
			ok = false
		case *ast.BranchStmt:
			if n.Tok == token.GOTO || n.Label != nil {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// loopScope is one loop declaring variables.
type loopScope struct {
	names    []string
	body     *ast.BlockStmt
	funcs    int      // function literal depth at the loop
	top      ast.Stmt // the top-level statement holding a loop outside functions
	label    string   // the loop's label, if any
	captured bool     // a function literal in the body uses a variable
	// addressed is set when the body takes the address of a variable.
	addressed bool
	assigned  bool // the body may change a variable (see assign)
	ranged    bool // a range loop, which never reads its variables back
	// redeclared is set when the body declares one of the names again.
	redeclared bool
	// continues are the body's continue statements that end an
	// iteration of this loop.
	continues []*ast.BranchStmt
}

type loopWalker struct {
	loops  []*loopScope
	byName map[string][]*loopScope // innermost last
	funcs  int
	cur    ast.Stmt // the top-level statement being walked
	// open are the loops being walked, innermost last, those declaring
	// no variable included (as nil), with the function depth of each:
	// what a continue may end.
	open   []*loopScope
	depths []int
	labels map[ast.Stmt]string // labelled loops
}

func (w *loopWalker) walk(n ast.Node) {
	if n == nil {
		return
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.LabeledStmt:
			if w.labels == nil {
				w.labels = map[ast.Stmt]string{}
			}
			w.labels[n.Stmt] = n.Label.Name
		case *ast.ForStmt:
			w.walk(n.Init)
			w.walk(n.Cond)
			w.walk(n.Post)
			var names []string
			if a, ok := n.Init.(*ast.AssignStmt); ok && a.Tok == token.DEFINE {
				names = identNames(a.Lhs...)
			}
			w.loop(n, names, n.Body, false)
			return false
		case *ast.RangeStmt:
			w.walk(n.X)
			var names []string
			if n.Tok == token.DEFINE {
				names = identNames(n.Key, n.Value)
				w.declare(names...)
			}
			w.loop(n, names, n.Body, true)
			return false
		case *ast.FuncLit:
			w.funcs++
			w.walk(n.Body)
			w.funcs--
			return false
		case *ast.BranchStmt:
			if n.Tok == token.CONTINUE {
				w.continues(n)
			}
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				w.assign(n.Lhs...)
			} else {
				w.declare(identNames(n.Lhs...)...)
			}
		case *ast.ValueSpec:
			w.declare(identNames(identExprs(n.Names)...)...)
		case *ast.IncDecStmt:
			w.assign(n.X)
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				w.assign(n.X)
				if l := w.innermost(rootName(n.X)); l != nil {
					l.addressed = true
				}
			}
		case *ast.CallExpr:
			// c.M() may be a method with a pointer receiver, which
			// changes c through its address.
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
				w.assign(sel.X)
			}
		case *ast.Ident:
			if l := w.innermost(n.Name); l != nil && w.funcs > l.funcs {
				l.captured = true
			}
		}
		return true
	})
}

// loop walks the body of the loop stmt, with names declared per
// iteration.
func (w *loopWalker) loop(stmt ast.Stmt, names []string, body *ast.BlockStmt, ranged bool) {
	var l *loopScope
	if len(names) > 0 {
		if w.byName == nil {
			w.byName = map[string][]*loopScope{}
		}
		l = &loopScope{names: names, body: body, funcs: w.funcs, ranged: ranged}
		if w.funcs == 0 {
			l.top = w.cur
		}
		w.loops = append(w.loops, l)
		for _, name := range names {
			w.byName[name] = append(w.byName[name], l)
		}
	}
	label := w.labels[stmt]
	if l != nil {
		l.label = label
	} else if label != "" {
		l = &loopScope{label: label} // a target of continue, with no variables
	}
	w.open, w.depths = append(w.open, l), append(w.depths, w.funcs)
	w.walk(body)
	w.open, w.depths = w.open[:len(w.open)-1], w.depths[:len(w.depths)-1]
	for _, name := range names {
		s := w.byName[name]
		w.byName[name] = s[:len(s)-1]
	}
}

// continues records a continue statement on the loop it ends: the
// innermost loop of the same function, or the one with its label.
func (w *loopWalker) continues(br *ast.BranchStmt) {
	for i := len(w.open) - 1; i >= 0 && w.depths[i] == w.funcs; i-- {
		l := w.open[i]
		if br.Label == nil || l != nil && l.label == br.Label.Name {
			if l != nil && len(l.names) > 0 {
				l.continues = append(l.continues, br)
			}
			return
		}
	}
}

// declare marks the loops declaring any of names as declaring them again
// in their body.
func (w *loopWalker) declare(names ...string) {
	for _, name := range names {
		for _, l := range w.byName[name] {
			l.redeclared = true
		}
	}
}

func (w *loopWalker) innermost(name string) *loopScope {
	if s := w.byName[name]; len(s) > 0 {
		return s[len(s)-1]
	}
	return nil
}

// assign marks the loop declaring the variable an expression assigns,
// also through a field or an element (c.n++, a[0] = 1, c.M() above): the
// copy would hide the change from the loop's condition and post statement.
func (w *loopWalker) assign(exprs ...ast.Expr) {
	for _, e := range exprs {
		for x := applyTarget(e); x != nil; x = applyTarget(e) {
			e = x
		}
		if id, ok := e.(*ast.Ident); ok {
			if l := w.innermost(id.Name); l != nil {
				l.assigned = true
			}
		}
	}
}

// rootName returns the name of the variable an expression such as x,
// x.f or x[i] is part of, or "".
func rootName(e ast.Expr) string {
	for x := applyTarget(e); x != nil; x = applyTarget(e) {
		e = x
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// identExprs returns ids as expressions.
func identExprs(ids []*ast.Ident) []ast.Expr {
	out := make([]ast.Expr, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}

// identNames returns the names of the non-blank identifiers among exprs.
func identNames(exprs ...ast.Expr) []string {
	var names []string
	for _, e := range exprs {
		if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
			names = append(names, id.Name)
		}
	}
	return names
}

// applyTarget returns what a parenthesis, selector, index, slice or
// dereference is applied to, or nil for any other expression.
func applyTarget(e ast.Expr) ast.Expr {
	switch x := e.(type) {
	case *ast.ParenExpr:
		return x.X
	case *ast.SelectorExpr:
		return x.X
	case *ast.IndexExpr:
		return x.X
	case *ast.IndexListExpr:
		return x.X
	case *ast.StarExpr:
		return x.X
	case *ast.SliceExpr:
		return x.X
	}
	return nil
}
