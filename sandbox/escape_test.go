package sandbox

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// Cells cannot reach the host, its files, secrets and network, nor the
// sandbox's own machinery: each way an interpreter bug, a compiled
// method or a reflect value could give them is closed.

// TestHostileOS checks the OS layers from inside a real worker: each
// escape an interpreter bug could give a cell must fail. A probe that
// succeeds is a failure when a layer that should stop it is active, and
// skips (naming the layer) when the host lacks every such layer.
func TestHostileOS(t *testing.T) {
	const secret = "SBIR_TEST_SECRET_TOKEN"
	t.Setenv(secret, "hunter2")
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer tcp.Close()
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	next := filepath.Join(t.TempDir(), "connection.json")
	if err := os.WriteFile(next, []byte(`{"key": "hmac-secret"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newTestSession(t, nil)
	results, err := s.probe(wire.ProbeTarget{TCP: tcp.Addr().String(), UDP: udp.LocalAddr().String(), PID: os.Getpid(), Secret: secret, File: next})
	if err != nil {
		t.Fatal(err)
	}
	// Which layers stop each probe (seccomp refuses opening files in a
	// worker without a package environment, as this one is).
	stoppers := map[string][]string{
		"read /etc/passwd":               {"landlock", "seccomp"},
		"read /proc/self/environ":        {"landlock", "seccomp"},
		"read a file next to the kernel": {"landlock", "seccomp"},
		"list /proc":                     {"landlock", "seccomp"},
		"write /tmp":                     {"landlock", "rlimits", "seccomp"},
		"environment secret":             {"worker-process"},
		"tcp connect":                    {"namespaces", "seccomp", "landlock"},
		"udp send":                       {"namespaces", "seccomp"},
		"exec /bin/true":                 {"seccomp", "landlock"},
		"fork":                           {"seccomp"},
	}
	for _, r := range results {
		r := r
		t.Run(r.Name, func(t *testing.T) {
			if r.Blocked {
				return
			}
			layers := stoppers[r.Name]
			if strings.HasPrefix(r.Name, "signal the supervisor") {
				layers = []string{"namespaces", "landlock"}
			}
			var inactive []string
			for _, l := range layers {
				active, detail := layerActive(s, l)
				if active {
					t.Fatalf("%s succeeded (%s) although layer %s is active", r.Name, r.Detail, l)
				}
				inactive = append(inactive, l+": "+detail)
			}
			t.Skipf("%s is possible on this host: it needs a layer that is not active (%s)", r.Name, strings.Join(inactive, "; "))
		})
	}
	if len(results) < 10 {
		t.Errorf("only %d probes ran", len(results))
	}
}

// TestTemplateMethodsCannotReadFiles: the symbol table removes
// template.ParseFiles and ParseGlob because they read host files, but the
// methods of the same names on *template.Template stay callable, from cell
// code and from a template's own text (text/template calls methods of its
// data by reflection); the table cannot remove a compiled type's methods.
// Only Landlock stood between them and the host's files: on hosts without
// it, and here for the files Landlock leaves readable to a cgo build's
// loader (/etc/ld.so.cache, /lib, ...), a cell read and printed a host file.
// A worker without a package environment must open no file at all.
func TestTemplateMethodsCannotReadFiles(t *testing.T) {
	const file = "/etc/ld.so.cache" // readable to a cgo build's worker under Landlock
	if _, err := os.Stat(file); err != nil {
		t.Skipf("%s: %v", file, err)
	}
	s := newTestSession(t, nil)
	for _, code := range []string{
		`t, err := template.New("x").ParseFiles("` + file + `")
var b strings.Builder
if err == nil { t.ExecuteTemplate(&b, "ld.so.cache", nil); fmt.Printf("READ %d bytes", b.Len()) }`,
		`import ht "html/template"
if _, err := ht.New("x").ParseFiles("` + file + `"); err == nil { fmt.Print("READ") }`,
		`f := template.New("x").ParseGlob
if _, err := f("` + file + `"); err == nil { fmt.Print("READ") }`,
		// The method called by the template engine, by reflection.
		`t := template.Must(template.New("x").Parse("{{with .ParseFiles \"` + file + `\"}}{{len .Templates}}{{end}}"))
if err := t.Execute(io.Discard, template.New("y")); err == nil { fmt.Print("READ") }`,
	} {
		r := run(t, s, code)
		if strings.Contains(r.Stdout, "READ") {
			t.Errorf("%s\nprinted %.200q: a template method read a host file", code, r.Stdout)
		}
	}
	// The package's own functions are not there at all.
	for _, code := range []string{`template.ParseFiles("/etc/passwd")`, `import ht "html/template"` + "\n" + `ht.ParseGlob("/etc/*")`} {
		if r := run(t, s, code); r.ErrorName != ClassCompileError || !strings.Contains(r.ErrorMessage, "has no symbol Parse") {
			t.Errorf("%s: %s: %s; want a CompileError (the function is not in the table)", code, r.ErrorName, r.ErrorMessage)
		}
	}
}

// TestNoReflectThroughJSONErrors: issue 13 item 8's inputs. The json
// error types whose fields are reflect values cannot be named, so their
// fields cannot be read; the errors themselves still work.
func TestNoReflectThroughJSONErrors(t *testing.T) {
	sess := newTestSession(t, nil)
	for _, code := range []string{
		"var e *json.UnmarshalTypeError\nerrors.As(json.Unmarshal([]byte(`1`), new(string)), &e)\ne.Type",
		"var e *json.UnsupportedValueError\nerrors.As(json.Unmarshal([]byte(`1`), new(string)), &e)\ne.Value",
		"json.Unmarshal([]byte(`1`), new(string)).(*json.UnmarshalTypeError).Type.Name()",
	} {
		r := run(t, sess, code)
		// The interpreter's path decides the wording ("undefined
		// selector", or the package "has no symbol", which assist words
		// as withheld: the package has it, cells do not).
		if r.Success || r.ErrorName != "CompileError" || !strings.Contains(r.ErrorMessage, "undefined selector encoding/json.Un") && !strings.Contains(r.ErrorMessage, " is not available in cells: ") {
			t.Errorf("%q: %v %s: %s", code, r.Success, r.ErrorName, r.ErrorMessage)
		}
	}
	r := run(t, sess, "json.Unmarshal([]byte(`1`), new(string))")
	if !r.Success || value(r) != "json: cannot unmarshal number into Go value of type string" {
		t.Errorf("%+v", r)
	}
}

// TestCellsCannotReplaceTheHelpers replays a red-team finding: a cell's
// top-level `_sbir` took the place of the helper package, so that the go
// and defer statements of later cells called the cell's own functions.
func TestCellsCannotReplaceTheHelpers(t *testing.T) {
	s := newTestSession(t, nil)
	r := run(t, s, "type S struct{ Go func(func()) }\n_sbir := S{Go: func(f func()) { fmt.Println(\"mine\") }}")
	if r.Success || r.ErrorName != ClassNotAllowed {
		t.Fatalf("declaring _sbir: %+v", r)
	}
	r = run(t, s, "ch := make(chan int)\ngo func() { ch <- 1 }()\n<-ch")
	if !r.Success || value(r) != "1" || strings.Contains(r.Stdout, "mine") {
		t.Fatalf("a go statement after: %+v", r)
	}
}
