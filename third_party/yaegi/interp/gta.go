package interp

import (
	"path"
	"path/filepath"
)

// gta performs a global types analysis on the AST, registering types,
// variables and functions symbols at package level, prior to CFG.
// All function bodies are skipped. GTA is necessary to handle out of
// order declarations and multiple source files packages.
// rpath is the relative path to the directory containing the source for the package.
func (interp *Interpreter) gta(root *node, rpath, importPath, pkgName string) ([]*node, error) {
	sc := interp.initScopePkg(importPath, pkgName)
	var err error
	var revisit []*node

	baseName := filepath.Base(interp.fset.Position(root.pos).Filename)

	root.Walk(func(n *node) bool {
		if err != nil {
			return false
		}
		defer positionPanic(n, "global type analysis panic") // sbir patch 72
		if n.scope == nil {
			n.scope = sc
		}
		switch n.kind {
		case constDecl:
			// Early parse of constDecl subtree, to compute all constant
			// values which may be used in further declarations.
			if _, err = interp.cfg(n, sc, importPath, pkgName); err != nil && !isConstantFitError(err) {
				// No error processing here, to allow recovery in subtree nodes.
				// TODO(marc): check for a non recoverable error and return it for better diagnostic.
				// sbir patch 180: a constant that does not fit its type is final.
				err = nil
			}

		case blockStmt:
			if n != root {
				return false // skip statement block if not the entry point
			}

		case ifStmt0, ifStmt1, ifStmt2, ifStmt3, forStmt0, forStmt1, forStmt2, forStmt3,
			forStmt4, forStmt5, forStmt6, forStmt7, forRangeStmt, switchStmt, switchIfStmt,
			typeSwitch, selectStmt:
			// sbir patch 13: what these statements declare (if x := ...; ...)
			// is scoped to them, not to the package, even at top level.
			return false

		case defineStmt:
			var (
				atyp *itype
				err2 error
			)
			if n.nleft+n.nright < len(n.child) {
				// Type is declared explicitly in the assign expression.
				if atyp, err2 = nodeType(interp, sc, n.child[n.nleft]); err2 != nil {
					// The type does not exist yet, stash the error and come back
					// when the type is known.
					n.meta = err2
					revisit = append(revisit, n)
					return false
				}
			}

			var sbase int
			if n.nright > 0 {
				sbase = len(n.child) - n.nright
			}

			redefined := topLevelRedefined(sc, n) // sbir patch 195
			for i := 0; i < n.nleft; i++ {
				dest, src := n.child[i], n.child[sbase+i]
				if isBlank(src) {
					err = n.cfgErrorf("cannot use _ as value")
				}

				if old := redefined[dest]; old != nil && old.typ.hasNil() && isPredeclaredNil(sc, src) {
					dest.redeclared = true // sbir patch 195: nil assigned to a declared variable
					continue
				}
				val := src.rval
				if n.anc.kind == constDecl {
					if _, err2 := interp.cfg(n, sc, importPath, pkgName); err2 != nil {
						// Constant value can not be computed yet.
						// Come back when child dependencies are known.
						revisit = append(revisit, n)
						return false
					}
				}
				typ := atyp
				if typ == nil && isTopLevelStmt(n) {
					// sbir patch 51: a statement at the top level of an
					// evaluation runs in order, after what it uses, so
					// when nodeType cannot tell the type of what it
					// defines, cfg, which types every expression, does.
					if typ, err2 = topLevelType(interp, sc, src); err2 != nil && (isBuiltinCall(src, sc) || isPredeclaredNil(sc, src)) {
						// The type errors nodeType itself finds, as global
						// analysis reports them in a package: untyped nil
						// (which has no type for cfg to give either) and a
						// builtin's arguments (complex("a", 2)). Other errors
						// stay cfg's to report, with its own wording.
						n.meta = err2
						revisit = append(revisit, n)
						return false
					}
					if typ == nil {
						typ = sc.getType("interface{}")
					}
					val = src.rval
				}
				if typ == nil {
					if typ, err2 = nodeType(interp, sc, src); err2 != nil || typ == nil {
						// The type does is not known yet, stash the error and come back
						// when the type is known.
						n.meta = err2
						revisit = append(revisit, n)
						return false
					}
					val = src.rval
				}
				if !typ.isComplete() {
					// Come back when type is known.
					revisit = append(revisit, n)
					return false
				}
				if typ.cat == nilT {
					err = n.cfgErrorf("use of untyped nil")
					return false
				}
				if typ.isBinMethod {
					typ = valueTOf(typ.methodCallType(), isBinMethod(), withScope(sc))
				}
				if old := redefined[dest]; old != nil && redefinable(n, old, typ) {
					dest.redeclared = true // sbir patch 195: assigned by cfg, of its own type
					continue
				}
				sc.dropImplicitImport(dest.ident, baseName) // sbir patch 11
				sc.sym[dest.ident] = &symbol{kind: varSym, global: true, index: sc.add(typ), typ: typ, rval: val, node: n}
				if n.anc.kind == constDecl {
					sc.sym[dest.ident].kind = constSym
					if i < n.nleft-1 {
						// sbir patch 20c: iota counts specs, not names.
						continue
					}
					if childPos(n) == len(n.anc.child)-1 {
						sc.iota = 0
					} else {
						sc.iota++
					}
				}
			}
			return false

		case defineXStmt:
			for _, c := range n.child[:len(n.child)-1] {
				sc.dropImplicitImport(c.ident, baseName) // sbir patch 11
			}
			err = compDefineX(sc, n)

		case valueSpec:
			l := len(n.child) - 1
			if n.typ = n.child[l].typ; n.typ == nil {
				if n.typ, err = nodeType(interp, sc, n.child[l]); err != nil {
					return false
				}
				if !n.typ.isComplete() {
					// Come back when type is known.
					revisit = append(revisit, n)
					return false
				}
			}
			for _, c := range n.child[:l] {
				sc.dropImplicitImport(c.ident, baseName) // sbir patch 11
				asImportName := filepath.Join(c.ident, baseName)
				sym, exists := sc.sym[asImportName]
				if !exists {
					sc.sym[c.ident] = &symbol{index: sc.add(n.typ), kind: varSym, global: true, typ: n.typ, node: n}
					continue
				}
				c.level = globalFrame

				// redeclaration error
				if sym.typ.node != nil && sym.typ.node.anc != nil {
					prevDecl := n.interp.fset.Position(sym.typ.node.anc.pos)
					err = n.cfgErrorf("%s redeclared in this block\n\tprevious declaration at %v", c.ident, prevDecl)
					return false
				}
				err = n.cfgErrorf("%s redeclared in this block", c.ident)
				return false
			}

		case funcDecl:
			if n.typ, err = nodeType(interp, sc, n.child[2]); err != nil {
				return false
			}
			genericMethod := false
			ident := n.child[1].ident
			switch {
			case isMethod(n):
				// Add a method symbol in the receiver type name space
				var rcvrtype *itype
				n.ident = ident
				rcvr := n.child[0].child[0]
				rtn := rcvr.lastChild()
				typName, typPtr := rtn.ident, false
				// Identifies the receiver type name. It could be an ident, a
				// generic type (indexExpr), or a pointer on either lasts.
				if typName == "" {
					typName = rtn.child[0].ident
					switch rtn.kind {
					case starExpr:
						typPtr = true
						switch c := rtn.child[0]; c.kind {
						case indexExpr, indexListExpr:
							typName = c.child[0].ident
							genericMethod = true
						}
					case indexExpr, indexListExpr:
						genericMethod = true
					}
				}
				sym, _, found := sc.lookup(typName)
				if !found {
					n.meta = n.cfgErrorf("undefined: %s", typName)
					revisit = append(revisit, n)
					return false
				}
				if sym.typ.path != pkgName {
					err = n.cfgErrorf("cannot define new methods on non-local type %s", baseType(sym.typ).id())
					return false
				}
				rcvrtype = sym.typ
				if typPtr {
					elementType := sym.typ
					rcvrtype = ptrOf(elementType, withNode(rtn), withScope(sc))
					rcvrtype.incomplete = elementType.incomplete
					interp.declareMethod(elementType, n) // sbir patch 52
				}
				interp.declareMethod(rcvrtype, n)
				rtn.typ = rcvrtype
				if sym.typ.cat == genericT {
					// generate methods for already instantiated receivers
					// (sbir patch 90: of a pointer receiver too, whose
					// rcvrtype is the pointer type)
					for _, it := range sym.typ.instance {
						if err = genMethod(interp, sc, it, n, it.node.anc.param); err != nil {
							return false
						}
					}
				}
			case ident == "init":
				// init functions do not get declared as per the Go spec.
			default:
				sc.dropImplicitImport(ident, baseName) // sbir patch 11
				asImportName := filepath.Join(ident, baseName)
				if _, exists := sc.sym[asImportName]; exists {
					// redeclaration error
					err = n.cfgErrorf("%s redeclared in this block", ident)
					return false
				}
				// Add a function symbol in the package name space except for init
				if old, ok := sc.sym[ident]; ok && old.kind == funcSym && old.node != nil && old.node != n && old.node.kind == funcDecl {
					interp.redefs = append(interp.redefs, old.node, n) // sbir patch 52
				}
				sc.sym[ident] = &symbol{kind: funcSym, typ: n.typ, node: n, index: -1}
			}
			if !n.typ.isComplete() && !genericMethod {
				revisit = append(revisit, n)
			}
			return false

		case importSpec:
			var name, ipath string
			if len(n.child) == 2 {
				ipath = constToString(n.child[1].rval)
				name = n.child[0].ident
			} else {
				ipath = constToString(n.child[0].rval)
			}
			// Try to import a binary package first, or a source package
			var pkgName string
			if packageName := path.Base(ipath); path.Dir(ipath) == packageName {
				ipath = packageName
			}
			if pkg := interp.binPkg[ipath]; pkg != nil {
				switch name {
				case "_": // no import of symbols
				case ".": // import symbols in current scope
					for n, v := range pkg {
						typ := v.Type()
						kind := binSym
						if isBinType(v) {
							typ = typ.Elem()
							kind = typeSym
						}
						sc.sym[n] = &symbol{kind: kind, typ: valueTOf(typ, withScope(sc)), rval: v}
					}
				default: // import symbols in package namespace
					if name == "" {
						name = interp.pkgNames[ipath]
					}

					// If an incomplete type exists, delete it
					if sym, exists := sc.sym[name]; exists && sym.kind == typeSym && sym.typ.incomplete {
						delete(sc.sym, name)
					}

					// Imports of a same package are all mapped in the same scope, so we cannot just
					// map them by their names, otherwise we could have collisions from same-name
					// imports in different source files of the same package. Therefore, we suffix
					// the key with the basename of the source file.
					pname := name
					name = filepath.Join(name, baseName)
					// sbir patch 11: an import replaces one the host made
					// implicitly, and a binary package may be imported again
					// by a later evaluation (not twice by one file).
					if sym, exists := sc.sym[name]; !exists || sym.kind == pkgSym && sym.implicit {
						sc.sym[name] = &symbol{kind: pkgSym, typ: &itype{cat: binPkgT, path: ipath, scope: sc}, node: n}
						break
					} else if sym.kind == pkgSym && sym.typ.cat == binPkgT && sym.typ.path == ipath && !importedTwice(sym.node, n) {
						// ignore re-import of identical package
						break
					}

					// redeclaration error. Not caught by the parser.
					err = n.cfgErrorf("%s redeclared in this block", pname)
					return false
				}
			} else if pkgName, err = interp.importSrc(rpath, ipath, NoTest); err == nil {
				sc.types = interp.universe.types
				switch name {
				case "_": // no import of symbols
				case ".": // import symbols in current namespace
					for k, v := range interp.srcPkg[ipath] {
						if canExport(k) {
							sc.sym[k] = v
						}
					}
				default: // import symbols in package namespace
					if name == "" {
						name = pkgName
					}
					pname := name
					name = filepath.Join(name, baseName)
					// sbir patch 11: an import replaces one the host made
					// implicitly.
					if sym, exists := sc.sym[name]; !exists || sym.kind == pkgSym && sym.implicit {
						sc.sym[name] = &symbol{kind: pkgSym, typ: &itype{cat: srcPkgT, path: ipath, scope: sc}}
						break
					} else if sym.kind == pkgSym && sym.typ.cat == srcPkgT && sym.typ.path == ipath {
						// ignore re-import of identical package
						break
					}

					// redeclaration error
					err = n.cfgErrorf("%s redeclared as imported package name", pname)
					return false
				}
			} else {
				err = n.cfgErrorf("import %q error: %v", ipath, err)
			}

		case typeSpec, typeSpecAssign:
			if isBlank(n.child[0]) {
				err = n.cfgErrorf("cannot use _ as value")
				return false
			}
			typeName := n.child[0].ident
			if len(n.child) > 2 {
				// Handle a generic type: skip definition as parameter is not instantiated yet.
				n.typ = genericOf(nil, typeName, pkgName, withNode(n.child[0]), withScope(sc))
				if _, exists := sc.sym[typeName]; !exists {
					sc.sym[typeName] = &symbol{kind: typeSym, node: n}
				}
				sc.sym[typeName].typ = n.typ
				return false
			}
			var typ *itype
			if typ, err = nodeType(interp, sc, n.child[1]); err != nil {
				err = nil
				revisit = append(revisit, n)
				return false
			}

			if n.kind == typeSpecAssign {
				// Create an aliased type in the current scope
				sc.sym[typeName] = &symbol{kind: typeSym, node: n, typ: typ}
				n.typ = typ
				break
			}

			// else we are not an alias (typeSpec)

			switch n.child[1].kind {
			case identExpr, selectorExpr:
				n.typ = namedOf(typ, pkgName, typeName, withNode(n.child[0]), withScope(sc))
				n.typ.incomplete = typ.incomplete
				n.typ.field = typ.field
				copy(n.typ.method, typ.method)
			default:
				n.typ = typ
				n.typ.name = typeName
				n.typ.path = pkgName
			}
			n.typ.str = n.typ.path + "." + n.typ.name

			sc.dropImplicitImport(typeName, baseName) // sbir patch 11
			asImportName := filepath.Join(typeName, baseName)
			if _, exists := sc.sym[asImportName]; exists {
				// redeclaration error
				err = n.cfgErrorf("%s redeclared in this block", typeName)
				return false
			}
			sym, exists := sc.sym[typeName]
			if !exists {
				sym = &symbol{kind: typeSym, node: n}
				sc.sym[typeName] = sym
			} else if sym.typ != nil && (len(sym.typ.method) > 0) {
				// Type has already been seen as a receiver in a method function
				for _, m := range sym.typ.method {
					n.typ.addMethod(m)
				}
			}
			sym.typ = n.typ
			n.typ.resolveSelf(typeName, pkgName) // sbir patch 34
			if !n.typ.isComplete() {
				revisit = append(revisit, n)
			}
			return false
		}
		return true
	}, nil)

	if sc != interp.universe {
		sc.pop()
	}
	return revisit, err
}

