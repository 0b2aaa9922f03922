package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// maxFuncLines is the longest a function may be: it fits on a screen.
const maxFuncLines = 120

// longFuncs are the functions allowed past maxFuncLines for now, by file
// and name (Type.Method for methods), with their length when listed. Each
// must shrink to maxFuncLines and leave the list; none may be added.
var longFuncs = map[string]string{
	// Every function found too long when this test was written has been
	// split: none may be added.
}

// TestFunctionLength checks that no function of the module (tests
// included; generated files and third_party left out) is longer than
// maxFuncLines, except those listed in longFuncs, and that every listed
// one still exists and is still too long.
func TestFunctionLength(t *testing.T) {
	fset := token.NewFileSet()
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "third_party" || name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		relPath, _ := filepath.Rel(root, path)
		relPath = filepath.ToSlash(relPath)
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			key := relPath + ":" + funcKey(fd)
			lines := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
			if _, listed := longFuncs[key]; listed {
				seen[key] = true
				if lines <= maxFuncLines {
					t.Errorf("%s is %d lines now: remove it from longFuncs", key, lines)
				}
				continue
			}
			if lines > maxFuncLines {
				t.Errorf("%s is %d lines; the limit is %d: split it by what its parts do", key, lines, maxFuncLines)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range slices.Sorted(func(yield func(string) bool) {
		for k := range longFuncs {
			if !yield(k) {
				return
			}
		}
	}) {
		if !seen[key] {
			t.Errorf("longFuncs lists %s, which no longer exists: remove it", key)
		}
	}
}

// funcKey names a function declaration: Name, or Type.Name for a method.
func funcKey(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fmt.Sprint(t) + "." + fd.Name.Name
}

// TestSandboxUsesOnlyTheWorkerEntry checks that package sandbox reaches
// into the worker only for its entry point: everything else crosses the
// pipe.
func TestSandboxUsesOnlyTheWorkerEntry(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(root, "sandbox", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	const workerPath = modulePath + "/sandbox/internal/worker"
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		local := ""
		for _, is := range f.Imports {
			if p, _ := strconv.Unquote(is.Path.Value); p == workerPath {
				local = "worker"
				if is.Name != nil {
					local = is.Name.Name
				}
			}
		}
		if local == "" {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == local && sel.Sel.Name != "IsWorker" && sel.Sel.Name != "Main" {
				t.Errorf("%s uses worker.%s: the sandbox may use only the worker's entry point (IsWorker, Main)", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
	}
}
