package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCompiledCellRefusals: what would let compiled code step outside Go's
// memory safety or the allow-list (unsafe, syscall, cgo, compiler
// directives, assembly, packages cells may not import, the kernel's own
// internal packages) is refused before anything is built, with the class
// an interpreted cell gets.
func TestCompiledCellRefusals(t *testing.T) {
	s := newCompiledSession(t, nil)
	before := s.opts.Compiler.b.Builds()
	for _, tc := range []struct {
		name, code, class, msg string
	}{
		{"unsafe", "//sbir:compile\nimport \"unsafe\"\nvar x int\nunsafe.Sizeof(x)", ClassNotAllowed, `"unsafe"`},
		{"unsafe in a program", "package main\n\nimport \"unsafe\"\n\nfunc main() { var x int; println(unsafe.Sizeof(x)) }", ClassNotAllowed, `"unsafe"`},
		{"syscall", "//sbir:compile\nimport \"syscall\"\nsyscall.Getpid()", ClassNotAllowed, `"syscall"`},
		{"cgo", "//sbir:compile\nimport \"C\"\nfmt.Println(1)", ClassNotAllowed, `"C"`},
		{"linkname", "//sbir:compile\n//go:linkname nanotime runtime.nanotime\nfunc nanotime() int64\nnanotime()", ClassNotAllowed, "//go:"},
		{"embed", "//sbir:compile\nimport _ \"embed\"\n//go:embed /etc/passwd\nvar passwd string\npasswd", ClassNotAllowed, ""},
		{"assembly (a function without a body)", "//sbir:compile\nfunc add(a, b int) int\nadd(1, 2)", ClassNotAllowed, "without a body"},
		{"os/exec", "//sbir:compile\nimport \"os/exec\"\nexec.Command(\"sh\").Run()", ClassNotAllowed, `"os/exec"`},
		{"net", "//sbir:compile\nimport \"net\"\nnet.Dial(\"tcp\", \"127.0.0.1:22\")", ClassNotAllowed, `"net"`},
		{"runtime/debug", "//sbir:compile\nimport \"runtime/debug\"\ndebug.SetMemoryLimit(-1)", ClassNotAllowed, `"runtime/debug"`},
		{"the kernel's internal packages", "//sbir:compile\nimport \"github.com/sbirtools/sbir-kernel/sandbox/internal/worker/isolate\"\nisolate.DenyExec()", ClassNotAllowed, "isolate"},
		{"a huge cell", "//sbir:compile\nx := 0\n" + strings.Repeat("x++\n", 30<<10), ClassCodeTooLarge, ""},
	} {
		res := run(t, s, tc.code)
		if res.Success || res.ErrorName != tc.class || !strings.Contains(res.ErrorMessage, tc.msg) {
			t.Errorf("%s: %s: %s; want %s naming %q", tc.name, res.ErrorName, res.ErrorMessage, tc.class, tc.msg)
		}
	}
	if n := s.opts.Compiler.b.Builds() - before; n != 0 {
		t.Errorf("%d refused cells were built", n)
	}
}