// forgetRedefinedTypes removes from the package scope the types that an
// earlier evaluation declared and that root declares again, before global
// analysis: the new declaration then makes a new type, as if the name had
// never been declared, instead of being taken for the old one (whose
// complete symbol nodeType returns for the name). Values, functions and
// methods of the old type keep it (sbir patch 53).
func (interp *Interpreter) forgetRedefinedTypes(root *node, importPath string) {
	sc := interp.scopes[importPath]
	if sc == nil {
		return
	}
	root.Walk(func(n *node) bool {
		switch n.kind {
		case fileStmt, declStmt, typeDecl:
			return true
		case typeSpec:
			if len(n.child) > 2 {
				return false // generic: declared apart
			}
			name := n.child[0].ident
			if sym, ok := sc.sym[name]; ok && sym.kind == typeSym && sym.node != nil && sym.node != n &&
				sym.typ != nil && !sym.typ.incomplete {
				delete(sc.sym, name)
			}
		}
		return false
	}, nil)
}

// isTopLevelStmt reports whether n is a statement at the top level of an
// incremental evaluation (the body of the REPL's implicit main), as
// opposed to a package-level declaration, whose order does not matter
// (sbir patch 51).
func isTopLevelStmt(n *node) bool {
	return n.anc != nil && n.anc.kind == blockStmt && n.anc.anc == nil
}

