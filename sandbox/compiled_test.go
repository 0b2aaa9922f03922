package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/cellprep"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// TestCompiledCellEndToEnd runs a compiled cell through a session: built
// with gc, run under the isolation layers, its output, display and value
// relayed as an interpreted cell's are.
func TestCompiledCellEndToEnd(t *testing.T) {
	s := newCompiledSession(t, nil)
	var events []string
	h := &Handlers{
		Stream:  func(name, text string) { events = append(events, name+":"+text) },
		Display: func(d Display) { events = append(events, "display:"+d.Data["text/plain"].(string)) },
	}
	res, err := s.Run(t.Context(), "//sbir:compile\nfmt.Println(\"before\")\ndisplay.Markdown(\"**shown**\")\nfmt.Fprintln(os.Stderr, \"after\")\naward_data.Count()", h)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Success {
		t.Fatalf("the compiled cell failed: %s: %s\n%s", res.ErrorName, res.ErrorMessage, res.Stderr)
	}
	if got := strings.Join(events, "|"); got != "stdout:before\n|display:**shown**|stderr:after\n" {
		t.Errorf("events in order: %q", got)
	}
	if value(res) != "2000" {
		t.Errorf("value %q; want the sample's 2000 awards", value(res))
	}
}

// TestCompiledCrashReportOutlivesCollections: the runtime reports a
// fatal error on descriptor 2, which must stay open however many
// collections came before (the File os.Stderr held before cellrt
// replaced it was closed by its cleanup, and the report lost: the cell
// ended as "exit status 2" with nothing to say why).
func TestCompiledCrashReportOutlivesCollections(t *testing.T) {
	s := newCompiledSession(t, nil)
	const code = "//sbir:compile\nvar sink []byte\nfor i := 0; i < 4000; i++ {\n\tsink = make([]byte, 64<<10)\n}\n_ = sink\nch := make(chan int)\nch <- 1"
	for range 3 {
		res := run(t, s, code)
		if res.ErrorName != ClassDeadlock || !slices.Contains(res.Traceback, "  at line 8, in the cell") {
			t.Fatalf("%s: %s %q; want the runtime's deadlock report at line 8", res.ErrorName, res.ErrorMessage, res.Traceback)
		}
	}
}

// TestCompiledCellKeepsBlockTypes: a type declared in a block of a
// cell's top-level statements, which the interpreter refuses, runs as gc
// scopes it when the cell is compiled.
func TestCompiledCellKeepsBlockTypes(t *testing.T) {
	s := newCompiledSession(t, nil)
	res := run(t, s, "//sbir:compile\nfor i := 0; i < 2; i++ {\n\ttype P struct{ N int }\n\tfmt.Println(P{i})\n}")
	if !res.Success || res.Stdout != "{0}\n{1}\n" {
		t.Fatalf("%s: %s; stdout %q, want gc's {0} and {1}", res.ErrorName, res.ErrorMessage, res.Stdout)
	}
	res = run(t, s, "if true {\n\ttype U string\n\tfmt.Println(U(\"u\"))\n}")
	if res.ErrorName != ClassNotAllowed || !strings.Contains(res.ErrorMessage, "type U declared inside a block") {
		t.Fatalf("interpreted: %s: %s; want the refusal", res.ErrorName, res.ErrorMessage)
	}
}

