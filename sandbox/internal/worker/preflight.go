package worker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/sbirtools/sbir-kernel/internal/importpath"

	"github.com/traefik/yaegi/interp"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/symbols"
)

// preflightImport runs in the worker: it imports importPath in a fresh
// interpreter over the cells' symbol table, with the package environment
// pkgDir, and returns why that failed ("" when it worked).
func preflightImport(pkgDir, importPath string) (reason string) {
	if pkgDir == "" {
		return "the worker has no package environment"
	}
	defer func() {
		if r := recover(); r != nil {
			reason = fmt.Sprintf("the interpreter crashed loading it: %v", r)
		}
	}()
	in := interp.New(interpOptions(io.Discard, io.Discard, strings.NewReader(""), pkgDir))
	if err := in.Use(symbols.Exports(symbols.Options{Sleep: sleep})); err != nil {
		return "loading the symbol table: " + err.Error()
	}
	ctx := context.Background()
	cellContext.Store(&ctx)
	if _, err := in.EvalWithContext(ctx, fmt.Sprintf("import _ %q", importPath)); err != nil {
		return preflightReason(importPath, err)
	}
	return ""
}

// forbiddenImportRE matches yaegi's error for an import the symbol table
// does not provide, with the file that made it (the deepest in a chain).
var forbiddenImportRE = regexp.MustCompile(`(?:src/(\S+\.go:\d+:\d+): )?import "([^"]+)" error: unable to find source related to: "[^"]+"\s*$`)

// missingSymbolRE matches yaegi's error for a member the symbol table
// removed from an allowed package (os.ReadFile, say).
var missingSymbolRE = regexp.MustCompile(`(?:src/(\S+\.go:\d+:\d+): )?package \S+ "([^"]+)" has no symbol (\w+)`)

// preflightReason turns the interpreter's error for importing importPath
// into a reason a user can act on.
func preflightReason(importPath string, err error) string {
	var p interp.Panic
	if errors.As(err, &p) {
		return fmt.Sprintf("the interpreter crashed loading it: %v", p.Value)
	}
	msg := strings.TrimSpace(err.Error())
	at := func(pos string) string {
		if pos == "" {
			return ""
		}
		return " (at " + pos + ")"
	}
	if m := forbiddenImportRE.FindStringSubmatch(msg); m != nil && importpath.IsStdlib(m[2]) {
		return fmt.Sprintf("imports %s, which cells may not use%s", m[2], at(m[1]))
	}
	if m := missingSymbolRE.FindStringSubmatch(msg); m != nil && importpath.IsStdlib(m[2]) {
		return fmt.Sprintf("uses %s.%s, which cells may not use%s", m[2], m[3], at(m[1]))
	}
	return strings.TrimPrefix(msg, "src/")
}
