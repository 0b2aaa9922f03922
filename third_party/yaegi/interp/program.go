package interp

import (
	"context"
	"go/ast"
	"go/token"
	"os"
	"path"
	"reflect"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
)

// A Program is Go code that has been parsed and compiled.
type Program struct {
	pkgName string
	root    *node
	init    []*node
	redefs  []*node // sbir patch 52: pairs of redefined and new declarations
}

// PackageName returns name used in a package clause.
func (p *Program) PackageName() string {
	return p.pkgName
}

// FileSet is the fileset that must be used for parsing Go that will be passed
// to interp.CompileAST().
func (interp *Interpreter) FileSet() *token.FileSet {
	return interp.fset
}

// Compile parses and compiles a Go code represented as a string.
func (interp *Interpreter) Compile(src string) (*Program, error) {
	return interp.compileSrc(src, "", true)
}

// CompilePath parses and compiles a Go code located at the given path.
func (interp *Interpreter) CompilePath(path string) (*Program, error) {
	if !isFile(interp.filesystem, path) {
		_, err := interp.importSrc(mainID, path, NoTest)
		return nil, err
	}

	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return interp.compileSrc(string(b), path, false)
}

func (interp *Interpreter) compileSrc(src, name string, inc bool) (*Program, error) {
	if name != "" {
		interp.name = name
	}
	if interp.name == "" {
		interp.name = DefaultSourceName
	}

	// Parse source to AST.
	n, err := interp.parse(src, interp.name, inc)
	if err != nil {
		return nil, err
	}

	return interp.CompileAST(n)
}

// CompileAST builds a Program for the given Go code AST. Files and block
// statements can be compiled, as can most expressions. Var declaration nodes
// cannot be compiled.
//
// WARNING: The node must have been parsed using interp.FileSet(). Results are
// unpredictable otherwise.
func (interp *Interpreter) CompileAST(n ast.Node) (*Program, error) {
	return interp.compileAST(n, "")
}

// CompilePackage compiles src, the source of one file of a package, as
// part of the package of import path importPath, so that
// import "importPath" finds it without a source file system; a package
// is not limited to one file, and a file compiled later adds to it. It is
// how a host provides packages whose path is not their name
// ("math/rand/v2") as source (sbir patch 4). Execute the returned
// program before calling the package's functions: until then their
// package frame is not set up and non-generic functions return zero
// values.
func (interp *Interpreter) CompilePackage(importPath, src string) (*Program, error) {
	if interp.name == "" {
		interp.name = DefaultSourceName
	}
	n, err := interp.parse(src, interp.name, false)
	if err != nil {
		return nil, err
	}
	return interp.compileAST(n, importPath)
}

func (interp *Interpreter) compileAST(n ast.Node, importPath string) (*Program, error) {
	interp.redefs = nil // sbir patch 52: of this compilation only
	// Convert AST.
	pkgName, root, err := interp.ast(n)
	if err != nil || root == nil {
		return nil, err
	}
	if importPath == "" {
		importPath = pkgName
	} else {
		interp.mutex.Lock()
		interp.pkgNames[importPath] = pkgName
		interp.mutex.Unlock()
	}

	if interp.astDot {
		dotCmd := interp.dotCmd
		if dotCmd == "" {
			dotCmd = defaultDotCmd(interp.name, "yaegi-ast-")
		}
		root.astDot(dotWriter(dotCmd), interp.name)
		if interp.noRun {
			return nil, err
		}
	}

	// Perform global types analysis.
	if err = interp.gtaRetry([]*node{root}, importPath, pkgName); err != nil {
		return nil, err
	}

	// Annotate AST with CFG informations.
	initNodes, err := interp.cfg(root, nil, importPath, pkgName)
	if err != nil {
		if interp.cfgDot {
			dotCmd := interp.dotCmd
			if dotCmd == "" {
				dotCmd = defaultDotCmd(interp.name, "yaegi-cfg-")
			}
			root.cfgDot(dotWriter(dotCmd))
		}
		return nil, err
	}
	if err = interp.checkIndistinctTypes(root, importPath); err != nil { // sbir patch 60
		return nil, err
	}

	if root.kind != fileStmt {
		// REPL may skip package statement.
		setExec(root.start)
	}
	interp.mutex.Lock()
	gs := interp.scopes[importPath]
	if importPath != pkgName || interp.binPkg[importPath] != nil {
		// sbir patch 4: a package compiled under its import path. Or
		// sbir patch 11c: source completing a binary package of the same
		// path, which imports must keep finding (not the universe's).
		interp.srcPkg[importPath] = gs.sym
	} else if interp.universe.sym[pkgName] == nil {
		// Make the package visible under a path identical to its name.
		interp.srcPkg[pkgName] = gs.sym
		interp.universe.sym[pkgName] = &symbol{kind: pkgSym, typ: &itype{cat: srcPkgT, path: pkgName}}
		interp.pkgNames[pkgName] = pkgName
	}
	interp.mutex.Unlock()

	// Add main to list of functions to run, after all inits.
	if m := gs.sym[mainID]; pkgName == mainID && m != nil {
		initNodes = append(initNodes, m.node)
	}

	if interp.cfgDot {
		dotCmd := interp.dotCmd
		if dotCmd == "" {
			dotCmd = defaultDotCmd(interp.name, "yaegi-cfg-")
		}
		root.cfgDot(dotWriter(dotCmd))
	}

	redefs := interp.redefs
	interp.redefs = nil
	return &Program{importPath, root, initNodes, redefs}, nil
}

