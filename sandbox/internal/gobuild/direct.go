package gobuild

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"go/version"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// A build of a cell runs the compiler and the linker directly (see
// buildDirect), not `go build`: the go command spends about half a second
// of a warm rebuild loading the ~300 packages a cell links and checking
// each against the build cache, when only the cell's own package has
// changed. What the compiler and the linker need of those packages (their
// compiled export data in the build cache, and their dependencies) comes
// from `go list -export -deps`, asked once per toolchain, build cache and
// module source for each package a cell imports, and kept in the
// builder's directory (exportIndex). A build whose packages the index
// does not know, or whose export data has left the build cache, asks go
// list again; one that still cannot be set up that way runs `go build`.

// pkgExport is what go list says of one package.
type pkgExport struct {
	// Export is its compiled export data (a file of the build cache).
	Export string `json:"export,omitempty"`
	// Deps are the packages it imports, directly or not.
	Deps []string `json:"deps,omitempty"`
}

// exportIndex maps import paths to what go list said of them.
type exportIndex map[string]pkgExport

// indexFile is where the builder keeps its index: one per toolchain,
// build cache and module source (an index is valid for exactly those).
func (b *Builder) indexFile(srcHash string) string {
	tc := b.opts.Toolchain
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%s\n%s\n%s\n%s\n", tc.Version, tc.Go, tc.GOROOT, b.opts.GoCache, b.opts.ModCache, srcHash)
	return filepath.Join(b.opts.Dir, "exports", hex.EncodeToString(h.Sum(nil))[:24]+".json")
}

// maxIndexBytes bounds the index file read back.
const maxIndexBytes = 16 << 20

// loadIndex reads the index kept on disk, once per builder; a missing or
// unreadable one is empty.
func (b *Builder) loadIndex(srcHash string) exportIndex {
	if b.index != nil {
		return b.index
	}
	b.index = exportIndex{}
	f, err := os.Open(b.indexFile(srcHash))
	if err != nil {
		return b.index
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxIndexBytes+1))
	if err != nil || len(data) > maxIndexBytes {
		return b.index
	}
	var idx exportIndex
	if json.Unmarshal(data, &idx) == nil {
		b.index = idx
	}
	return b.index
}

// saveIndex writes the index to disk (renamed into place: a reader never
// sees half of it).
func (b *Builder) saveIndex(srcHash string) {
	path := b.indexFile(srcHash)
	data, err := json.Marshal(b.index)
	if err != nil || os.MkdirAll(filepath.Dir(path), 0o755) != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), path) != nil {
		os.Remove(tmp.Name())
	}
}

// errNotDirect means a program cannot be built directly; `go build`
// builds it (and words its errors).
var errNotDirect = errors.New("not buildable directly")

// programImports returns the packages src imports, sorted; errNotDirect
// when it does not parse (the build's error will say why).
func programImports(src string) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", src, parser.ImportsOnly|parser.SkipObjectResolution)
	if err != nil {
		return nil, errNotDirect
	}
	var imps []string
	for _, is := range f.Imports {
		p, err := strconv.Unquote(is.Path.Value)
		if err != nil {
			return nil, errNotDirect
		}
		if p != "unsafe" && !slices.Contains(imps, p) {
			imps = append(imps, p)
		}
	}
	slices.Sort(imps)
	return imps, nil
}

// linkSet returns the packages a program importing imps links (the
// runtime always), and whether the index knows them all with their
// export data in the build cache.
func (idx exportIndex) linkSet(imps []string) ([]string, bool) {
	seen := map[string]bool{}
	var all []string
	add := func(p string) bool {
		if seen[p] || p == "unsafe" {
			return true
		}
		e, ok := idx[p]
		if !ok || e.Export == "" {
			return false
		}
		if _, err := os.Stat(e.Export); err != nil {
			return false // trimmed from the build cache
		}
		seen[p] = true
		all = append(all, p)
		return true
	}
	for _, p := range append([]string{"runtime"}, imps...) {
		if !add(p) {
			return nil, false
		}
		for _, d := range idx[p].Deps {
			if !add(d) {
				return nil, false
			}
		}
	}
	slices.Sort(all)
	return all, true
}

// listedPackage is the part of `go list -json`'s output the index keeps.
type listedPackage struct {
	ImportPath string
	Export     string
	Deps       []string
	Error      *struct{ Err string }
}

