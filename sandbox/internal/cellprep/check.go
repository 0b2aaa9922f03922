package cellprep

import (
	"go/ast"
	"go/token"
	"sort"
	"strconv"
	"strings"

	"github.com/sbirtools/sbir-kernel/internal/importpath"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/allowlist"
)

// Names of the helpers the rewrites call. They live in the session's scope
// (see the worker's helperExports) and are hidden from completion.
const (
	HelperPrefix = "_sbir"
	HelperPkg    = "_sbir"
	helperMin    = "_sbirMin"
	helperMax    = "_sbirMax"
	helperClear  = "_sbir.Clear"
	helperGo     = "_sbir.Go"
	helperDefer  = "_sbir.Defer"
	// HelperReturn is what a return statement at a cell's top level
	// becomes: it ends the cell there, as return in main ends a program.
	HelperReturn = "_sbir.Return"
	// helperRecover is what recover becomes in a top-level deferred
	// function: it stops the panic of the cell's statements.
	helperRecover = "_sbir.Recover"
)

// maxArrayLen bounds array types: yaegi allocates them while compiling,
// and a huge one kills the process before any limit can act.
const maxArrayLen = 1 << 24

// maxSites bounds the go and top-level defer statements of one cell, which
// are rewritten with the text of what they contain.
const maxSites = 1000

// edit replaces code[start:end] (cell offsets) with text.
type edit struct {
	start, end int
	text       string
}

// applyEdits applies edits to text, which starts at offset base of the
// cell. Edits outside the text, or overlapping an earlier one, are
// ignored (the outer one wins).
func applyEdits(text string, base int, edits []edit) string {
	if len(edits) == 0 {
		return text
	}
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	var b strings.Builder
	last := 0
	for _, e := range edits {
		s, t := e.start-base, e.end-base
		if s < last || s < 0 || t > len(text) || t < s {
			continue
		}
		b.WriteString(text[last:s])
		b.WriteString(e.text)
		last = t
	}
	b.WriteString(text[last:])
	return b.String()
}

// site is a go or top-level defer statement, rewritten after the walk so
// that the rewrites inside it are kept.
type site struct {
	stmt ast.Stmt
	call *ast.CallExpr
	fn   string // helperGo or helperDefer
}

// checker walks one segment, refusing what the sandbox does not allow and
// planning rewrites of what yaegi cannot run. Every position it keeps is a
// byte offset of the cell.
type checker struct {
	code   string
	lines  *lineTable
	tf     *token.File
	prefix int // wrapper bytes before the segment in the parsed source
	base   int // the segment's cell offset
	end    int

	known      func(string) bool // declared by the session or this cell
	isInt      func(string) bool
	st         *State
	renameMain bool                     // the cell or session declares func main
	topLevel   bool                     // a statement segment
	topList    []ast.Stmt               // the top-level statements, in order
	topDefers  map[*ast.DeferStmt]bool  // outside any function, at any depth
	topReturns map[*ast.ReturnStmt]bool // likewise
	stackBufs  map[*ast.AssignStmt]int  // top-level appends given gc's stack buffer (stackbuf.go)
	capRefused map[*ast.CallExpr]string // cap calls refused, with their slice (stackbuf.go)
	// uses of functions reading cap after append refused, by name (stackbuf.go)
	inlineRefused map[ast.Node]string

	err *CheckError
	// interpOnly refuses what only the interpreter cannot run
	// (Prepared.InterpreterOnly): gc builds a compiled cell as it is.
	interpOnly *CheckError
	edits      []edit
	sites      []site
	imports    []string
	// renames are the cell offsets of the identifiers main renamed to
	// mainName: the one edit a compiled cell's text keeps.
	renames   []int
	types     map[string]ast.Expr
	callsMain bool
	// localInts are the names declared in the cell so far (parameters,
	// := and var inside functions, range variables), true for integers.
	// Scopes are not followed: the latest declaration met wins, so that
	// a name declared again as something else (s an int in one function,
	// a string parameter in the next) is no longer taken for an integer.
	localInts map[string]bool
}

// intName reports whether name is known to be an integer.
func (c *checker) intName(name string) bool {
	if isInt, ok := c.localInts[name]; ok {
		return isInt
	}
	return c.isInt(name)
}

