package cellprep

import (
	"go/ast"
	"go/token"
	"sort"
	"strconv"
	"strings"
)

// addSite records a go statement, or a defer at the cell's top level, to
// be rewritten once the walk has planned the rewrites inside it.
func (c *checker) addSite(stmt ast.Stmt, call *ast.CallExpr, fn string) {
	if len(c.sites) == maxSites {
		c.fail(stmt.Pos(), "a cell with more than "+strconv.Itoa(maxSites)+" go and defer statements",
			"split it into several cells, or start goroutines in a loop")
		return
	}
	c.sites = append(c.sites, site{stmt: stmt, call: call, fn: fn})
}

// finish rewrites the recorded go and defer statements, innermost first,
// each with the already rewritten text of what it contains:
//
//	go f(x, y)       →  { _sbirG1_0, _sbirG1_1 := x, y; _sbir.Go(func() { f(_sbirG1_0, _sbirG1_1) }) }
//	go c.M(x)        →  { _sbirG1_f, _sbirG1_0 := c.M, x; _sbir.Go(func() { _sbirG1_f(_sbirG1_0) }) }
//	go f(), go f(1)  →  _sbir.Go(f), _sbir.Go(f, 1)
//	go func() {…}()  →  _sbir.Go(func() {…})
//	go println(x)    →  { _sbirG1_0 := x; _sbir.Go(func() { println(_sbirG1_0) }) }
//	defer f(x)       →  { _sbirG1_0 := x; _sbir.Defer(func() { f(_sbirG1_0) }) }   (top level only)
//
// The arguments are evaluated where the statement stands, as Go does; the
// helpers start the goroutine under the cell's supervision, or run the
// deferred call when the cell ends. The rewritten text has as many
// newlines as the statement, so that later lines keep their numbers.
func (c *checker) finish() {
	if c.err != nil || len(c.sites) == 0 {
		return
	}
	sort.SliceStable(c.edits, func(i, j int) bool { return c.edits[i].start < c.edits[j].start })
	r := &renderer{c: c, used: make([]bool, len(c.edits))}
	sort.SliceStable(c.sites, func(i, j int) bool {
		a, b := c.sites[i].stmt, c.sites[j].stmt
		return b.End()-b.Pos() > a.End()-a.Pos()
	})
	for k, s := range c.sites {
		start, end := c.off(s.stmt.Pos()), c.off(s.stmt.End())
		if start < 0 || end < start {
			continue
		}
		r.add(edit{start, end, r.siteText(k+1, s, start, end)})
	}
	c.edits = r.remaining()
}

// renderer applies planned edits to parts of the cell, consuming them.
type renderer struct {
	c     *checker
	used  []bool // of c.edits, sorted by start
	outer []edit // the sites' own edits
	oused []bool
}

func (r *renderer) add(e edit) {
	r.outer = append(r.outer, e)
	r.oused = append(r.oused, false)
}

// render returns code[s:e] with the edits inside it applied, and marks them
// used.
func (r *renderer) render(s, e int) string {
	var inside []edit
	edits := r.c.edits
	i := sort.Search(len(edits), func(i int) bool { return edits[i].start >= s })
	for ; i < len(edits) && edits[i].start < e; i++ {
		if !r.used[i] && edits[i].end <= e {
			inside = append(inside, edits[i])
			r.used[i] = true
		}
	}
	for j, o := range r.outer {
		if !r.oused[j] && o.start >= s && o.end <= e {
			inside = append(inside, o)
			r.oused[j] = true
		}
	}
	return applyEdits(r.c.code[s:e], s, inside)
}

// remaining returns the edits not consumed by a site, and the sites' own.
func (r *renderer) remaining() []edit {
	var out []edit
	for i, e := range r.c.edits {
		if !r.used[i] {
			out = append(out, e)
		}
	}
	for j, o := range r.outer {
		if !r.oused[j] {
			out = append(out, o)
		}
	}
	return out
}