// TestCompiledCellEnds: every way a compiled cell ends is reported with
// the class an interpreted cell's would have, at the cell's lines, and
// nothing of it outlives the cell.
func TestCompiledCellEnds(t *testing.T) {
	s := newCompiledSession(t, func(o *Options) {
		o.Limits.CellTimeout = slow(6 * time.Second)
		o.Limits.HeapBytes = 64 << 20
	})
	for _, tc := range []struct {
		name, code string
		class, msg string
		trace      string // a traceback line
		stdout     string
		stderr     string
	}{
		{name: "runtime error in the cell", code: "//sbir:compile\nxs := []int{1}\ni := 3\nfmt.Println(\"before\")\nfmt.Println(xs[i])",
			class: ClassRuntimeError, msg: "runtime error: index out of range [3] with length 1", trace: "  at line 5, in the cell", stdout: "before\n"},
		{name: "panic in a goroutine", code: "//sbir:compile\nfunc boom() { panic(\"boom\") }\ndone := make(chan bool)\ngo func() { boom(); done <- true }()\n<-done",
			class: ClassPanic, msg: "boom (in a goroutine the cell started)", trace: "  at line 2, in boom"},
		{name: "os.Exit", code: "package main\n\nimport \"os\"\n\nfunc main() {\n\tfmt.Println(\"bye\")\n\tdefer fmt.Println(\"not run\")\n\tos.Exit(3)\n}",
			class: ClassExit, msg: "exit status 3", stdout: "bye\n"},
		{name: "deadlock", code: "//sbir:compile\nch := make(chan int)\nch <- 1",
			class: ClassDeadlock, msg: "all goroutines are asleep - deadlock!", trace: "  at line 3, in the cell"},
		{name: "println goes to stderr", code: "//sbir:compile\nprintln(\"hi from println\")\npanic(fmt.Sprint(\"a \", 42))",
			class: ClassPanic, msg: "a 42", trace: "  at line 3, in the cell", stderr: "hi from println\n"},
		{name: "heap limit", code: "//sbir:compile\nvar keep [][]byte\nfor {\n\tkeep = append(keep, make([]byte, 1<<20))\n\tkeep[len(keep)-1][0] = 1\n}",
			class: ClassMemoryError, msg: "heap limit"},
		{name: "time limit", code: "//sbir:compile\nn := 0\nfor {\n\tn++\n}",
			class: ClassTimeout, msg: "time limit"},
	} {
		res := run(t, s, tc.code)
		if res.Success || res.ErrorName != tc.class || !strings.Contains(res.ErrorMessage, tc.msg) {
			t.Errorf("%s: %s: %s; want %s containing %q\nstderr: %s", tc.name, res.ErrorName, res.ErrorMessage, tc.class, tc.msg, res.Stderr)
			continue
		}
		if tc.trace != "" && !slices.Contains(res.Traceback, tc.trace) {
			t.Errorf("%s: traceback %q lacks %q", tc.name, res.Traceback, tc.trace)
		}
		if res.Stdout != tc.stdout || (tc.stderr != "" && res.Stderr != tc.stderr) {
			t.Errorf("%s: stdout %q stderr %q; want %q and %q", tc.name, res.Stdout, res.Stderr, tc.stdout, tc.stderr)
		}
		if all := strings.Join(res.Traceback, "\n") + res.Stderr + res.ErrorMessage; strings.Contains(all, " [running]") || strings.Contains(all, "+0x") || strings.Contains(all, ".go:") {
			t.Errorf("%s: a Go stack trace reached the user:\n%s\n%s", tc.name, res.Traceback, res.Stderr)
		}
	}
	// The session lives on: its interpreter was never involved.
	if r := run(t, s, "1 + 1"); !r.Success || value(r) != "2" || r.Restarted {
		t.Errorf("the interpreted cell after them: %+v", r)
	}
}

// TestCompiledGoroutinesEndWithTheCell: what a compiled cell started is
// gone when it ends; nothing prints into a later cell.
func TestCompiledGoroutinesEndWithTheCell(t *testing.T) {
	s := newCompiledSession(t, nil)
	res := run(t, s, "//sbir:compile\ngo func() {\n\tfor {\n\t\tfmt.Println(\"tick\")\n\t\ttime.Sleep(time.Millisecond)\n\t}\n}()\ntime.Sleep(20 * time.Millisecond)\n\"done\"")
	if !res.Success || value(res) != `"done"` || !strings.Contains(res.Stdout, "tick") {
		t.Fatalf("the cell: %+v", res)
	}
	later := run(t, s, "time.Sleep(100 * time.Millisecond)\n1")
	if strings.Contains(later.Stdout, "tick") || strings.Contains(later.Stderr, "tick") {
		t.Errorf("a compiled cell's goroutine printed into a later cell: %q", later.Stdout)
	}
}