// noteInts records the declarations met while walking: integers or not.
func (c *checker) noteInts(n ast.Node) {
	switch n := n.(type) {
	case *ast.FuncType:
		for _, fl := range []*ast.FieldList{n.Params, n.Results} {
			if fl == nil {
				continue
			}
			for _, f := range fl.List {
				for _, id := range f.Names {
					c.noteInt(id.Name, isIntType(f.Type))
				}
			}
		}
	case *ast.AssignStmt:
		if n.Tok == token.DEFINE {
			for i, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					c.noteInt(id.Name, len(n.Lhs) == len(n.Rhs) && isIntExpr(n.Rhs[i], c.intName))
				}
			}
		}
	case *ast.RangeStmt:
		if n.Tok == token.DEFINE {
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok {
					c.noteInt(id.Name, false) // its type is not known here
				}
			}
		}
	case *ast.ValueSpec:
		for i, id := range n.Names {
			c.noteInt(id.Name, isIntType(n.Type) || n.Type == nil && len(n.Values) == len(n.Names) && isIntExpr(n.Values[i], c.intName))
		}
	}
}

// noteInt records a declaration of name: an integer or not (which hides
// an integer of that name from earlier cells too).
func (c *checker) noteInt(name string, isInt bool) {
	if c.localInts == nil {
		c.localInts = map[string]bool{}
	}
	c.localInts[name] = isInt
}

// markTopLevel records the statements of a statement segment that are at
// the cell's top level (not inside a function), and the defers and
// returns outside functions.
func (c *checker) markTopLevel(f *ast.File) {
	if !c.topLevel || len(f.Decls) == 0 {
		return
	}
	if fd, ok := f.Decls[len(f.Decls)-1].(*ast.FuncDecl); ok && fd.Body != nil {
		c.topList = fd.Body.List
		c.checkBlockTypes(fd.Body.List)
		for _, s := range fd.Body.List {
			// A defer in a block, loop or if at the top level is the
			// cell's too: it runs when the cell ends.
			ast.Inspect(s, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					return false
				case *ast.DeferStmt:
					if c.topDefers == nil {
						c.topDefers = map[*ast.DeferStmt]bool{}
					}
					c.topDefers[n] = true
				case *ast.ReturnStmt:
					if c.topReturns == nil {
						c.topReturns = map[*ast.ReturnStmt]bool{}
					}
					c.topReturns[n] = true
				}
				return true
			})
		}
	}
}

// checkBlockTypes refuses, when the cell runs interpreted, a type
// declared inside a block, if, for, switch or select body among the
// cell's top-level statements. The interpreter
// declares the types of the statements it runs at the top level for the
// whole package, not for their block, and cannot compile the block's own
// uses of them ("undefined: U", "undefined type"), or takes a
// declaration of the same name elsewhere for it; gc scopes the type to
// its block. The message says how to write it instead.
func (c *checker) checkBlockTypes(top []ast.Stmt) {
	for _, s := range top {
		if _, ok := s.(*ast.DeclStmt); ok {
			continue // a type of the top level itself
		}
		ast.Inspect(s, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false // a function's types are its own
			case *ast.TypeSpec:
				name := n.Name.Name
				if c.interpOnly == nil {
					c.interpOnly = c.checkError(n.Pos(), "type "+name+" declared inside a block at the top level of a cell",
						"the interpreter cannot keep a type to a block of a cell's top-level statements (gc does); declare "+name+
							" at the top level of the cell, under a name no other declaration uses, move the block into a function, or compile the cell (//sbir:compile)")
				}
				return false
			}
			return true
		})
	}
}

// off converts a position of the segment's parse to a cell offset, or -1
// for a position in the wrapper.
func (c *checker) off(p token.Pos) int {
	if !p.IsValid() {
		return -1
	}
	o := c.tf.Offset(p) - c.prefix
	if o < 0 || o > c.end-c.base {
		return -1
	}
	return c.base + o
}

func (c *checker) fail(p token.Pos, construct, reason string) {
	if c.err == nil {
		c.err = c.checkError(p, construct, reason)
	}
}

// checkError is the refusal of construct at p, positioned in the cell.
func (c *checker) checkError(p token.Pos, construct, reason string) *CheckError {
	o := c.off(p)
	if o < 0 {
		o = c.base
	}
	line, col := c.lines.pos(o)
	return &CheckError{Line: line, Column: col, Construct: construct, Reason: reason}
}

// textOf returns the cell source of node n.
func (c *checker) textOf(n ast.Node) string {
	s, e := c.off(n.Pos()), c.off(n.End())
	if s < 0 || e < s {
		return ""
	}
	return c.code[s:e]
}