// TestCompiledCellContained: what compiled Go may express but must not do
// (read files, /proc or the kernel's environment, write files, flood the
// process with goroutines or memory, or make the build produce a huge
// program) fails inside the cell, and the session goes on.
func TestCompiledCellContained(t *testing.T) {
	t.Setenv("SBIR_TEST_SECRET", "s3cret")
	s := newCompiledSession(t, func(o *Options) {
		o.Limits.HeapBytes = 64 << 20
		o.Limits.MaxOutputBytes = 4 << 10
	})
	dir := t.TempDir()
	written := filepath.Join(dir, "escaped")
	probe := `//sbir:compile
for _, f := range []string{"/proc/self/environ", "/proc/1/cmdline", "/etc/passwd", "` + dir + `"} {
	_, err := os.ReadFile(f)
	fmt.Println(f, err != nil)
}
fmt.Println("write", os.WriteFile("` + written + `", []byte("x"), 0o644) != nil)
fmt.Println("mkdir", os.Mkdir("` + written + `.d", 0o755) != nil)
fmt.Println("env", os.Environ(), os.Getenv("SBIR_TEST_SECRET") != "")`
	res := run(t, s, probe)
	if !res.Success {
		t.Fatalf("the probe: %s: %s\n%s", res.ErrorName, res.ErrorMessage, res.Stderr)
	}
	for _, l := range strings.Split(strings.TrimSpace(res.Stdout), "\n") {
		// The environment is the worker's: GOTRACEBACK alone.
		if env := strings.HasPrefix(l, "env "); (env && l != "env [GOTRACEBACK=single] false") || (!env && !strings.HasSuffix(l, " true")) {
			t.Errorf("a compiled cell escaped: %q", l)
		}
	}
	if _, err := os.Stat(written); !os.IsNotExist(err) {
		t.Errorf("a compiled cell wrote %s", written)
	}

	for _, tc := range []struct{ name, code, class, msg string }{
		{"goroutine bomb", "//sbir:compile\nfor {\n\tgo func() { select {} }()\n}", ClassPanic, "too many goroutines: the cell already has 10000 alive"},
		{"one huge allocation", "//sbir:compile\nb := make([]byte, 1<<40)\nb[len(b)-1] = 1\nlen(b)", ClassMemoryError, "heap limit"},
		{"one allocation eight times the heap limit, untouched", "//sbir:compile\nb := make([]byte, 512<<20)\nb[0] = 1\nlen(b)", ClassMemoryError, "heap limit"},
		{"allocations past the heap limit, touched", "//sbir:compile\nb := make([]byte, 256<<20)\nfor i := range b { b[i] = 1 }\nlen(b)", ClassMemoryError, "heap limit"},
		{"a huge package variable", "//sbir:compile\nvar big [1 << 36]byte\nbig[len(big)-1] = 1\nlen(big)", "", ""},
	} {
		res := run(t, s, tc.code)
		if res.Success {
			t.Errorf("%s: succeeded: %+v", tc.name, res)
			continue
		}
		if tc.class != "" && (res.ErrorName != tc.class || !strings.Contains(res.ErrorMessage, tc.msg)) {
			t.Errorf("%s: %s: %s; want %s naming %q", tc.name, res.ErrorName, res.ErrorMessage, tc.class, tc.msg)
		}
		t.Logf("%s: %s: %s", tc.name, res.ErrorName, firstLineOf(res.ErrorMessage))
	}
	if r := run(t, s, "1 + 1"); !r.Success || value(r) != "2" {
		t.Errorf("the session after them: %+v", r)
	}
}

// TestCompiledCellOutputCapped: a compiled cell's output is capped as an
// interpreted cell's is, on standard output, standard error and the
// runtime's own println.
func TestCompiledCellOutputCapped(t *testing.T) {
	const limit = 4 << 10
	s := newCompiledSession(t, func(o *Options) { o.Limits.MaxOutputBytes = limit })
	for _, code := range []string{
		"//sbir:compile\nfor i := 0; i < 100000; i++ {\n\tfmt.Println(\"flooding standard output\", i)\n}\n\"done\"",
		"//sbir:compile\nfor i := 0; i < 100000; i++ {\n\tfmt.Fprintln(os.Stderr, \"flooding standard error\", i)\n\tprintln(\"and the runtime's\", i)\n}\n\"done\"",
	} {
		res := run(t, s, code)
		if !res.Success || value(res) != `"done"` {
			t.Errorf("%s: %s", res.ErrorName, res.ErrorMessage)
		}
		if n := len(res.Stdout) + len(res.Stderr); n > limit+512 {
			t.Errorf("%d bytes of output kept; the limit is %d", n, limit)
		}
		if !strings.Contains(res.Stdout+res.Stderr, "truncated") {
			t.Errorf("no truncation note:\n%s%s", res.Stdout, res.Stderr)
		}
	}
}

// TestCompiledCellTimeLimitWithGoroutines: the time limit ends the cell
// and every goroutine it started, whatever they do.
func TestCompiledCellTimeLimitWithGoroutines(t *testing.T) {
	s := newCompiledSession(t, func(o *Options) { o.Limits.CellTimeout = slow(3 * time.Second) })
	res := run(t, s, "//sbir:compile\nfor i := 0; i < 4; i++ {\n\tgo func() {\n\t\tfor {\n\t\t}\n\t}()\n}\nselect {}")
	if res.ErrorName != ClassTimeout {
		t.Errorf("%s: %s", res.ErrorName, res.ErrorMessage)
	}
}

func firstLineOf(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