// topLevelType returns the type of the value of a top-level statement's
// definition, or nil when nodeType cannot tell: it covers fewer
// expressions than cfg, and may fail on one it does not cover (sbir patch
// 23). An incomplete type (an undefined name) is returned as such.
func topLevelType(interp *Interpreter, sc *scope, n *node) (t *itype, err error) {
	defer func() {
		if recover() != nil {
			t, err = nil, nil
		}
	}()
	return nodeType(interp, sc, n)
}

func baseType(t *itype) *itype {
	for {
		switch t.cat {
		case ptrT, linkedT:
			t = t.val
		default:
			return t
		}
	}
}

// gtaRetry (re)applies gta until all global constants and types are defined.
func (interp *Interpreter) gtaRetry(nodes []*node, importPath, pkgName string) error {
	for _, n := range nodes {
		interp.forgetRedefinedTypes(n, importPath) // sbir patch 53
	}
	revisit := []*node{}
	for {
		for _, n := range nodes {
			list, err := interp.gta(n, importPath, importPath, pkgName)
			if err != nil {
				return err
			}
			revisit = append(revisit, list...)
		}

		if len(revisit) == 0 || equalNodes(nodes, revisit) {
			break
		}

		nodes = revisit
		revisit = []*node{}
	}

	if len(revisit) > 0 {
		n := revisit[0]
		switch n.kind {
		case typeSpec, typeSpecAssign:
			if err := definedType(n.typ); err != nil {
				return err
			}
		case defineStmt, funcDecl:
			if err, ok := n.meta.(error); ok {
				return err
			}
			if n.kind == funcDecl && n.typ != nil {
				// sbir patch 22: a parameter or result of an undefined type.
				if err := definedType(n.typ); err != nil {
					return err
				}
			}
		}
		// sbir patch 11a: an undefined name in any of the stuck
		// definitions, else a loop among them.
		stuck := definedNames(revisit)
		for _, r := range revisit {
			if id := undefinedIdent(r, stuck); id != nil {
				return id.cfgErrorf("undefined: %s", id.ident)
			}
		}
		return n.cfgErrorf("constant definition loop")
	}
	return nil
}