func (c *checker) Visit(n ast.Node) ast.Visitor {
	if c.err != nil || n == nil {
		return nil
	}
	c.noteInts(n)
	if f, ok := c.inlineRefused[n]; ok {
		c.fail(n.Pos(), "this use of "+f, f+" reads the cap() of a slice it appends to (or calls a function that does), which gc decides by inlining "+f+
			" into its caller, once per call of the caller: the kernel follows that only for a call that runs once per call of the function around it;"+
			" call "+f+" outside loops and function literals, or print len() instead of cap()")
		return nil
	}
	switch n := n.(type) {
	case *ast.GenDecl:
		if n.Tok == token.IMPORT {
			c.checkImports(n)
			return nil
		}
		if n.Tok == token.TYPE {
			c.checkTypes(n)
		}
	case *ast.GoStmt:
		c.addSite(n, n.Call, helperGo)
	case *ast.DeferStmt:
		if c.topDefers[n] {
			c.addSite(n, n.Call, helperDefer)
			c.rewriteRecover(n)
		}
	case *ast.ReturnStmt:
		if c.topReturns[n] {
			c.rewriteReturn(n)
		}
	case *ast.RangeStmt:
		c.checkRangeInt(n)
	case *ast.AssignStmt:
		if k, ok := c.stackBufs[n]; ok {
			c.planStackBuf(n, k)
		}
	case *ast.ArrayType:
		c.checkArrayLen(n)
	case *ast.CallExpr:
		if s, ok := c.capRefused[n]; ok {
			c.fail(n.Pos(), "cap("+s+") after append", "gc gives "+s+" a capacity its escape analysis decides, which the kernel follows only for a slice"+
				" used by nothing but append, len, cap, indexing and range (or passed to fmt); print len("+s+") instead")
			return nil
		}
		c.rewriteBuiltin(n)
		if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "main" && c.topLevel {
			c.callsMain = true
		}
	case *ast.SelectorExpr:
		if id, ok := n.X.(*ast.Ident); ok && id.Name == "unsafe" {
			c.fail(n.Pos(), "unsafe", "the unsafe package is not available in cells")
			return nil
		}
		// The selected name is a field or method, never the cell's main.
		ast.Walk(c, n.X)
		return nil
	case *ast.FuncDecl:
		if n.Body == nil {
			// Go takes such a declaration as implemented in assembly
			// (or linked by a directive), neither of which cells have.
			c.fail(n.Pos(), "a function without a body", "declare "+n.Name.Name+" with its body; a declaration without one is implemented in assembly, which cells cannot have")
			return nil
		}
		if n.Recv != nil {
			// A method named main is not the program's main.
			ast.Walk(c, n.Recv)
			ast.Walk(c, n.Type)
			if n.Body != nil {
				ast.Walk(c, n.Body)
			}
			return nil
		}
	case *ast.Ident:
		if strings.HasPrefix(n.Name, HelperPrefix) {
			// A cell's own _sbir would take the place of the helpers
			// the rewrites call (its Go, Defer) in later cells.
			c.fail(n.Pos(), "the name "+n.Name, "names starting with "+HelperPrefix+" are the kernel's own; choose another name")
			return nil
		}
		if c.renameMain && n.Name == "main" {
			if s := c.off(n.Pos()); s >= 0 {
				c.edits = append(c.edits, edit{s, s + len("main"), mainName})
				c.renames = append(c.renames, s)
			}
		}
	}
	return c
}

// refusedWhy says why a standard package people commonly reach for is
// refused, and what to use instead, where the list of allowed packages
// would not tell them.
var refusedWhy = map[string]string{
	"reflect": "reflect is not available to cells: a reflect.Value reaches the interpreter's and the worker's internals, which cells must never hold; " +
		"use a type switch or fmt's %T for a value's type, fmt's %+v for its fields, and encoding/json or encoding/xml for struct tags " +
		"(or, for tags of your own, a map from field name to setting)",
}

// requireDirective is how a cell declares a module (pkgenv.Directive,
// which the tests check this against).
const requireDirective = "//sbir:require"

// thirdParty returns why a cell may not import the package path, which is
// not in the allow-list and not a standard one, or "" when it may.
func (c *checker) thirdParty(path string) string {
	if c.st.third == nil {
		return "cells may import only the allowed standard packages and the packages of modules declared with " + requireDirective + "; this session declared none"
	}
	if err := c.st.third.CheckImports([]string{path}); err != nil {
		return err.Error()
	}
	return ""
}

