package pkgenv

import (
	"fmt"
	"go/scanner"
	"go/token"
	"sort"
	"strings"

	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"

	"github.com/sbirtools/sbir-kernel/internal/textdist"
)

// Directive is the line comment that declares a requirement in a cell:
//
//	//sbir:require github.com/montanaflynn/stats v0.7.1
//
// The form path@version is accepted too. The version must be exact (a
// semantic version such as v0.7.1, or a pseudo-version): queries such as
// "latest" or "v0.7" are refused so that every session asking for the
// same set gets byte-for-byte the same code.
const Directive = "//sbir:require"

// directiveName is Directive without the comment marker.
const directiveName = "sbir:require"

// CompileDirective asks for a cell to run compiled (package sandbox reads
// it); ParseRequirements knows it so as not to report it as a misspelt
// requirement.
const CompileDirective = "//sbir:compile"

// A Requirement is one module version a cell asks for.
type Requirement struct {
	Path    string // module path, e.g. github.com/montanaflynn/stats
	Version string // exact version, e.g. v0.7.1
	// Line is the 1-based line of the declaration in the cell, or 0 when
	// the requirement did not come from ParseRequirements.
	Line int
}

// String returns "path@version".
func (r Requirement) String() string { return r.Path + "@" + r.Version }

// A DirectiveError describes a malformed //sbir: directive in a cell.
type DirectiveError struct {
	Line   int    // 1-based line in the cell
	Column int    // 1-based column where the directive starts
	Text   string // the directive as written
	Msg    string // what is wrong and what to do
	// Fix is the corrected directive when one can be derived (for a
	// misspelt directive name, say), for completion and quick fixes;
	// "" otherwise.
	Fix string
}

func (e *DirectiveError) Error() string {
	s := fmt.Sprintf("line %d: %s: %s", e.Line, e.Text, e.Msg)
	if e.Fix != "" {
		s += fmt.Sprintf(" (did you mean %q?)", e.Fix)
	}
	return s
}

// ParseRequirements returns the requirements declared in a cell with
// Directive, in the order they appear, and one *DirectiveError per
// malformed declaration. Only line comments that start a line count;
// directives inside strings or block comments are ignored, and so is code
// that does not parse, so this is safe to call on any text.
//
// Comments that look like a misspelt directive ("//sbir:requires",
// "// sbir:require", "//sbir-require") are reported rather than ignored,
// so a typo never silently drops a requirement.
func ParseRequirements(code string) ([]Requirement, []error) {
	var (
		reqs []Requirement
		errs []error
		seen = map[string]Requirement{}
	)
	fset := token.NewFileSet()
	file := fset.AddFile("cell", -1, len(code))
	var s scanner.Scanner
	s.Init(file, []byte(code), func(token.Position, string) {}, scanner.ScanComments)
	lastLine := 0 // line of the previous non-comment token
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		p := fset.Position(pos)
		if tok != token.COMMENT {
			lastLine = p.Line
			continue
		}
		if p.Line == lastLine || !strings.HasPrefix(lit, "//") {
			continue // trailing comment or block comment
		}
		r, err := parseDirective(lit, p.Line, p.Column)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if r == nil {
			continue
		}
		if prev, ok := seen[r.Path]; ok {
			if prev.Version != r.Version {
				errs = append(errs, &DirectiveError{Line: p.Line, Column: p.Column, Text: lit,
					Msg: fmt.Sprintf("%s is already required at %s on line %d; require one version of a module", r.Path, prev.Version, prev.Line)})
			}
			continue
		}
		seen[r.Path] = *r
		reqs = append(reqs, *r)
	}
	return reqs, errs
}

