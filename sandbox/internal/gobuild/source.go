package gobuild

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"
)

// maxSourceBytes bounds the source tree written to the cache.
const maxSourceBytes = 64 << 20

// sourceFiles returns the files of fsys that a build uses (test files
// left out), sorted by path.
func sourceFiles(fsys fs.FS) ([]string, error) {
	var files []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && !strings.HasSuffix(p, "_test.go") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

// HashSource returns the hash of the source fsys that Options.SourceHash
// takes, for a caller that computes it while it finds the toolchain.
func HashSource(fsys fs.FS) (string, error) { return hashSource(fsys) }

// hashSource returns a hash of the files a build uses, naming the
// directory they are written to: binaries of different sources never
// share it.
func hashSource(fsys fs.FS) (string, error) {
	files, err := sourceFiles(fsys)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	total := 0
	for _, p := range files {
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return "", err
		}
		if total += len(b); total > maxSourceBytes {
			return "", fmt.Errorf("the source compiled cells are built with exceeds %d bytes", maxSourceBytes)
		}
		fmt.Fprintf(h, "%s %d\n", p, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:20], nil
}

// ModuleGoVersion returns the go line of fsys's go.mod ("1.26.0").
func ModuleGoVersion(fsys fs.FS) (string, error) {
	b, err := fs.ReadFile(fsys, "go.mod")
	if err != nil {
		return "", err
	}
	f, err := modfile.ParseLax("go.mod", b, nil)
	if err != nil {
		return "", err
	}
	if f.Go == nil {
		return "", errors.New("go.mod has no go line")
	}
	return f.Go.Version, nil
}

// buildGoMod returns the module's go.mod for building cells: without its
// replace directives, which name directories of the repository that the
// cells' packages never import (patched copies of the kernel's own
// dependencies), nor the requirements they replace. The other
// requirements stay, so that every module resolves to the version the
// kernel itself was built with, as go.sum records it.
func buildGoMod(data []byte) ([]byte, error) {
	f, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		return nil, err
	}
	for _, r := range append([]*modfile.Replace(nil), f.Replace...) {
		path, vers := r.Old.Path, r.Old.Version // DropReplace clears r
		if err := f.DropReplace(path, vers); err != nil {
			return nil, err
		}
		if err := f.DropRequire(path); err != nil {
			return nil, err
		}
	}
	f.Cleanup()
	return f.Format()
}

// materialise writes fsys's build files to dir/<hash>, once: a directory
// that exists is complete (it is renamed into place when written).
func materialise(fsys fs.FS, dir, hash string) (string, error) {
	final := filepath.Join(dir, hash)
	if _, err := os.Stat(filepath.Join(final, "go.mod")); err == nil {
		return final, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(dir, ".tmp-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	files, err := sourceFiles(fsys)
	if err != nil {
		return "", err
	}
	for _, p := range files {
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return "", err
		}
		if p == "go.mod" {
			if b, err = buildGoMod(b); err != nil {
				return "", fmt.Errorf("go.mod: %w", err)
			}
		}
		out := filepath.Join(tmp, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(out, b, 0o444); err != nil {
			return "", err
		}
	}
	if err := os.Mkdir(filepath.Join(tmp, path.Dir(cellsDir)), 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", err
	}
	if err := os.Mkdir(filepath.Join(tmp, cellsDir), 0o755); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, final); err != nil {
		if _, serr := os.Stat(filepath.Join(final, "go.mod")); serr == nil {
			return final, nil // another process wrote it first
		}
		return "", err
	}
	return final, nil
}

// cellsDir is where, inside the module, each build's main package is
// written: under sandbox/, so that it may import the cell runtime
// (sandbox/internal/cellrt). Cells cannot import anything else of the
// module: cellprep checks their imports against the allow-list.
const cellsDir = "sandbox/cells"