// checkImports keeps imports of allowed packages (dropping the ones the
// session already has) and refuses the rest.
func (c *checker) checkImports(d *ast.GenDecl) {
	kept := 0
	for _, spec := range d.Specs {
		is := spec.(*ast.ImportSpec)
		path, err := strconv.Unquote(is.Path.Value)
		if err != nil {
			c.fail(is.Pos(), "import "+is.Path.Value, "the import path is not a valid string")
			return
		}
		switch {
		case path == "C":
			c.fail(is.Pos(), `import "C"`, "cgo is not available to cells")
			return
		case strings.HasPrefix(path, ".") || strings.HasPrefix(path, "/"):
			c.fail(is.Pos(), "the relative import "+is.Path.Value, "cells may import only the allowed packages: "+strings.Join(allowlist.Packages(), ", "))
			return
		case is.Name != nil && is.Name.Name == ".":
			c.fail(is.Pos(), "the dot import of "+is.Path.Value, "use the package name instead, e.g. strings.ToUpper")
			return
		case refusedWhy[path] != "":
			c.fail(is.Pos(), "import "+is.Path.Value, refusedWhy[path])
			return
		case !allowlist.Allowed(path) && importpath.IsStdlib(path):
			c.fail(is.Pos(), "import "+is.Path.Value, "cells may import only: "+strings.Join(allowlist.Packages(), ", ")+" (award_data and display are already imported), and the packages of modules declared with "+requireDirective)
			return
		case !allowlist.Allowed(path):
			// A third-party package: it must come from the session's
			// environment, and it is loaded when first imported.
			if reason := c.thirdParty(path); reason != "" {
				c.fail(is.Pos(), "import "+is.Path.Value, reason)
				return
			}
			name := ""
			if is.Name != nil {
				name = is.Name.Name
			}
			key := name + " " + path
			if c.st.imports[key] {
				c.blank(is)
				continue
			}
			c.imports = append(c.imports, key)
			kept++
			continue
		}
		if is.Name != nil && is.Name.Name == "_" {
			c.blank(is)
			continue
		}
		name := path[strings.LastIndexByte(path, '/')+1:]
		if is.Name != nil {
			name = is.Name.Name
		}
		// The cell's import is evaluated once per session even when the
		// session pre-imported the package: the interpreter then knows the
		// name is imported on purpose, so a later declaration of it is a
		// redeclaration, while a declaration that shadows a package the
		// cell never imported (a variable named list) replaces it.
		key := name + " " + path
		if c.st.imports[key] {
			c.blank(is)
			continue
		}
		c.imports = append(c.imports, key)
		kept++
	}
	if kept == 0 {
		c.blank(d)
	}
}

// blank replaces n's source with spaces, keeping newlines.
func (c *checker) blank(n ast.Node) {
	s, e := c.off(n.Pos()), c.off(n.End())
	if s < 0 || e < s {
		return
	}
	b := []byte(c.code[s:e])
	for i, ch := range b {
		if ch != '\n' {
			b[i] = ' '
		}
	}
	c.edits = append(c.edits, edit{s, e, string(b)})
}

// checkTypes refuses recursive value types (type T struct{ a T },
// type T [2]T): yaegi's compiler never returns from them.
func (c *checker) checkTypes(d *ast.GenDecl) {
	if c.types == nil {
		c.types = map[string]ast.Expr{}
	}
	for _, spec := range d.Specs {
		ts := spec.(*ast.TypeSpec)
		c.types[ts.Name.Name] = ts.Type
	}
	for _, spec := range d.Specs {
		ts := spec.(*ast.TypeSpec)
		if c.containsByValue(ts.Type, ts.Name.Name, map[string]bool{}) {
			c.fail(ts.Pos(), "the recursive type "+ts.Name.Name, "a type cannot contain itself by value (as in Go); use a pointer, e.g. *"+ts.Name.Name)
			return
		}
	}
}

// containsByValue reports whether type expression e contains the named
// type by value (not behind a pointer, slice, map, channel or func).
func (c *checker) containsByValue(e ast.Expr, name string, seen map[string]bool) bool {
	switch t := e.(type) {
	case *ast.Ident:
		if t.Name == name {
			return true
		}
		if seen[t.Name] {
			return false
		}
		seen[t.Name] = true
		if def, ok := c.types[t.Name]; ok {
			return c.containsByValue(def, name, seen)
		}
	case *ast.ParenExpr:
		return c.containsByValue(t.X, name, seen)
	case *ast.ArrayType:
		if t.Len != nil {
			return c.containsByValue(t.Elt, name, seen)
		}
	case *ast.StructType:
		for _, f := range t.Fields.List {
			if c.containsByValue(f.Type, name, seen) {
				return true
			}
		}
	}
	return false
}