// parseDirective parses one line comment. It returns nil, nil for a
// comment that is not (and does not look like) a directive.
func parseDirective(lit string, line, col int) (*Requirement, error) {
	body := strings.TrimPrefix(lit, "//")
	fail := func(msg, fix string) error {
		return &DirectiveError{Line: line, Column: col, Text: strings.TrimSpace(lit), Msg: msg, Fix: fix}
	}
	name, args, _ := strings.Cut(strings.TrimRight(body, " \t\r"), " ")
	args = strings.TrimSpace(args)
	if "//"+name == CompileDirective {
		if args != "" {
			return nil, fail(CompileDirective+" takes no arguments", CompileDirective)
		}
		return nil, nil
	}
	if name != directiveName {
		trimmed := strings.TrimLeft(body, " \t")
		tname, targs, _ := strings.Cut(strings.TrimRight(trimmed, " \t\r"), " ")
		fix := strings.TrimSpace(Directive + " " + strings.TrimSpace(targs))
		switch {
		case "//"+tname == CompileDirective:
			return nil, fail("a directive has no space after //", CompileDirective)
		case tname == directiveName:
			return nil, fail("a directive has no space after //", fix)
		case textdist.Levenshtein(strings.ToLower(tname), strings.TrimPrefix(CompileDirective, "//")) <= 2:
			return nil, fail("unknown directive; a cell asks to run compiled with "+CompileDirective, CompileDirective)
		case looksLikeDirective(tname):
			return nil, fail(fmt.Sprintf("unknown directive; requirements are declared with %s <module> <version>", Directive), fix)
		}
		return nil, nil
	}
	fields := strings.Fields(args)
	switch len(fields) {
	case 0:
		return nil, fail("missing module path and version; write "+Directive+" <module> <version>, e.g. "+Directive+" github.com/montanaflynn/stats v0.7.1", "")
	case 1:
		if p, v, ok := strings.Cut(fields[0], "@"); ok {
			fields = []string{p, v}
		}
	}
	if len(fields) == 1 {
		return nil, fail(fmt.Sprintf("missing version; write %s %s vX.Y.Z with the exact version to use (see https://pkg.go.dev/%s?tab=versions)", Directive, fields[0], fields[0]), "")
	}
	if len(fields) > 2 {
		return nil, fail("too many fields; declare one module per line: "+Directive+" <module> <version>", "")
	}
	path, vers := fields[0], fields[1]
	if err := module.CheckPath(path); err != nil {
		return nil, fail(fmt.Sprintf("invalid module path: %v", err), "")
	}
	if !semver.IsValid(vers) {
		if strings.HasPrefix(vers, "V") && semver.IsValid("v"+vers[1:]) {
			return nil, fail("versions start with a lower-case v", fmt.Sprintf("%s %s v%s", Directive, path, vers[1:]))
		}
		if semver.IsValid("v" + vers) {
			return nil, fail("versions start with v", fmt.Sprintf("%s %s v%s", Directive, path, vers))
		}
		return nil, fail(fmt.Sprintf("version %q is not an exact version; use a semantic version such as v1.2.3 (queries like latest, branches and commit hashes are not allowed)", vers), "")
	}
	if semver.Canonical(vers) != vers && !strings.HasSuffix(vers, "+incompatible") {
		return nil, fail(fmt.Sprintf("version %q is not an exact version; write all three numbers, e.g. %s", vers, semver.Canonical(vers)), "")
	}
	if err := module.Check(path, vers); err != nil {
		msg := strings.TrimPrefix(err.Error(), path+"@"+vers+": ")
		if major := semver.Major(vers); major != "v0" && major != "v1" && !strings.HasSuffix(path, "/"+major) {
			msg += fmt.Sprintf("; from v2 on the major version is part of the module path, e.g. %s/%s", path, major)
		}
		return nil, fail(msg, "")
	}
	return &Requirement{Path: path, Version: vers, Line: line}, nil
}

// looksLikeDirective reports whether name is probably a misspelling of
// directiveName: "sbir" followed by punctuation, or within a small edit
// distance. A plain comment such as "// sbir is great" is not.
func looksLikeDirective(name string) bool {
	lower := strings.ToLower(name)
	for _, prefix := range []string{"sbir:", "sbir-", "sbir_", "sbir.", "sbir/"} {
		if strings.HasPrefix(lower, prefix) {
			return true
		}
	}
	return textdist.Levenshtein(lower, directiveName) <= 2
}

// normalize validates reqs and returns them sorted by path, without
// duplicates.
func normalize(reqs []Requirement) ([]module.Version, error) {
	if len(reqs) == 0 {
		return nil, fmt.Errorf("go: no requirements given")
	}
	byPath := map[string]string{}
	var mods []module.Version
	for _, r := range reqs {
		if err := module.Check(r.Path, r.Version); err != nil {
			return nil, fmt.Errorf("go: %w", err)
		}
		if semver.Canonical(r.Version) != r.Version && !strings.HasSuffix(r.Version, "+incompatible") {
			return nil, fmt.Errorf("go: %s@%s: not an exact version", r.Path, r.Version)
		}
		if v, ok := byPath[r.Path]; ok {
			if v != r.Version {
				return nil, fmt.Errorf("go: %s required at both %s and %s", r.Path, v, r.Version)
			}
			continue
		}
		byPath[r.Path] = r.Version
		mods = append(mods, module.Version{Path: r.Path, Version: r.Version})
	}
	sort.Slice(mods, func(i, j int) bool { return mods[i].Path < mods[j].Path })
	return mods, nil
}
