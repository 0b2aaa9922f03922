package pkgenv

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sbirtools/sbir-kernel/internal/importpath"

	"github.com/sbirtools/sbir-kernel/internal/bytesize"
	"golang.org/x/mod/module"
	"golang.org/x/mod/sumdb/dirhash"
	modzip "golang.org/x/mod/zip"
)

// builder installs one environment into a temporary directory.
type builder struct {
	opts   Options
	limits Limits
	proxy  *proxy
	db     *checksumDB
	dir    string // the temporary environment root (GOPATH layout)
	dl     string // scratch space for zips, removed before publishing

	selected map[string]string      // build list: path → version
	unpacked map[string]moduleEntry // modules in the environment, by path
	size     int64                  // unpacked bytes so far
}

// moduleEntry is one module in an environment.
type moduleEntry struct {
	Path    string `json:"path"`
	Version string `json:"version"`
	Sum     string `json:"sum,omitempty"` // h1: hash of the module zip
}

// install fills b.dir for the requested modules and returns the manifest
// to publish with it.
func (b *builder) install(ctx context.Context, roots []module.Version) (*manifest, error) {
	selected, err := b.resolve(ctx, roots)
	if err != nil {
		return nil, err
	}
	b.selected = selected
	b.unpacked = map[string]moduleEntry{}

	// The requested modules, at their selected versions, are the roots of
	// the package graph; dependencies are fetched only when a package the
	// roots need imports them, as the go command's lazy loading does.
	pkgs := map[string]*pkgInfo{} // every package found, by import path
	var queue []*pkgInfo
	var rootPkgs []*pkgInfo
	for _, r := range roots {
		m := module.Version{Path: r.Path, Version: selected[r.Path]}
		if err := b.fetch(ctx, m); err != nil {
			return nil, err
		}
	}
	for _, r := range roots {
		found, err := modulePackages(b.srcDir(r.Path), r.Path, b.nestedRoots(r.Path))
		if err != nil {
			return nil, fmt.Errorf("go: %s@%s: %w", r.Path, selected[r.Path], err)
		}
		for _, p := range found {
			pkgs[p.importPath] = p
			queue = append(queue, p)
			rootPkgs = append(rootPkgs, p)
		}
	}

	problems := map[string]string{}
	for len(queue) > 0 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p := queue[0]
		queue = queue[1:]
		if p.cgoFile != "" {
			problems[p.importPath] = fmt.Sprintf("uses cgo (import \"C\" in %s), which the interpreter cannot run", p.cgoFile)
			continue
		}
		for _, imp := range p.imports {
			if importpath.IsStdlib(imp) || pkgs[imp] != nil {
				continue
			}
			dep, err := b.findPackage(ctx, imp)
			if err != nil {
				return nil, err
			}
			if dep == nil {
				if _, ok := problems[p.importPath]; !ok {
					problems[p.importPath] = fmt.Sprintf("imports %s, which no module in the build list provides; declare its module with %s <module> <version>", imp, Directive)
				}
				continue
			}
			pkgs[imp] = dep
			queue = append(queue, dep)
		}
	}

	if err := os.RemoveAll(b.dl); err != nil {
		return nil, err
	}
	// Read-only for everyone from now on, whatever the umask: the worker
	// that pre-flights and later uses the tree may run as another user.
	if err := makeReadOnly(filepath.Join(b.dir, "src")); err != nil {
		return nil, fmt.Errorf("pkgenv: %w", err)
	}

	// Pre-flight every importable package of the requested modules in the
	// real sandbox; dependencies are loaded through them.
	var check []string
	for _, p := range rootPkgs {
		if p.name == "main" || isInternal(p.importPath) {
			continue
		}
		if _, bad := problems[p.importPath]; bad {
			continue
		}
		check = append(check, p.importPath)
	}
	sort.Strings(check)
	if len(check) > 0 {
		if b.opts.Progress != nil {
			fmt.Fprintf(b.opts.Progress, "go: checking %d packages in the sandbox\n", len(check))
		}
		found, err := b.opts.Preflight(ctx, b.dir, check)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("go: checking packages in the sandbox: %w", err)
		}
		for _, pp := range found {
			problems[pp.ImportPath] = pp.Reason + goBuildNote(pp, pkgs)
		}
	}

	man := &manifest{Size: b.size}
	for _, r := range roots {
		man.Requirements = append(man.Requirements, moduleEntry{Path: r.Path, Version: r.Version})
	}
	for _, e := range b.unpacked {
		man.Modules = append(man.Modules, e)
	}
	sort.Slice(man.Modules, func(i, j int) bool { return man.Modules[i].Path < man.Modules[j].Path })
	for _, p := range check {
		if _, bad := problems[p]; !bad {
			man.Packages = append(man.Packages, p)
		}
	}
	for p, reason := range problems {
		man.Problems = append(man.Problems, PackageProblem{ImportPath: p, Reason: reason})
	}
	sort.Slice(man.Problems, func(i, j int) bool { return man.Problems[i].ImportPath < man.Problems[j].ImportPath })
	return man, nil
}