func definedType(typ *itype) error {
	if !typ.incomplete {
		return nil
	}
	switch typ.cat {
	case interfaceT, structT:
		for _, f := range typ.field {
			if err := definedType(f.typ); err != nil {
				return err
			}
		}
	case funcT:
		for _, t := range typ.arg {
			if err := definedType(t); err != nil {
				return err
			}
		}
		for _, t := range typ.ret {
			if err := definedType(t); err != nil {
				return err
			}
		}
	case mapT:
		if err := definedType(typ.key); err != nil {
			return err
		}
		fallthrough
	case linkedT, arrayT, sliceT, chanT, chanSendT, chanRecvT, ptrT, variadicT: // sliceT: sbir patch 22
		if err := definedType(typ.val); err != nil {
			return err
		}
	case nilT:
		return typ.node.cfgErrorf("undefined: %s", typ.node.ident)
	}
	return nil
}

// importedTwice reports whether two different import specs of one file
// import the same package under the same name: gc refuses that, while a
// later evaluation may import again what an earlier one did (sbir patch 11).
func importedTwice(prev, n *node) bool {
	if prev == nil || prev == n {
		return false
	}
	return fileOf(prev) == fileOf(n)
}

// fileOf returns the root of the syntax tree holding n.
func fileOf(n *node) *node {
	for n.anc != nil {
		n = n.anc
	}
	return n
}