// TestCompiledCellInterrupted: cancelling the cell's context stops its
// process at once.
func TestCompiledCellInterrupted(t *testing.T) {
	s := newCompiledSession(t, nil)
	ctx, cancel := context.WithCancel(t.Context())
	started := make(chan struct{})
	var once sync.Once
	go func() {
		<-started
		cancel()
	}()
	res, err := s.Run(ctx, "//sbir:compile\nfmt.Println(\"spinning\")\nfor {\n}", &Handlers{Stream: func(string, string) { once.Do(func() { close(started) }) }})
	if err != nil {
		t.Fatal(err)
	}
	if res.ErrorName != ClassInterrupted {
		t.Errorf("an interrupted compiled cell: %s: %s", res.ErrorName, res.ErrorMessage)
	}
}

// TestCompiledCellsShareDeclarations: a compiled cell carries in the
// functions, types and constants of earlier cells, interpreted or
// compiled; a session variable is a clear error; an interpreted cell
// still has its variables after a compiled one ran.
func TestCompiledCellsShareDeclarations(t *testing.T) {
	s := newCompiledSession(t, nil)
	for _, c := range []struct{ code, want string }{
		{"type Point struct{ X, Y int }\nfunc (p Point) Sum() int { return p.X + p.Y }\nconst scale = 10\nkept := 7", ""},
		{"//sbir:compile\nfunc fib(n int) int {\n\tif n < 2 {\n\t\treturn n\n\t}\n\treturn fib(n-1) + fib(n-2)\n}\nPoint{fib(20), scale}.Sum()", "6775"},
		{"//sbir:compile\nfib(25) * scale", "750250"},
		{"kept * 6", "42"},
	} {
		res := run(t, s, c.code)
		if !res.Success || value(res) != c.want {
			t.Fatalf("%q: %s: %s; value %q, want %q", c.code, res.ErrorName, res.ErrorMessage, value(res), c.want)
		}
	}
	res := run(t, s, "//sbir:compile\nkept + fib(3)")
	if res.ErrorName != ClassCompileError || !strings.HasPrefix(res.ErrorMessage, "line 2, column 1: kept is a variable of this session") {
		t.Errorf("a compiled cell using a session variable: %s: %s", res.ErrorName, res.ErrorMessage)
	}
}

// TestCompiledCellErrors: the compiler's errors come back at the cell's
// lines and columns, never with a path of the build; a call without a
// value runs as a statement.
func TestCompiledCellErrors(t *testing.T) {
	s := newCompiledSession(t, nil)
	res := run(t, s, "//sbir:compile\nx := 1\n\ty := undefinedThing + 1")
	if res.ErrorName != ClassCompileError {
		t.Fatalf("%s: %s", res.ErrorName, res.ErrorMessage)
	}
	for _, want := range []string{"line 3, column 7: undefined: undefinedThing"} {
		if !strings.Contains(res.ErrorMessage, want) {
			t.Errorf("errors lack %q:\n%s", want, res.ErrorMessage)
		}
	}
	if strings.Contains(res.ErrorMessage, "/") || strings.Contains(res.ErrorMessage, ".go") {
		t.Errorf("errors name a file of the build:\n%s", res.ErrorMessage)
	}
	// The launcher started while the cell was built has ended with it.
	if pids := launchers(t); len(pids) > 0 {
		t.Errorf("launchers %v outlived a build that failed", pids)
	}
	res = run(t, s, "//sbir:compile\nfunc greet() { fmt.Println(\"hello\") }\ngreet()")
	if !res.Success || res.Stdout != "hello\n" || res.Value != nil {
		t.Errorf("a call without a value: %+v", res)
	}
	res = run(t, s, "//sbir:compile\n_, err := os.ReadFile(\"/etc/passwd\")\nerr")
	if !res.Success || !strings.Contains(value(res), "/etc/passwd: operation not permitted") {
		t.Errorf("a compiled cell reading a file: %s %s %q", res.ErrorName, res.ErrorMessage, value(res))
	}
}