// goBuildNote explains a pre-flight failure that may come from files the
// interpreter loaded because it ignores //go:build lines: in the failing
// package itself or in a package the failure names.
func goBuildNote(pp PackageProblem, pkgs map[string]*pkgInfo) string {
	var parts []string
	var paths []string
	for ip := range pkgs {
		paths = append(paths, ip)
	}
	sort.Strings(paths)
	for _, ip := range paths {
		p := pkgs[ip]
		if len(p.goBuildOnly) == 0 || (ip != pp.ImportPath && !mentionsPackage(pp.Reason, ip)) {
			continue
		}
		files := strings.Join(p.goBuildOnly, ", ")
		if ip != pp.ImportPath {
			files = ip + ": " + files
		}
		parts = append(parts, files)
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf(" (note: the interpreter ignores //go:build lines and honours only // +build, so it also loaded %s)", strings.Join(parts, "; "))
}

// mentionsPackage reports whether an interpreter error names the package
// ip: as an import path or directory (src/<ip>) standing alone or followed
// by one of its file names ("<ip>/a.go:3:8"), not by a subdirectory.
func mentionsPackage(msg, ip string) bool {
	for rest := msg; ; {
		i := strings.Index(rest, ip)
		if i < 0 {
			return false
		}
		before := byte(' ')
		if i > 0 {
			before = rest[i-1]
		}
		rest = rest[i+len(ip):]
		if !strings.ContainsRune(" \t\n\"'(/", rune(before)) {
			continue
		}
		if rest == "" {
			return true
		}
		switch c := rest[0]; {
		case c == '/':
			next, _, _ := strings.Cut(rest[1:], ":")
			if strings.HasSuffix(next, ".go") && !strings.Contains(next, "/") {
				return true
			}
		case strings.ContainsRune(":\"' ,)\n", rune(c)):
			return true
		}
	}
}

// findPackage locates the package imp in the build list, downloading the
// modules that could provide it (longest module path first, as the go
// command prefers the most specific module). It returns nil when no
// module provides it.
func (b *builder) findPackage(ctx context.Context, imp string) (*pkgInfo, error) {
	var cands []string
	for p := range b.selected {
		if imp == p || strings.HasPrefix(imp, p+"/") {
			cands = append(cands, p)
		}
	}
	sort.Slice(cands, func(i, j int) bool { return len(cands[i]) > len(cands[j]) })
	for _, p := range cands {
		if err := b.fetch(ctx, module.Version{Path: p, Version: b.selected[p]}); err != nil {
			return nil, err
		}
		dir := filepath.Join(b.srcDir(p), filepath.FromSlash(strings.TrimPrefix(strings.TrimPrefix(imp, p), "/")))
		info, err := scanPackage(dir, imp)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("go: reading package %s: %w", imp, err)
		}
		if info != nil {
			return info, nil
		}
	}
	return nil, nil
}

// nestedRoots returns the modules unpacked inside modPath's tree (for
// example m/v2 inside m), whose packages are not modPath's.
func (b *builder) nestedRoots(modPath string) map[string]bool {
	roots := map[string]bool{}
	for p := range b.selected {
		if strings.HasPrefix(p, modPath+"/") {
			roots[p] = true
		}
	}
	return roots
}