// Execute executes compiled Go code.
func (interp *Interpreter) Execute(p *Program) (res reflect.Value, err error) {
	defer func() {
		r := recover()
		if r != nil {
			var pc [64]uintptr // 64 frames should be enough.
			n := runtime.Callers(1, pc[:])
			err = Panic{Value: r, Callers: pc[:n], Stack: debug.Stack(), Previous: interp.panics.take()}
		}
	}()
	interp.panics.take() // sbir patch 69: a new run has no earlier panics

	// Generate node exec closures.
	if err = genRun(p.root); err != nil {
		return res, err
	}
	// sbir patch 52: calls compiled against a function or method that
	// this program declares again call the new declaration from now on.
	for i := 0; i+1 < len(p.redefs); i += 2 {
		redeclare(p.redefs[i], p.redefs[i+1])
	}

	// Init interpreter execution memory frame.
	interp.frame.setrunid(interp.runid())
	interp.frame.mutex.Lock()
	interp.resizeFrame()
	interp.frame.mutex.Unlock()

	// Execute node closures.
	interp.run(p.root, nil)

	// Wire and execute global vars.
	n, err := genGlobalVars([]*node{p.root}, interp.scopes[p.pkgName])
	if err != nil {
		return res, err
	}
	interp.run(n, nil)

	for _, n := range p.init {
		interp.run(n, interp.frame)
	}
	v := genValue(p.root)
	res = v(interp.frame)

	// If result is an interpreter node, wrap it in a runtime callable function.
	// sbir patch 132: only a value that can be a node is read. When the
	// last statement has no value, res is whatever variable its slot
	// holds (a global of the program's), which goroutines the evaluation
	// started may be writing: Interface copied it, unsynchronised.
	if res.IsValid() && (res.Type() == nodePtrType || res.Kind() == reflect.Interface) {
		if n, ok := res.Interface().(*node); ok {
			res = genFunctionWrapper(n)(interp.frame)
		}
	}

	return res, err
}

// nodePtrType is the type of the interpreter's function values before
// they are wrapped (sbir patch 132).
var nodePtrType = reflect.TypeOf((*node)(nil))

// ExecuteWithContext executes compiled Go code.
func (interp *Interpreter) ExecuteWithContext(ctx context.Context, p *Program) (res reflect.Value, err error) {
	interp.mutex.Lock()
	interp.done = make(chan struct{})
	interp.cancelChan = !interp.opt.fastChan
	interp.mutex.Unlock()

	// sbir patch 131: the execution hands its results over a channel.
	// It wrote the named results res and err, which a cancelled call
	// was setting and returning at the same time: a data race on a
	// reflect.Value and an error interface (torn, or the execution's
	// results returned after the cancel).
	type result struct {
		res reflect.Value
		err error
	}
	done := make(chan result, 1)
	go func() {
		var r result
		defer func() { done <- r }()
		r.res, r.err = interp.Execute(p)
	}()

	select {
	case <-ctx.Done():
		interp.stop()
		return reflect.Value{}, ctx.Err()
	case r := <-done:
		return r.res, r.err
	}
}

// ImportImplicitly imports the packages at paths into the main package
// the way a host does so that code needs no import statements: a later
// import of another package under the same name, or a top-level
// declaration of the name, replaces such an import instead of failing as
// a redeclaration, as if the source's file had never imported it. An
// explicit import of the same package makes it an ordinary import again
// (sbir patch 11).
func (interp *Interpreter) ImportImplicitly(paths ...string) error {
	if len(paths) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("import (\n")
	for _, p := range paths {
		b.WriteString("\t" + strconv.Quote(p) + "\n")
	}
	b.WriteString(")")
	if _, err := interp.Eval(b.String()); err != nil {
		return err
	}
	want := make(map[string]bool, len(paths))
	for _, p := range paths {
		if base := path.Base(p); path.Dir(p) == base {
			p = base // as gta records it
		}
		want[p] = true
	}
	interp.mutex.Lock()
	defer interp.mutex.Unlock()
	sc := interp.scopes[mainID]
	if sc == nil {
		return nil
	}
	for _, sym := range sc.sym {
		if sym.kind == pkgSym && sym.typ != nil && want[sym.typ.path] {
			sym.implicit = true
		}
	}
	return nil
}