// TestCompileOffRunsInterpreted: without a compiler a program runs
// interpreted, and a cell that asked to be compiled says why it was not.
func TestCompileOffRunsInterpreted(t *testing.T) {
	s, err := NewSession(t.Context(), Options{DataPath: testDataPath, CompileOff: "compiled execution is off (--compile=off)"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res := run(t, s, "//sbir:compile\nfib := 0\nfib + 1")
	if !res.Success || value(res) != "1" || res.Stderr != "note: //sbir:compile ignored, the cell ran interpreted: compiled execution is off (--compile=off)\n" {
		t.Errorf("an explicit cell: %+v", res)
	}
	// A program's variables stay in the session: it ran interpreted.
	res = run(t, s, "package main\n\nvar answer int\n\nfunc main() { answer = 42; fmt.Println(\"ran\") }")
	if !res.Success || res.Stdout != "ran\n" || res.Stderr != "" {
		t.Fatalf("a program: %+v", res)
	}
	if r := run(t, s, "answer"); value(r) != "42" {
		t.Errorf("the program's variable afterwards: %+v", r)
	}
}

// TestCompiledCellsAreCached: the same cell again runs the binary built
// the first time; a changed cell is built again.
func TestCompiledCellsAreCached(t *testing.T) {
	s := newCompiledSession(t, nil)
	b := s.opts.Compiler.b
	code := "//sbir:compile\nfmt.Println(" + strconv.Quote(t.Name()) + ")"
	before := b.Builds()
	for range 2 {
		if res := run(t, s, code); !res.Success || res.Stdout != t.Name()+"\n" {
			t.Fatalf("%+v", res)
		}
	}
	if n := b.Builds() - before; n != 1 {
		t.Errorf("the same cell twice ran %d builds; want 1", n)
	}
	run(t, s, code+"\n1")
	if n := b.Builds() - before; n != 2 {
		t.Errorf("a changed cell: %d builds in all; want 2", n)
	}
}

// TestInterpretedCellNamesACompiledDeclaration: the interpreter does not
// know what a compiled cell declared, and says why.
func TestInterpretedCellNamesACompiledDeclaration(t *testing.T) {
	s := newCompiledSession(t, nil)
	if res := run(t, s, "//sbir:compile\nfunc triple(n int) int { return 3 * n }\ntriple(2)"); !res.Success || value(res) != "6" {
		t.Fatalf("the compiled cell: %+v", res)
	}
	res := run(t, s, "triple(3)")
	if res.ErrorName != ClassCompileError || !strings.Contains(res.ErrorMessage, "undefined: triple (triple was declared by a compiled cell") {
		t.Errorf("an interpreted cell using it: %s: %s", res.ErrorName, res.ErrorMessage)
	}
}

// TestCompilerWarm: warming up builds what every compiled cell links,
// once.
func TestCompilerWarm(t *testing.T) {
	c := testCompiler(t)
	if _, _, err := c.Warm(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, cached, err := c.Warm(t.Context()); err != nil || !cached {
		t.Errorf("the second warm-up: cached %v, %v; want the first's binary", cached, err)
	}
}

// TestDeferredSessionStartsNoWorkerForCompiledCells: a session with
// DeferStart (`run` of a whole program) runs compiled cells without
// starting the interpreter's worker; the first interpreted cell starts
// it, and still knows what the compiled cells declared.
func TestDeferredSessionStartsNoWorkerForCompiledCells(t *testing.T) {
	s := newCompiledSession(t, func(o *Options) { o.DeferStart = true })
	res := run(t, s, "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"compiled\", 6*7) }")
	if !res.Success || res.Stdout != "compiled 42\n" {
		t.Fatalf("the program: %+v", res)
	}
	if res := run(t, s, "//sbir:compile\nfunc quadruple(n int) int { return 4 * n }\nquadruple(2)"); !res.Success || value(res) != "8" {
		t.Fatalf("the compiled cell: %+v", res)
	}
	if s.p != nil || len(s.Layers()) != 0 {
		t.Fatalf("compiled cells started the interpreter's worker (layers %v)", s.Layers())
	}
	res = run(t, s, "quadruple(3)")
	if res.ErrorName != ClassCompileError || !strings.Contains(res.ErrorMessage, "quadruple was declared by a compiled cell") {
		t.Errorf("an interpreted cell using a compiled declaration: %s: %s", res.ErrorName, res.ErrorMessage)
	}
	if res := run(t, s, "n := 5\nn * 2"); !res.Success || value(res) != "10" || s.p == nil {
		t.Errorf("an interpreted cell: %+v (worker started: %v)", res, s.p != nil)
	}
}

// TestCompiledCellsMapTheDataWhenTheyUseIt: a compiled cell that uses
// award_data, itself or through a function an earlier cell declared,
// answers from the session's data; one that does not gets none (its
// program links neither award_data nor the data's runtime).
func TestCompiledCellsMapTheDataWhenTheyUseIt(t *testing.T) {
	s := newCompiledSession(t, nil)
	want := value(run(t, s, "award_data.Count()"))
	if want == "" || want == "0" {
		t.Fatalf("the interpreted count: %q", want)
	}
	run(t, s, "func awards() int { return award_data.Count() }")
	for _, c := range []struct {
		code, want string
		data       bool
	}{
		{"//sbir:compile\naward_data.Count()", want, true},
		{"//sbir:compile\nawards()", want, true},
		{"//sbir:compile\nstrings.Repeat(\"x\", 3)", `"xxx"`, false},
	} {
		prep, err := cellprep.Prepare(c.code, s.st)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := cellprep.Compile(prep, s.st)
		if err != nil {
			t.Fatal(err)
		}
		if prog.UsesData != c.data {
			t.Errorf("%q: UsesData %v, want %v", c.code, prog.UsesData, c.data)
		}
		if res := run(t, s, c.code); !res.Success || value(res) != c.want {
			t.Errorf("%q: %s: %s; value %q, want %q", c.code, res.ErrorName, res.ErrorMessage, value(res), c.want)
		}
	}
}

// TestCompiledCleanExitSucceeds checks that a compiled program calling
// os.Exit(0) ends as go run ends it: successfully, with its output and
// without its deferred calls.
func TestCompiledCleanExitSucceeds(t *testing.T) {
	s := newCompiledSession(t, nil)
	res := run(t, s, "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tfmt.Println(\"a\")\n\tdefer fmt.Println(\"deferred\")\n\tos.Exit(0)\n}")
	if !res.Success || res.ErrorName != "" || res.Stdout != "a\n" {
		t.Fatalf("%+v; want success with stdout \"a\\n\"", res)
	}
}

// launchers returns the pids of this process's children that are
// launchers of compiled cells (wire.LaunchArg), read from /proc.
func launchers(t *testing.T) []int {
	t.Helper()
	tasks, err := filepath.Glob("/proc/self/task/*/children")
	if err != nil || len(tasks) == 0 {
		t.Skip("no /proc/self/task/*/children here")
	}
	var pids []int
	for _, f := range tasks {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, field := range strings.Fields(string(b)) {
			cmd, err := os.ReadFile("/proc/" + field + "/cmdline")
			if err == nil && strings.Contains(string(cmd), wire.LaunchArg) {
				pid, _ := strconv.Atoi(field)
				pids = append(pids, pid)
			}
		}
	}
	return pids
}