// refreshIndex asks go list about imps and what they import, and merges
// the answer into the index.
func (b *Builder) refreshIndex(ctx context.Context, run *buildRun, dir, srcHash string, imps []string) error {
	args := append([]string{"list", "-export", "-deps", "-json=ImportPath,Export,Deps,Error", "-pgo=off", "-trimpath", "--", "runtime"}, imps...)
	out, err := b.run(ctx, run, dir, append([]string{b.opts.Toolchain.Go}, args...), b.env(), maxIndexBytes)
	if err != nil || len(out) > maxIndexBytes {
		return errNotDirect
	}
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var p listedPackage
		if err := dec.Decode(&p); err != nil {
			return errNotDirect
		}
		if p.Error != nil {
			return errNotDirect
		}
		b.index[p.ImportPath] = pkgExport{Export: p.Export, Deps: p.Deps}
	}
	b.saveIndex(srcHash)
	return nil
}

// directCommands returns the compile and link command lines of a program
// importing imps, written to cell/main.go, linked to out; errNotDirect
// when they cannot be set up.
func (b *Builder) directCommands(ctx context.Context, run *buildRun, dir, srcHash, cell, src, out string) (compile, link []string, err error) {
	tc := b.opts.Toolchain
	if tc.ToolDir == "" || b.goLang == "" {
		return nil, nil, errNotDirect
	}
	imps, err := programImports(src)
	if err != nil {
		return nil, nil, err
	}
	b.indexMu.Lock()
	defer b.indexMu.Unlock()
	idx := b.loadIndex(srcHash)
	all, ok := idx.linkSet(imps)
	if !ok {
		if err := b.refreshIndex(ctx, run, dir, srcHash, imps); err != nil {
			return nil, nil, err
		}
		if all, ok = b.index.linkSet(imps); !ok {
			return nil, nil, errNotDirect
		}
	}
	var cfg, linkCfg strings.Builder
	for _, p := range imps {
		fmt.Fprintf(&cfg, "packagefile %s=%s\n", p, b.index[p].Export)
	}
	for _, p := range all {
		fmt.Fprintf(&linkCfg, "packagefile %s=%s\n", p, b.index[p].Export)
	}
	cfgPath, linkPath := filepath.Join(cell, "importcfg"), filepath.Join(cell, "importcfg.link")
	if os.WriteFile(cfgPath, []byte(cfg.String()), 0o644) != nil || os.WriteFile(linkPath, []byte(linkCfg.String()), 0o644) != nil {
		return nil, nil, errNotDirect
	}
	obj := filepath.Join(cell, "main.a")
	// The flags are those `go build -trimpath` gives the compiler and
	// the linker for a main package; -complete refuses a function
	// without a body (assembly), -linkmode=internal any external linker.
	compile = []string{filepath.Join(tc.ToolDir, "compile"), "-o", obj, "-p", "main", "-lang=" + b.goLang, "-complete", "-goversion", tc.Version, "-nolocalimports",
		"-trimpath", cell + "=>" + cellImportPath, "-importcfg", cfgPath, "-pack", filepath.Join(cell, "main.go")}
	link = []string{filepath.Join(tc.ToolDir, "link"), "-o", out, "-importcfg", linkPath, "-buildmode=exe", "-linkmode=internal", "-s", "-w", obj}
	return compile, link, nil
}

// cellImportPath is what a cell's package is called in its binary
// (its file names are the cell's own, from its line directives).
const cellImportPath = "github.com/sbirtools/sbir-kernel/sandbox/cells/cell"

// buildDirect compiles and links the program in cell/main.go to out with
// the toolchain's compiler and linker, under the build's limits.
// errNotDirect means it could not be set up (nothing was built); other
// errors are the build's own, with its output.
func (b *Builder) buildDirect(ctx context.Context, run *buildRun, dir, srcHash, cell, src, out string) (string, error) {
	compile, link, err := b.directCommands(ctx, run, dir, srcHash, cell, src, out)
	if err != nil {
		return "", err
	}
	env := b.env()
	if o, err := b.run(ctx, run, dir, compile, env, 0); err != nil {
		return o, err
	}
	// As `go build -trimpath`: the binary records no GOROOT.
	env = append(slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "GOROOT=") }), "GOROOT=")
	return b.run(ctx, run, dir, link, env, 0)
}

// langVersion is the -lang of a module whose go line is goLine: "go1.26"
// for "1.26.0".
func langVersion(goLine string) string {
	return version.Lang("go" + goLine)
}