// definedNames returns the names that the top-level definitions in nodes
// define (sbir patch 11a).
func definedNames(nodes []*node) map[string]bool {
	names := map[string]bool{}
	for _, n := range nodes {
		var left []*node
		switch n.kind {
		case defineStmt, assignStmt, valueSpec:
			left = n.child[:n.nleft]
		case typeSpec, typeSpecAssign:
			left = n.child[:1]
		case funcDecl:
			left = n.child[1:2]
		}
		for _, c := range left {
			if c.kind == identExpr {
				names[c.ident] = true
			}
		}
	}
	return names
}

// equalNodes returns true if two slices of nodes are identical.
func equalNodes(a, b []*node) bool {
	if len(a) != len(b) {
		return false
	}
	for i, n := range a {
		if n != b[i] {
			return false
		}
	}
	return true
}

// undefinedIdent returns the first identifier in the values of the
// top-level definition n that names nothing: nodeType records an unknown
// name as an incomplete type (it may be declared later), so a definition
// using an undefined name is revisited until global analysis gives up,
// and the error should name the identifier rather than a "constant
// definition loop". The placeholder type is deleted (sbir patch 11a).
// Names in stuck are defined by the definitions global analysis gave up
// on: those form a real definition loop, not an undefined name.
func undefinedIdent(n *node, stuck map[string]bool) *node {
	var values []*node
	switch n.kind {
	case defineStmt, assignStmt:
		values = n.child[n.nleft:]
	case valueSpec:
		values = n.child[len(n.child)-1:]
	default:
		return nil
	}
	var found *node
	for _, v := range values {
		v.Walk(func(c *node) bool {
			if found != nil || c.kind == funcLit {
				return false
			}
			if c.kind != identExpr || c.anc != nil && isKey(c) || stuck[c.ident] {
				return true
			}
			sc := c.scope
			if sc == nil {
				sc = n.scope
			}
			if sc == nil {
				return true
			}
			sym, _, ok := sc.lookup(c.ident)
			if !ok {
				found = c
			} else if sym.kind == typeSym && sym.typ != nil && sym.typ.incomplete && sym.typ.cat == nilT {
				found = c
				// Forget the placeholder, or a later evaluation using
				// the name would find an incomplete type.
				for s := sc; s != nil; s = s.anc {
					if s.sym[c.ident] == sym {
						delete(s.sym, c.ident)
						break
					}
				}
			}
			return true
		}, nil)
		if found != nil {
			break
		}
	}
	return found
}