// checkArrayLen refuses array types whose constant length is huge.
func (c *checker) checkArrayLen(a *ast.ArrayType) {
	if a.Len == nil {
		return
	}
	if n, ok := constInt(a.Len); ok && (n > maxArrayLen || n < 0) {
		c.fail(a.Pos(), "an array of "+strconv.FormatInt(n, 10)+" elements", "arrays are limited to "+strconv.Itoa(maxArrayLen)+" elements; use a slice, e.g. make([]byte, n), which counts against the heap limit")
	}
}

// constInt evaluates integer literals combined with + - * << only.
func constInt(e ast.Expr) (int64, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.INT {
			return 0, false
		}
		n, err := strconv.ParseInt(strings.ReplaceAll(e.Value, "_", ""), 0, 64)
		if err != nil {
			return 1 << 62, true // does not fit: certainly too large
		}
		return n, true
	case *ast.ParenExpr:
		return constInt(e.X)
	case *ast.BinaryExpr:
		x, ok1 := constInt(e.X)
		y, ok2 := constInt(e.Y)
		if !ok1 || !ok2 {
			return 0, false
		}
		switch e.Op {
		case token.SHL:
			if y >= 62 {
				return 1 << 62, true
			}
			return x << y, true
		case token.MUL:
			if x != 0 && y > (1<<62)/x {
				return 1 << 62, true
			}
			return x * y, true
		case token.ADD:
			return x + y, true
		case token.SUB:
			return x - y, true
		}
	}
	return 0, false
}

// checkRangeInt refuses `for i, v := range n` over an integer n, which gc
// refuses too. The interpreter ranges over integers itself (yaegi patch
// 36); the loop is no longer rewritten into a three-clause loop, which
// ran differently when the body assigned the loop variable.
func (c *checker) checkRangeInt(r *ast.RangeStmt) {
	if r.Value != nil && isIntExpr(r.X, c.intName) {
		c.fail(r.Pos(), "a two-variable range over an integer", "range over an integer yields one value; write `for i := range n`")
	}
}

func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}

// rewriteBuiltin maps the Go 1.21 builtins min, max and clear, which yaegi
// lacks, to helpers, unless the session defines those names itself.
func (c *checker) rewriteBuiltin(call *ast.CallExpr) {
	id, ok := call.Fun.(*ast.Ident)
	if !ok || c.known(id.Name) {
		return
	}
	var helper string
	switch id.Name {
	case "min":
		helper = helperMin
	case "max":
		helper = helperMax
	case "clear":
		helper = helperClear
	default:
		return
	}
	s := c.off(id.Pos())
	if s < 0 {
		return
	}
	c.edits = append(c.edits, edit{s, s + len(id.Name), helper})
	if helper == helperClear || len(call.Args) < 2 {
		return
	}
	// The helpers infer their type parameter from the first argument: put
	// a typed argument first so that min(1, x) with x float64 works, and
	// make integer literals floats when a float literal is among them.
	hasFloat := false
	for _, a := range call.Args {
		if b, ok := a.(*ast.BasicLit); ok && b.Kind == token.FLOAT {
			hasFloat = true
		}
	}
	if hasFloat {
		for _, a := range call.Args {
			if b, ok := a.(*ast.BasicLit); ok && b.Kind == token.INT {
				if as, ae := c.off(b.Pos()), c.off(b.End()); as >= 0 {
					// An untyped float constant of the same value, not
					// float64(...): a cell may declare a variable named
					// float64, which gc's max(3.5, 2) does not see.
					c.edits = append(c.edits, edit{as, ae, "(" + b.Value + " + 0.0)"})
				}
			}
		}
		return
	}
	if _, lit := call.Args[0].(*ast.BasicLit); !lit {
		return
	}
	for _, a := range call.Args {
		if hasRewrites(a) {
			// Swapping copies the arguments as written, which would drop
			// the rewrites inside them (a go statement, a nested min).
			return
		}
	}
	for _, a := range call.Args[1:] {
		if _, lit := a.(*ast.BasicLit); lit {
			continue
		}
		a0s, a0e := c.off(call.Args[0].Pos()), c.off(call.Args[0].End())
		as, ae := c.off(a.Pos()), c.off(a.End())
		if a0s < 0 || as < 0 {
			return
		}
		c.edits = append(c.edits, edit{a0s, a0e, c.code[as:ae]}, edit{as, ae, c.code[a0s:a0e]})
		return
	}
}

// hasRewrites reports whether n contains something preparation rewrites
// (a go or defer statement, a function literal that may hold one, or a
// call of min, max or clear), so that its text must not be copied as
// written.
func hasRewrites(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt, *ast.DeferStmt, *ast.FuncLit:
			found = true
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok && (id.Name == "min" || id.Name == "max" || id.Name == "clear") {
				found = true
			}
		}
		return !found
	})
	return found
}