// siteText is the rewritten text of site number k.
func (r *renderer) siteText(k int, s site, start, end int) string {
	c := r.c
	call := s.call
	fs, fe := c.off(call.Fun.Pos()), c.off(call.Fun.End())
	fun := r.render(fs, fe)
	var b strings.Builder
	id, isIdent := call.Fun.(*ast.Ident)
	builtin := isIdent && builtins[id.Name]
	if lit, ok := call.Fun.(*ast.FuncLit); ok && len(call.Args) == 0 && lit.Type.Params.NumFields() == 0 {
		// go func() { ... }(): the literal is the goroutine.
		b.WriteString(s.fn + "(" + fun + ")")
	} else if !builtin && !call.Ellipsis.IsValid() && allConst(call.Args) {
		// go f() → _sbir.Go(f), go f(1, "a") → _sbir.Go(f, 1, "a"): the
		// function value is evaluated here; literal constants need no
		// copies (the helper converts them to the parameters' types).
		b.WriteString(s.fn + "(" + fun)
		for _, a := range call.Args {
			b.WriteString(", " + r.render(c.off(a.Pos()), c.off(a.End())))
		}
		b.WriteString(")")
	} else {
		// go f(x, y) → { _sbirGk_0, _sbirGk_1 := x, y; _sbir.Go(func() {
		// f(_sbirGk_0, _sbirGk_1) }) }, go c.M(x) → { _sbirGk_f,
		// _sbirGk_0 := c.M, x; _sbir.Go(func() { _sbirGk_f(_sbirGk_0) })
		// }: the arguments, and a function value other than a name, are
		// evaluated here, as Go does, and the call
		// stays interpreted code, which converts the arguments to the
		// parameters' types (a value of an interpreted type passed as an
		// interface) and spreads f(xs...). The closure keeps the copies of
		// its own loop iteration (yaegi patch 10a).
		var names, values, args []string
		if !isIdent {
			// A name is called as written, so that a generic function's
			// type arguments are inferred; other function values (method
			// values, f[T], calls) are evaluated here.
			names, values = append(names, "_sbirG"+strconv.Itoa(k)+"_f"), append(values, fun)
			fun = names[0]
		}
		for i, a := range call.Args {
			text := r.render(c.off(a.Pos()), c.off(a.End()))
			if isConstArg(a) {
				args = append(args, text)
				continue
			}
			name := "_sbirG" + strconv.Itoa(k) + "_" + strconv.Itoa(i)
			names, values, args = append(names, name), append(values, text), append(args, name)
		}
		b.WriteString("{ ")
		if len(names) > 0 {
			b.WriteString(strings.Join(names, ", ") + " := " + strings.Join(values, ", ") + "; ")
		}
		b.WriteString(s.fn + "(func() { " + fun + "(" + strings.Join(args, ", "))
		if call.Ellipsis.IsValid() {
			b.WriteString("...")
		}
		b.WriteString(") }) }")
	}
	out := b.String()
	if missing := strings.Count(c.code[start:end], "\n") - strings.Count(out, "\n"); missing > 0 {
		out += strings.Repeat("\n", missing)
	}
	return out
}

// builtins are the predeclared functions, which cannot be used as values,
// and the helpers that stand for some of them.
var builtins = map[string]bool{
	"append": true, "cap": true, "clear": true, "close": true, "complex": true, "copy": true,
	"delete": true, "imag": true, "len": true, "make": true, "max": true, "min": true, "new": true,
	"panic": true, "print": true, "println": true, "real": true, "recover": true,
	helperMin: true, helperMax: true,
}

// allConst reports whether every argument is a literal constant.
func allConst(args []ast.Expr) bool {
	for _, a := range args {
		if !isConstArg(a) {
			return false
		}
	}
	return true
}

// isConstArg reports whether an argument is a literal constant, which is
// passed as written: bound to a variable it would lose its untyped-ness
// (go f(1) with f(float64)).
func isConstArg(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return true
	case *ast.UnaryExpr:
		return e.Op != token.ARROW && isConstArg(e.X)
	case *ast.Ident:
		return e.Name == "nil" || e.Name == "true" || e.Name == "false"
	}
	return false
}

// rewriteReturn makes a return statement at the cell's top level (outside
// any function) end the cell, as return in func main ends a program: the
// code of func main pasted into a cell keeps working. Top-level deferred
// calls still run, and goroutines are waited for as at the cell's end.
// A return with values has no function to return them from.
func (c *checker) rewriteReturn(n *ast.ReturnStmt) {
	if len(n.Results) > 0 {
		c.fail(n.Pos(), "return with values at the top level of a cell",
			"a return outside a function ends the cell, like return in func main, and takes no values; print them, or write a function")
		return
	}
	if s := c.off(n.Pos()); s >= 0 {
		c.edits = append(c.edits, edit{s, s + len("return"), HelperReturn + "()"})
	}
}

// rewriteRecover makes recover, called by a function literal deferred at
// the cell's top level, stop a panic of the cell's statements, as a
// deferred recover in func main stops a panic of main: the cell's
// deferred calls run when it ends (after a panic too), so the real
// recover there would see no panic. A recover in a function the
// literal calls, or in a function literal inside it, is not the deferred
// function's own and stays (it returns nil, as in Go).
func (c *checker) rewriteRecover(d *ast.DeferStmt) {
	lit, ok := d.Call.Fun.(*ast.FuncLit)
	if !ok {
		return
	}
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "recover" && len(n.Args) == 0 {
				if s := c.off(id.Pos()); s >= 0 {
					c.edits = append(c.edits, edit{s, s + len("recover"), helperRecover})
				}
			}
		}
		return true
	})
}