func (b *builder) srcDir(modPath string) string {
	return filepath.Join(b.dir, "src", filepath.FromSlash(modPath))
}

// fetch downloads m's zip, verifies it, checks the caps and unpacks it
// under src/<module path>. It does nothing for a module already unpacked.
func (b *builder) fetch(ctx context.Context, m module.Version) error {
	if _, ok := b.unpacked[m.Path]; ok {
		return nil
	}
	if len(b.unpacked)+1 > b.limits.MaxModules {
		return fmt.Errorf("go: %s@%s: the packages need more than %d modules, this server's limit: %w",
			m.Path, m.Version, b.limits.MaxModules, ErrLimit)
	}
	if b.opts.Progress != nil {
		fmt.Fprintf(b.opts.Progress, "go: downloading %s %s\n", m.Path, m.Version)
	}
	rel, err := modulePath(m, ".zip")
	if err != nil {
		return fmt.Errorf("go: %s@%s: %w", m.Path, m.Version, err)
	}
	if err := os.MkdirAll(b.dl, 0o755); err != nil {
		return err
	}
	zf, err := os.CreateTemp(b.dl, "*.zip")
	if err != nil {
		return err
	}
	zipPath := zf.Name()
	defer os.Remove(zipPath)
	remaining := b.limits.MaxBytes - b.size
	err = b.proxy.download(ctx, rel, zf, max(remaining, 0))
	if cerr := zf.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, ErrLimit) {
		return b.sizeError(m)
	}
	if err != nil {
		return fetchError(ctx, m, err)
	}
	sum, err := dirhash.HashZip(zipPath, dirhash.Hash1)
	if err != nil {
		return fmt.Errorf("go: %s@%s: reading module zip: %w", m.Path, m.Version, err)
	}
	if err := b.db.verify(m, "module", "", sum); err != nil {
		return ctxError(ctx, err)
	}
	unpackedSize, err := zipSize(zipPath)
	if err != nil {
		return fmt.Errorf("go: %s@%s: reading module zip: %w", m.Path, m.Version, err)
	}
	if b.size+unpackedSize > b.limits.MaxBytes {
		return b.sizeError(m)
	}
	// Unzip into a fresh directory and move the files into place, so
	// nested modules (m and m/v2) may arrive in any order.
	stage, err := os.MkdirTemp(b.dl, "unzip")
	if err != nil {
		return err
	}
	defer os.RemoveAll(stage)
	stageMod := filepath.Join(stage, "m")
	if err := modzip.Unzip(stageMod, m, zipPath); err != nil {
		return fmt.Errorf("go: %s@%s: unzipping: %w", m.Path, m.Version, err)
	}
	if err := moveInto(stageMod, b.srcDir(m.Path)); err != nil {
		return fmt.Errorf("go: %s@%s: %w", m.Path, m.Version, err)
	}
	b.size += unpackedSize
	b.unpacked[m.Path] = moduleEntry{Path: m.Path, Version: m.Version, Sum: sum}
	return nil
}

func (b *builder) sizeError(m module.Version) error {
	return fmt.Errorf("go: %s@%s: the packages would unpack to more than %s, this server's limit: %w",
		m.Path, m.Version, bytesize.Exact(b.limits.MaxBytes), ErrLimit)
}

// zipSize is the total uncompressed size of a zip's files.
func zipSize(path string) (int64, error) {
	r, err := zip.OpenReader(path)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	var n int64
	for _, f := range r.File {
		n += int64(f.UncompressedSize64)
	}
	return n, nil
}

// moveInto moves the tree at src into dst, merging directories. A file
// that exists on both sides is a conflict between two modules.
func moveInto(src, dst string) error {
	if _, err := os.Lstat(dst); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.Rename(src, dst)
	}
	ents, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range ents {
		s, d := filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())
		fi, err := os.Lstat(d)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if err := os.Rename(s, d); err != nil {
				return err
			}
		case err != nil:
			return err
		case e.IsDir() && fi.IsDir():
			if err := moveInto(s, d); err != nil {
				return err
			}
		default:
			return fmt.Errorf("%s is provided by two modules", d)
		}
	}
	return nil
}
