package archtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
)

// modulePath is the module this test guards.
const modulePath = "github.com/sbirtools/sbir-kernel"

// root is the module's directory, relative to this package's.
var root = filepath.Join("..", "..")

// pkg is what go list -json says of a package.
type pkg struct {
	ImportPath string
	Doc        string
	Standard   bool
	DepOnly    bool
	GoFiles    []string
	Imports    []string
	Deps       []string
	Module     *struct{ Path string }
}

// loadPackages runs go list -deps -json on the whole module once.
var loadPackages = sync.OnceValues(func() (map[string]*pkg, error) {
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		goBin = "go"
	}
	cmd := exec.Command(goBin, "list", "-deps", "-json", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, errors.New("go list: " + err.Error() + ": " + stderr.String())
	}
	pkgs := map[string]*pkg{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		p := new(pkg)
		if err := dec.Decode(p); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		pkgs[p.ImportPath] = p
	}
	return pkgs, nil
})

func packages(t *testing.T) map[string]*pkg {
	t.Helper()
	pkgs, err := loadPackages()
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// rel is the name ARCHITECTURE.md gives a package of the module: its path
// relative to the module's root, "main" for the root.
func rel(importPath string) (string, bool) {
	if importPath == modulePath {
		return "main", true
	}
	r, ok := strings.CutPrefix(importPath, modulePath+"/")
	return r, ok
}

// ownPackages are the module's packages that have code besides tests, by
// rel name.
func ownPackages(t *testing.T) map[string]*pkg {
	own := map[string]*pkg{}
	for path, p := range packages(t) {
		if r, ok := rel(path); ok && !p.DepOnly && len(p.GoFiles) > 0 {
			own[r] = p
		}
	}
	return own
}

// architecture is the parsed ARCHITECTURE.md: the package table's
// "depends on" column and the external modules table.
type architecture struct {
	deps    map[string][]string // package → what it may import
	modules map[string]string   // external name → module path
}

var backticked = regexp.MustCompile("`([^`]+)`")

// readArchitecture parses the tables under the headings "## Packages and
// who depends on whom" and "## External modules".
func readArchitecture(t *testing.T) architecture {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join(root, "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	a := architecture{deps: map[string][]string{}, modules: map[string]string{}}
	for _, row := range tableRows(t, string(doc), "## Packages and who depends on whom") {
		if len(row) < 3 {
			t.Fatalf("ARCHITECTURE.md package table: row %q has fewer than 3 columns", row)
		}
		name := backticked.FindStringSubmatch(row[0])
		if name == nil {
			t.Fatalf("ARCHITECTURE.md package table: the package column %q has no `package`", row[0])
		}
		var deps []string
		for _, m := range backticked.FindAllStringSubmatch(row[2], -1) {
			deps = append(deps, m[1])
		}
		a.deps[name[1]] = deps
	}
	for _, row := range tableRows(t, string(doc), "## External modules") {
		if len(row) < 2 {
			t.Fatalf("ARCHITECTURE.md external modules: row %q has fewer than 2 columns", row)
		}
		name, mod := backticked.FindStringSubmatch(row[0]), backticked.FindStringSubmatch(row[1])
		if name == nil || mod == nil {
			t.Fatalf("ARCHITECTURE.md external modules: row %q: want `name` | `module path`", row)
		}
		a.modules[name[1]] = mod[1]
	}
	return a
}

// tableRows returns the cells of the first table after heading, header
// and separator rows left out.
func tableRows(t *testing.T, doc, heading string) [][]string {
	t.Helper()
	_, after, ok := strings.Cut(doc, "\n"+heading+"\n")
	if !ok {
		t.Fatalf("ARCHITECTURE.md has no heading %q", heading)
	}
	var rows [][]string
	inTable := false
	for _, line := range strings.Split(after, "\n") {
		if !strings.HasPrefix(line, "|") {
			if inTable {
				break
			}
			continue
		}
		inTable = true
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rows = append(rows, cells)
	}
	if len(rows) < 3 {
		t.Fatalf("ARCHITECTURE.md: no table under %q", heading)
	}
	return rows[2:]
}

// TestDependenciesMatchArchitecture checks every package's imports against
// the "depends on" column of ARCHITECTURE.md, both ways: a package imports
// nothing the column does not name, and the column names nothing the
// package does not import. Every package of the module has a row.
func TestDependenciesMatchArchitecture(t *testing.T) {
	pkgs := packages(t)
	arch := readArchitecture(t)
	own := ownPackages(t)
	moduleName := map[string]string{}
	for name, mod := range arch.modules {
		moduleName[mod] = name
	}
	for name, p := range own {
		allowed, ok := arch.deps[name]
		if !ok {
			t.Errorf("package %s has no row in ARCHITECTURE.md's package table", name)
			continue
		}
		have := map[string]bool{}
		for _, imp := range p.Imports {
			ip := pkgs[imp]
			switch r, ok := rel(imp); {
			case ok:
				have[r] = true
			case ip == nil || ip.Standard:
			case ip.Module == nil:
				t.Errorf("%s imports %s, which belongs to no module", name, imp)
			case moduleName[ip.Module.Path] == "":
				t.Errorf("%s imports %s of module %s, which ARCHITECTURE.md's external modules table does not list", name, imp, ip.Module.Path)
			default:
				have[moduleName[ip.Module.Path]] = true
			}
		}
		for dep := range have {
			if !slices.Contains(allowed, dep) {
				t.Errorf("%s imports %s, which ARCHITECTURE.md does not list among its dependencies (%s)", name, dep, strings.Join(allowed, ", "))
			}
		}
		for _, dep := range allowed {
			if !have[dep] {
				t.Errorf("ARCHITECTURE.md says %s depends on %s, which it does not import", name, dep)
			}
		}
	}
	for name := range arch.deps {
		if own[name] == nil {
			t.Errorf("ARCHITECTURE.md's package table has a row for %s, which is not a package of the module", name)
		}
	}
}

// TestProcessBoundary checks the rules the process boundary rests on.
func TestProcessBoundary(t *testing.T) {
	pkgs := packages(t)
	own := ownPackages(t)
	path := func(r string) string { return modulePath + "/" + r }

	// The pipe format links nothing of either side.
	wire := pkgs[path("sandbox/internal/wire")]
	if wire == nil {
		t.Fatal("no package sandbox/internal/wire")
	}
	for _, d := range wire.Deps {
		if !pkgs[d].Standard {
			t.Errorf("sandbox/internal/wire depends on %s: it must depend on the standard library only", d)
		}
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for name := range own {
			if !yield(name) {
				return
			}
		}
	})
	for _, name := range names {
		p := own[name]
		for _, imp := range p.Imports {
			r, ok := rel(imp)
			if !ok {
				continue
			}
			// The reflect symbol table is the worker's alone.
			if r == "sandbox/internal/symbols" && name != "sandbox/internal/worker" && !strings.HasPrefix(name, "sandbox/internal/worker/") {
				t.Errorf("%s imports sandbox/internal/symbols, which only the worker may import", name)
			}
			// The sandbox's internals stay inside it.
			if strings.HasPrefix(r, "sandbox/internal/") && name != "sandbox" && !strings.HasPrefix(name, "sandbox/") {
				t.Errorf("%s imports %s: nothing outside sandbox imports its internal packages", name, r)
			}
		}
	}
	// The kernel talks to an evaluator interface; the sandbox knows no
	// protocol.
	for _, c := range []struct{ from, to string }{{"kernel", "sandbox"}, {"sandbox", "kernel"}} {
		for _, d := range pkgs[path(c.from)].Deps {
			if r, ok := rel(d); ok && (r == c.to || strings.HasPrefix(r, c.to+"/")) {
				t.Errorf("%s depends on %s (%s): they must not import each other", c.from, c.to, r)
			}
		}
	}
}

// TestPackageDocs checks that every package of the module has a doc
// comment: inspect and go doc show it.
func TestPackageDocs(t *testing.T) {
	var missing []string
	for name, p := range ownPackages(t) {
		if strings.TrimSpace(p.Doc) == "" {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("packages without a doc comment (add one, in doc.go or the main file): %s", strings.Join(missing, ", "))
	}
}
