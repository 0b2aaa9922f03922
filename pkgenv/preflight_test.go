package pkgenv

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/sbirtools/sbir-kernel/internal/importpath"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// testAllowedStdlib is the restricted symbol table of the fake
// pre-flight: a small allow-list in the spirit of the sandbox's (no os,
// no net, no unsafe).
var testAllowedStdlib = []string{"errors", "fmt", "math", "sort", "strconv", "strings"}

// yaegiPreflight is the test stand-in for the sandbox's pre-flight: it
// imports each package with yaegi, in-process, through the same GoPath
// and SourcecodeFilesystem wiring the worker uses, bound by a restricted
// symbol table. The real pre-flight runs in the sandboxed worker.
func yaegiPreflight(calls *int) PreflightFunc {
	return func(ctx context.Context, gopath string, importPaths []string) ([]PackageProblem, error) {
		if calls != nil {
			*calls++
		}
		var problems []PackageProblem
		for _, p := range importPaths {
			if err := yaegiImport(ctx, gopath, p); err != nil {
				problems = append(problems, PackageProblem{ImportPath: p, Reason: err.Error()})
			}
		}
		return problems, nil
	}
}

// forbiddenImportRE matches yaegi's error for an import its symbol table
// does not provide, with the file that made it: the deepest in a chain.
var forbiddenImportRE = regexp.MustCompile(`(?:src/(\S+\.go:\d+:\d+): )?import "([^"]+)" error: unable to find source related to: "[^"]+"$`)

func yaegiImport(ctx context.Context, gopath, importPath string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the interpreter crashed loading it: %v", r)
		}
	}()
	i := interp.New(interp.Options{GoPath: ".", SourcecodeFilesystem: os.DirFS(gopath)})
	allowed := map[string]bool{}
	for _, p := range testAllowedStdlib {
		allowed[p] = true
	}
	symbols := interp.Exports{}
	for key, syms := range stdlib.Symbols {
		// Keys are "<import path>/<package name>".
		if i := strings.LastIndex(key, "/"); i > 0 && allowed[key[:i]] {
			symbols[key] = syms
		}
	}
	if err := i.Use(symbols); err != nil {
		return err
	}
	_, err = i.EvalWithContext(ctx, fmt.Sprintf("import _ %q", importPath))
	if err != nil {
		if m := forbiddenImportRE.FindStringSubmatch(err.Error()); m != nil && importpath.IsStdlib(m[2]) {
			if m[1] != "" && !strings.HasPrefix(m[1], importPath+"/") {
				return fmt.Errorf("imports %s, which cells may not use (at %s)", m[2], m[1])
			}
			return fmt.Errorf("imports %s, which cells may not use", m[2])
		}
		return err
	}
	return nil
}
