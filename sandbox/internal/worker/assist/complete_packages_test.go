package assist

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// writeTree writes files (slash-separated names relative to dir) and
// returns dir.
func writeTree(t testing.TB, dir string, files map[string]string) string {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestReadPkgDocsBounds checks which files of a package's source are read:
// only regular, small, buildable, non-test files of the package, never a
// symbolic link, and nothing outside the environment.
func TestReadPkgDocsBounds(t *testing.T) {
	outside := writeTree(t, t.TempDir(), map[string]string{
		"evil.go":      "package p\n\n// Outside is outside the environment.\nfunc Outside() {}\n",
		"dir/other.go": "package other\n\n// Other is outside the environment.\nfunc Other() {}\n",
	})
	env := writeTree(t, t.TempDir(), map[string]string{
		"src/example.com/p/p.go":            "// Package p is a test package.\npackage p\n\n// Kept is documented.\nfunc Kept(x int) string { return \"\" }\n\nfunc unexported() {}\n",
		"src/example.com/p/big.go":          "package p\n\n// Big is in a file over the size cap.\nfunc Big() {}\n\n//" + strings.Repeat("x", maxDocFileBytes) + "\n",
		"src/example.com/p/p_test.go":       "package p\n\nfunc TestKept() {}\n",
		"src/example.com/p/p_windows.go":    "package p\n\n// Windows is for another system.\nfunc Windows() {}\n",
		"src/example.com/p/ignored.go":      "//go:build ignore\n\npackage main\n\n// Ignored is never built.\nfunc Ignored() {}\n",
		"src/example.com/p/cgo.go":          "package p\n\nimport \"C\"\n\n// Cgo needs cgo.\nfunc Cgo() {}\n",
		"src/example.com/p/notgo.txt":       "package p\n\nfunc NotGo() {}\n",
		"src/example.com/p/sub/sub.go":      "package sub\n\n// Sub is another package.\nfunc Sub() {}\n",
		"src/example.com/p/testdata/td.go":  "package td\n\nfunc TD() {}\n",
		"src/example.com/cmd/main.go":       "package main\n\nfunc main() {}\n",
		"src/example.com/empty/README.md":   "no Go here\n",
		"src/example.com/p/other/doc.go":    "package other\n",
		"src/example.com/inside/inside.go":  "package inside\n\n// In is inside.\nfunc In() {}\n",
		"src/example.com/inside/inside2.go": "package inside\n\n// In2 is inside.\nfunc In2() {}\n",
	})
	pkgDir := filepath.Join(env, "src", "example.com", "p")
	for link, target := range map[string]string{
		filepath.Join(pkgDir, "link.go"):                   filepath.Join(outside, "evil.go"),
		filepath.Join(env, "src", "example.com", "linked"): filepath.Join(outside, "dir"),
		filepath.Join(env, "src", "example.com", "rel"):    "../../../" + filepath.Base(outside) + "/dir",
	} {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	d := newSourceDocs(env)
	pd := d.load("example.com/p")
	if pd == nil {
		t.Fatal("example.com/p was not read")
	}
	if got := strings.Join(pd.members, ","); got != "Kept" {
		t.Errorf("members %q, want only Kept", got)
	}
	if e := pd.entries["Kept"]; e.Sig != "func Kept(x int) string" || e.Doc != "Kept is documented.\n" {
		t.Errorf("Kept: %+v", e)
	}
	if e := pd.entries[""]; e.Sig != "package p" || !strings.Contains(e.Doc, "Package p is a test package.") {
		t.Errorf("package entry: %+v", e)
	}
	for _, p := range []string{
		"example.com/linked", "example.com/rel", // symbolic links out of the environment
		"example.com/cmd", "example.com/empty", "example.com/none", // a command, no Go files, absent
		"example.com/../../etc", "/etc", "example.com/p/../sub", "strings", "fmt", // malformed or standard
	} {
		if pd := d.load(p); pd != nil {
			t.Errorf("%s: read %q, want nothing", p, pd.members)
		}
	}
	if pd := d.load("example.com/inside"); pd == nil || strings.Join(pd.members, ",") != "In,In2" {
		t.Errorf("example.com/inside: %+v", pd)
	}
}

// TestSourceDocsCache checks that a package is parsed once per worker: a
// change to its source after the first read is not seen.
func TestSourceDocsCache(t *testing.T) {
	env := writeTree(t, t.TempDir(), map[string]string{
		"src/example.com/q/q.go": "package q\n\n// A is a.\nconst A = 1\n",
	})
	d := newSourceDocs(env)
	d.noteImports([]wire.Chunk{{Code: "import qq \"example.com/q\""}, {Code: "import \"example.com/q\""}})
	if pd := d.lookup("", "qq"); pd == nil || strings.Join(pd.members, ",") != "A" {
		t.Fatalf("qq: %+v", pd)
	}
	writeTree(t, env, map[string]string{"src/example.com/q/b.go": "package q\n\n// B is b.\nconst B = 2\n"})
	if pd := d.lookup("", "q"); pd == nil || strings.Join(pd.members, ",") != "A" {
		t.Errorf("q was read again: %+v", pd)
	}
	if got := d.names("import z \"example.com/q\""); strings.Join(got, ",") != "z,q,qq" {
		t.Errorf("names %q", got)
	}
	var none *sourceDocs
	if none.lookup("import \"example.com/q\"", "q") != nil || newSourceDocs("").lookup("import \"example.com/q\"", "q") != nil {
		t.Error("a worker without an environment found a package")
	}
}

func TestScanImports(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string // "name path"
	}{
		{name: "single", src: `import "example.com/a"`, want: []string{" example.com/a"}},
		{name: "renamed", src: `import b "example.com/a"`, want: []string{"b example.com/a"}},
		{name: "group", src: "import (\n\t\"fmt\"\n\tx \"example.com/x\" // c\n\t_ \"example.com/blank\"\n\t. \"example.com/dot\"\n\t`example.com/raw`\n)\nx.F()",
			want: []string{" fmt", "x example.com/x", " example.com/raw"}},
		{name: "two declarations", src: "//sbir:require example.com/a v1.0.0\nimport \"example.com/a\"\nimport c \"example.com/c\"\na.F()", want: []string{" example.com/a", "c example.com/c"}},
		{name: "unfinished", src: "import (\n\t\"example.com/a\"\n\ty \"exam", want: []string{" example.com/a"}},
		{name: "in a string or comment", src: "s := \"import \\\"example.com/no\\\"\" // import \"example.com/no\"", want: nil},
		{name: "not an import", src: "import\nfunc f() {}\n\"example.com/no\"", want: nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			scanImports(tc.src, func(name, path string) { got = append(got, name+" "+path) })
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func FuzzScanImports(f *testing.F) {
	for _, s := range []string{`import "a.b/c"`, "import (\n\tx \"a.b/x\"\n)", "import (", "import x", "\"import\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		scanImports(src, func(name, path string) {
			if name == "_" || name == "." {
				t.Errorf("%q: reported the blank or dot import of %q", src, path)
			}
		})
	})
}

// BenchmarkReadPkgDocs measures the first read of a package (later ones are
// cached).
func BenchmarkReadPkgDocs(b *testing.B) {
	files := map[string]string{}
	for i := 0; i < 20; i++ {
		var s strings.Builder
		s.WriteString("package p\n\n")
		for j := 0; j < 20; j++ {
			name := string(rune('A'+i)) + string(rune('a'+j))
			s.WriteString("// " + name + " returns the sum of xs.\nfunc " + name + "(xs []float64) (float64, error) {\n\tt := 0.0\n\tfor _, x := range xs {\n\t\tt += x\n\t}\n\treturn t, nil\n}\n\n")
		}
		files["src/example.com/p/f"+string(rune('a'+i))+".go"] = s.String()
	}
	env := writeTree(b, b.TempDir(), files)
	root, err := os.OpenRoot(env)
	if err != nil {
		b.Fatal(err)
	}
	defer root.Close()
	b.ResetTimer()
	for b.Loop() {
		if pd := readPkgDocs(root, "example.com/p"); pd == nil || len(pd.members) != 400 {
			b.Fatal("not read")
		}
	}
}
