package pkgenv

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
)

// pkgInfo is what the install needs to know about one package directory,
// seen through the interpreter's eyes.
type pkgInfo struct {
	importPath string
	name       string   // package name
	imports    []string // sorted, without duplicates
	cgoFile    string   // a file that imports "C", if any
	// goBuildOnly lists files constrained only by //go:build lines, which
	// the interpreter ignores (it honours only // +build).
	goBuildOnly []string
}

// scanPackage reads the .go files of dir that the interpreter would load
// for importPath. It returns nil when there are none.
func scanPackage(dir, importPath string) (*pkgInfo, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	info := &pkgInfo{importPath: importPath}
	seen := map[string]bool{}
	fset := token.NewFileSet()
	for _, e := range ents {
		if e.IsDir() || !e.Type().IsRegular() || yaegiSkipsFile(e.Name()) {
			continue
		}
		name := filepath.Join(dir, e.Name())
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(fset, name, src, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			// The interpreter would fail on this file too; pre-flight
			// reports it with the interpreter's own words.
			continue
		}
		ok, goBuildOnly := yaegiBuildOK(f)
		if !ok {
			continue
		}
		if goBuildOnly {
			info.goBuildOnly = append(info.goBuildOnly, e.Name())
		}
		if info.name == "" {
			info.name = f.Name.Name
		}
		for _, is := range f.Imports {
			p, err := strconv.Unquote(is.Path.Value)
			if err != nil {
				continue
			}
			if p == "C" {
				if info.cgoFile == "" {
					info.cgoFile = e.Name()
				}
				continue
			}
			if !seen[p] {
				seen[p] = true
				info.imports = append(info.imports, p)
			}
		}
	}
	if info.name == "" {
		return nil, nil
	}
	sort.Strings(info.imports)
	return info, nil
}

// yaegiContext is the build context the interpreter evaluates constraints
// with (build.Default of the Go that built the kernel).
var yaegiContext = func() build.Context {
	c := build.Default
	c.GOOS, c.GOARCH = runtime.GOOS, runtime.GOARCH
	return c
}()

// yaegiSkipsFile mirrors the interpreter's file-name rules (yaegi
// interp/build.go skipFile): non-.go files, _test.go files, files starting
// with "_" or "." and files whose _GOOS/_GOARCH suffix names another
// platform are not loaded.
func yaegiSkipsFile(name string) bool {
	if !strings.HasSuffix(name, ".go") {
		return true
	}
	p := strings.TrimSuffix(name, ".go")
	if strings.HasPrefix(p, "_") || strings.HasPrefix(p, ".") || strings.HasSuffix(p, "_test") {
		return true
	}
	i := strings.Index(p, "_")
	if i < 0 {
		return false
	}
	a := strings.Split(p[i+1:], "_")
	last := len(a) - 1
	goos, goarch := yaegiContext.GOOS, yaegiContext.GOARCH
	if last >= 1 {
		x, y := a[last-1], a[last]
		switch {
		case x == goos:
			return knownArch[y] && y != goarch
		case knownOS[x] && knownArch[y]:
			return true
		case knownArch[y] && y != goarch:
			return true
		default:
			return false
		}
	}
	x := a[last]
	return knownOS[x] && x != goos || knownArch[x] && x != goarch
}

// yaegiBuildOK mirrors the interpreter's constraint check (yaegi
// interp/build.go buildOk): every "// +build" line in the comments up to
// the package clause must hold; "//go:build" lines are ignored. The second
// result reports a file that has a //go:build line but no // +build line.
func yaegiBuildOK(f *ast.File) (ok, goBuildOnly bool) {
	hasPlusBuild, hasGoBuild := false, false
	for _, g := range f.Comments {
		if g.Pos() > f.Name.End() {
			break
		}
		for _, c := range g.List {
			if strings.HasPrefix(c.Text, "//go:build ") {
				hasGoBuild = true
			}
		}
		for _, line := range strings.Split(strings.TrimSpace(g.Text()), "\n") {
			if !strings.HasPrefix(line, "+build ") {
				continue
			}
			hasPlusBuild = true
			if !plusBuildLineOK(line) {
				return false, false
			}
		}
	}
	return true, hasGoBuild && !hasPlusBuild
}

// plusBuildLineOK evaluates one "+build" line: an OR of space-separated
// options, each an AND of comma-separated tags.
func plusBuildLineOK(line string) bool {
	for _, opt := range strings.Fields(strings.TrimPrefix(line, "+build ")) {
		all := true
		for _, tag := range strings.Split(opt, ",") {
			if !buildTagOK(tag) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

func buildTagOK(tag string) bool {
	if tag == "" {
		return false
	}
	not := tag[0] == '!'
	tag = strings.TrimPrefix(tag, "!")
	r := false
	switch {
	case tag == yaegiContext.GOOS, tag == yaegiContext.GOARCH:
		r = true
	case strings.HasPrefix(tag, "go1."):
		n, err := strconv.Atoi(tag[4:])
		r = err == nil && goMinor() >= n
	default:
		for _, t := range yaegiContext.BuildTags {
			if t == tag {
				r = true
			}
		}
	}
	return r != not
}

// goMinor is the minor version of the newest release tag of the build
// context ("go1.26" → 26).
func goMinor() int {
	tags := yaegiContext.ReleaseTags
	if len(tags) == 0 {
		return 0
	}
	_, minor, _ := strings.Cut(tags[len(tags)-1], ".")
	n, _ := strconv.Atoi(minor)
	return n
}

// modulePackages lists the package directories of a module unpacked at
// dir (import path prefix modPath), skipping testdata, directories the go
// command ignores, and the roots of other modules unpacked inside it.
func modulePackages(dir, modPath string, otherRoots map[string]bool) ([]*pkgInfo, error) {
	var pkgs []*pkgInfo
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		importPath := modPath
		if rel != "." {
			importPath = path.Join(modPath, filepath.ToSlash(rel))
			base := d.Name()
			if base == "testdata" || base == "vendor" || strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_") || otherRoots[importPath] {
				return filepath.SkipDir
			}
		}
		info, err := scanPackage(p, importPath)
		if err != nil {
			return fmt.Errorf("reading %s: %w", importPath, err)
		}
		if info != nil {
			pkgs = append(pkgs, info)
		}
		return nil
	})
	return pkgs, err
}

// isInternal reports whether an import path has an "internal" element,
// which makes it unimportable from cells.
func isInternal(p string) bool {
	for _, e := range strings.Split(p, "/") {
		if e == "internal" {
			return true
		}
	}
	return false
}

var knownOS = map[string]bool{
	"aix": true, "android": true, "darwin": true, "dragonfly": true, "freebsd": true,
	"illumos": true, "ios": true, "js": true, "linux": true, "netbsd": true,
	"openbsd": true, "plan9": true, "solaris": true, "wasip1": true, "windows": true,
}

var knownArch = map[string]bool{
	"386": true, "amd64": true, "arm": true, "arm64": true, "loong64": true,
	"mips": true, "mips64": true, "mips64le": true, "mipsle": true, "ppc64": true,
	"ppc64le": true, "s390x": true, "wasm": true, // yaegi v0.16.1 lists no riscv64
}
