package cellprep

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"
)

// Go 1.22 gives each iteration of a loop its own copy of the variables the
// loop declares; yaegi keeps one variable for the whole loop, so closures
// made in the body (goroutines, deferred calls, funcs kept in a slice) all
// see its last value. copyLoopVars plans, for each loop whose body
// captures one of its variables in a function literal, a copy at the top
// of the body:
//
//	for i := 0; i < n; i++ { go f(func() { use(i) }) }
//	→ for i := 0; i < n; i++ { i := i; { go f(func() { use(i) }) }}
//
// The copy is the per-iteration variable. It is exact for range loops,
// whose variables the loop never reads back, and for three-clause loops
// whose body does not assign the variable; a body that assigns it (or
// takes its address) is left as written, since the copy would hide the
// assignment from the loop's condition and post statement.
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
	for _, l := range w.loops {
		if !l.captured || l.assigned && !l.ranged {
			continue
		}
		at := c.off(l.body.Lbrace)
		if at < 0 {
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
		end := c.off(l.body.Rbrace)
		if end < at {
			continue
		}
		// The body goes in a block of its own, so that a copy the body
		// already makes (`i := i`, the pre-1.22 idiom) is legal.
		names := strings.Join(l.names, ", ")
		c.edits = append(c.edits, edit{at + 1, at + 1, " " + names + " := " + names + "; {"}, edit{end, end, "}"})
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
	captured bool     // a function literal in the body uses a variable
	assigned bool     // the body may change a variable (see assign)
	ranged   bool     // a range loop, which never reads its variables back
}

type loopWalker struct {
	loops  []*loopScope
	byName map[string][]*loopScope // innermost last
	funcs  int
	cur    ast.Stmt // the top-level statement being walked
}

func (w *loopWalker) walk(n ast.Node) {
	if n == nil {
		return
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ForStmt:
			w.walk(n.Init)
			w.walk(n.Cond)
			w.walk(n.Post)
			var names []string
			if a, ok := n.Init.(*ast.AssignStmt); ok && a.Tok == token.DEFINE {
				names = identNames(a.Lhs...)
			}
			w.loop(names, n.Body, false)
			return false
		case *ast.RangeStmt:
			w.walk(n.X)
			var names []string
			if n.Tok == token.DEFINE {
				names = identNames(n.Key, n.Value)
			}
			w.loop(names, n.Body, true)
			return false
		case *ast.FuncLit:
			w.funcs++
			w.walk(n.Body)
			w.funcs--
			return false
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				w.assign(n.Lhs...)
			}
		case *ast.IncDecStmt:
			w.assign(n.X)
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				w.assign(n.X)
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

// loop walks body with names declared per iteration.
func (w *loopWalker) loop(names []string, body *ast.BlockStmt, ranged bool) {
	if len(names) == 0 {
		w.walk(body)
		return
	}
	if w.byName == nil {
		w.byName = map[string][]*loopScope{}
	}
	l := &loopScope{names: names, body: body, funcs: w.funcs, ranged: ranged}
	if w.funcs == 0 {
		l.top = w.cur
	}
	w.loops = append(w.loops, l)
	for _, name := range names {
		w.byName[name] = append(w.byName[name], l)
	}
	w.walk(body)
	for _, name := range names {
		s := w.byName[name]
		w.byName[name] = s[:len(s)-1]
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
