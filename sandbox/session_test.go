package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/testenv"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/cellprep"
)

// TestStreamsWhileRunning checks that output reaches the handler before the
// cell ends, in order across stdout and stderr.
func TestStreamsWhileRunning(t *testing.T) {
	s := newTestSession(t, generous)
	got := make(chan string, 100)
	h := &Handlers{Stream: func(name, text string) { got <- name + ":" + text }}
	// The cell sleeps until the test interrupts it, which it does once
	// the first line has arrived: it can only arrive while the cell runs.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan *Result, 1)
	go func() {
		r, err := s.Run(ctx, `fmt.Println("first")
time.Sleep(time.Hour)
fmt.Println("MUST NOT APPEAR")`, h)
		if err != nil {
			t.Error(err)
		}
		done <- r
	}()
	select {
	case first := <-got:
		if first != "stdout:first\n" {
			t.Errorf("first stream %q", first)
		}
	case r := <-done:
		t.Fatalf("the cell ended before any output was streamed: %+v", r)
	}
	cancel()
	r := <-done
	if r.ErrorName != ClassInterrupted || r.Stdout != "first\n" {
		t.Fatalf("result %+v", r)
	}

	// StreamOnly: the text goes to the handler alone.
	var streamed strings.Builder
	r, err := s.Run(context.Background(), `fmt.Print("out"); fmt.Fprint(os.Stderr, "err"); fmt.Print("!")`,
		&Handlers{Stream: func(name, text string) { streamed.WriteString(name + ":" + text + ";") }, StreamOnly: true})
	if err != nil || !r.Success || r.Stdout != "" || r.Stderr != "" {
		t.Fatalf("StreamOnly: %v %+v", err, r)
	}
	if got := streamed.String(); got != "stdout:out;stderr:err;stdout:!;" {
		t.Errorf("StreamOnly streamed %q", got)
	}
}

// TestStreamOnlyFramesRecycled: with StreamOnly the supervisor reuses each
// stream frame's memory once Stream returns; 12 MiB of writes of distinct
// letters, across stdout and stderr, still arrive intact and in order.
func TestStreamOnlyFramesRecycled(t *testing.T) {
	s := newTestSession(t, func(l *Limits) { l.MaxOutputBytes = 16 << 20 })
	// Both sides are kept as runs of one stream: how the worker cuts
	// output into frames is not the point.
	var got, want strings.Builder
	runs := func(b *strings.Builder, last *string, name, text string) {
		if name != *last {
			b.WriteString("|" + name + "|")
			*last = name
		}
		b.WriteString(text)
	}
	var lastGot, lastWant string
	h := &Handlers{Stream: func(name, text string) { runs(&got, &lastGot, name, text) }, StreamOnly: true}
	r, err := s.Run(context.Background(), `import "strings"
for i := 0; i < 40; i++ {
	w := os.Stdout
	if i%7 == 3 {
		w = os.Stderr
	}
	fmt.Fprint(w, strings.Repeat(string(rune('a'+i%26)), 300<<10))
}`, h)
	if err != nil || !r.Success {
		t.Fatalf("%v %+v", err, r)
	}
	for i := range 40 {
		name := "stdout"
		if i%7 == 3 {
			name = "stderr"
		}
		runs(&want, &lastWant, name, strings.Repeat(string(rune('a'+i%26)), 300<<10))
	}
	if g, w := got.String(), want.String(); g != w {
		at := 0
		for at < min(len(g), len(w)) && g[at] == w[at] {
			at++
		}
		t.Fatalf("streamed text differs at byte %d (got %d bytes, want %d)", at, len(g), len(w))
	}
}

// TestOSStreams: os.Stdout and os.Stderr are the cell's own streams, the
// only members of the "os" cells see.
func TestOSStreams(t *testing.T) {
	s := newTestSession(t, nil)
	var streams []string
	h := &Handlers{Stream: func(name, text string) { streams = append(streams, name+":"+text) }}
	r, err := s.Run(context.Background(), `fmt.Fprintln(os.Stderr, "to stderr")
fmt.Fprint(os.Stdout, "to stdout")`, h)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Success || r.Stdout != "to stdout" || r.Stderr != "to stderr\n" {
		t.Fatalf("result %+v", r)
	}
	if !slices.Contains(streams, "stderr:to stderr\n") {
		t.Errorf("streams %q lack the stderr text", streams)
	}
}

func TestDisplayAndClear(t *testing.T) {
	s := newTestSession(t, nil)
	var events []string
	h := &Handlers{
		Stream:  func(name, text string) { events = append(events, "stream "+text) },
		Display: func(d Display) { events = append(events, "display "+d.Data["text/html"].(string)) },
		Clear:   func(wait bool) { events = append(events, "clear") },
	}
	r, err := s.Run(context.Background(), `fmt.Println("before")
display.HTML("<b>hi</b>")
display.Clear(false)`, h)
	if err != nil || !r.Success {
		t.Fatalf("%v %+v", err, r)
	}
	want := []string{"stream before\n", "display <b>hi</b>", "clear"}
	if !reflect.DeepEqual(events, want) {
		t.Errorf("events %q, want %q", events, want)
	}
}

func TestInput(t *testing.T) {
	s := newTestSession(t, nil)
	h := &Handlers{Input: func(prompt string, password bool) (string, error) { return "Ada 36", nil }}
	r, err := s.Run(context.Background(), `var name string
var age int
fmt.Scanln(&name, &age)
fmt.Println(name, age+1)`, h)
	if err != nil || !r.Success || r.Stdout != "Ada 37\n" {
		t.Fatalf("%v %+v", err, r)
	}
	h.Input = func(string, bool) (string, error) { return "", errors.New("stdin is closed") }
	run(t, s, "x := 1")
	r, _ = s.Run(context.Background(), `var w string; fmt.Scanln(&w)`, h)
	if r.Success || !strings.Contains(r.ErrorMessage, "stdin is closed") {
		t.Fatalf("%+v", r)
	}
}

// TestRecoveryResetsState checks that after a worker death the session
// forgets the old variables, says so, and keeps working.
func TestRecoveryResetsState(t *testing.T) {
	s := newTestSession(t, func(l *Limits) { l.HeapBytes = 128 << 20 })
	run(t, s, "before := 1")
	r := run(t, s, "var keep [][]byte\nfor { keep = append(keep, make([]byte, 8<<20)) }")
	if r.ErrorName != "MemoryError" || !r.Restarted {
		t.Fatalf("%+v", r)
	}
	r = run(t, s, "before")
	if r.Success || !strings.Contains(r.ErrorMessage, "undefined: before") {
		t.Fatalf("old variable survived the restart: %+v", r)
	}
	// Names of the dead worker are not completed any more.
	c, err := s.Complete(context.Background(), "bef", 3)
	if err != nil || len(c.Matches) != 0 {
		t.Fatalf("%v %+v", err, c)
	}
}

func TestInterruptKeepsVariables(t *testing.T) {
	s := newTestSession(t, nil)
	run(t, s, "kept := 42")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	r, err := s.Run(ctx, "n := 0\nfor { n++ }", nil)
	if err != nil || r.ErrorName != "Interrupted" || r.Restarted {
		t.Fatalf("%v %+v", err, r)
	}
	if r := run(t, s, "kept"); value(r) != "42" {
		t.Fatalf("%+v", r)
	}
}

func TestKillAfterGrace(t *testing.T) {
	// A compiled call that ignores the interrupt: a scan of 256 MiB
	// calling back into the cell once per byte never checks the context,
	// and goes on for seconds after it (an interrupted callback returns
	// at once, and the scan calls the next). (A sort of reversed
	// numbers with a less func no longer outlasts the limit: pdqsort sees
	// the pattern, and interpreted calls are fast enough since yaegi's
	// patch S8.) The next cell must fit in the limit too.
	s := newTestSession(t, func(l *Limits) { l.CellTimeout = testenv.Scale(time.Second); l.KillGrace = 300 * time.Millisecond })
	r := run(t, s, `huge := strings.Repeat("x", 1<<28)
strings.IndexFunc(huge, func(r rune) bool { return r == 'y' })`)
	if r.Success || r.ErrorName != "Timeout" {
		t.Fatalf("%+v", r)
	}
	if r := run(t, s, "2 + 2"); value(r) != "4" {
		t.Fatalf("%+v", r)
	}
}

func TestClosureOfAnEarlierCellRunsAfterATimeout(t *testing.T) {
	// A closure made in a function's frame in one cell, called after a
	// cell that timed out, from the cell, as sort.Slice's less and as a
	// plain func value (yaegi patch 114: its calls took the stale run id
	// of the frame it captured, ran nothing and returned zero values).
	s := newTestSession(t, func(l *Limits) { l.CellTimeout = testenv.Scale(time.Second) })
	run(t, s, `func mk() (func() string, func(a, b int) bool) {
	c := ""
	return func() string { c += "x"; return c }, func(a, b int) bool { return a > b }
}
ctr, desc := mk()
ctr()`)
	if r := run(t, s, "for {}"); r.Success || r.ErrorName != "Timeout" {
		t.Fatalf("endless loop: %+v", r)
	}
	r := run(t, s, `xs := []int{1, 3, 2}
sort.Slice(xs, func(i, j int) bool { return desc(xs[i], xs[j]) })
fmt.Println(ctr(), len(ctr()), xs)`)
	if !r.Success || r.Stdout != "xx 3 [3 2 1]\n" {
		t.Fatalf("after the timeout: %+v, want stdout %q (go run's)", r, "xx 3 [3 2 1]\n")
	}
}

func TestComplete(t *testing.T) {
	s := newTestSession(t, nil)
	run(t, s, "total := 3\ntype pt struct{ X, Y int }\np := pt{1, 2}\nf := award_data.Head(1)")
	tests := []struct {
		code   string
		want   []string // each must be among the matches
		absent []string
	}{
		{code: "tot", want: []string{"total"}},
		{code: "strings.ToUp", want: []string{"ToUpper"}},
		{code: "award_data.Cou", want: []string{"Count"}, absent: []string{"Use"}},
		{code: `award_data.Strings("Comp`, want: []string{"Company", "Company Website"}},
		{code: `award_data.Strings("award a`, want: []string{"Award Amount"}},
		{code: "p.", want: []string{"X", "Y"}},
		{code: `f.GroupBy("Ag`, want: []string{"Agency", "Agency Tracking Number"}},
		{code: `strings.Split("Ag`, absent: []string{"Agency"}},
		{code: "_sbir", absent: []string{"_sbirMin"}},
		{code: "display.SetS", absent: []string{"SetSink"}},
		{code: "time.AfterF", absent: []string{"AfterFunc"}},
	}
	for _, tc := range tests {
		c, err := s.Complete(context.Background(), tc.code, len([]rune(tc.code)))
		if err != nil {
			t.Fatal(err)
		}
		checkMatches(t, tc.code, c.Matches, tc.want, tc.absent)
		if c.End != len([]rune(tc.code)) || c.Start > c.End {
			t.Errorf("Complete(%q) range %d..%d", tc.code, c.Start, c.End)
		}
	}
	c, _ := s.Complete(context.Background(), `award_data.Strings("Comp`, 24)
	if c.Start != 20 {
		t.Errorf("column completion starts at %d, want 20 (after the quote)", c.Start)
	}
}

func TestInspect(t *testing.T) {
	s := newTestSession(t, nil)
	run(t, s, "total := 3")
	tests := []struct {
		code string
		want string
	}{
		{"strings.ToUpper", "func ToUpper(s string) string"},
		{"fmt.Println", "Println formats using the default formats"},
		{"award_data.Count", "func Count() int"},
		{"total", "total int\n\n3"},
		{"strings", "package strings"},
	}
	for _, tc := range tests {
		in, err := s.Inspect(context.Background(), tc.code, len(tc.code), 0)
		if err != nil {
			t.Fatal(err)
		}
		text, _ := in.Data["text/plain"].(string)
		if !in.Found || !strings.Contains(text, tc.want) {
			t.Errorf("Inspect(%q) = %v %q, want %q", tc.code, in.Found, text, tc.want)
		}
	}
	if in, _ := s.Inspect(context.Background(), "nothingHere", 5, 0); in.Found {
		t.Errorf("found %+v", in)
	}
}

func TestIsComplete(t *testing.T) {
	tests := []struct{ code, status, indent string }{
		{"x := 1", "complete", ""},
		{"", "complete", ""},
		{"for i := 0; i < 3; i++ {", "incomplete", "    "},
		{"f(1,", "incomplete", "    "},
		{"func f() {\n\tif true {", "incomplete", "        "},
		{"x := 1 +", "incomplete", ""},
		{"s := `raw", "incomplete", ""},
		{"x := )", "invalid", ""},
		{`import "os"`, "complete", ""},
		{"x := := 2", "invalid", ""},
	}
	for _, tc := range tests {
		status, indent := cellprep.IsComplete(tc.code)
		if status != tc.status || indent != tc.indent {
			t.Errorf("IsComplete(%q) = %q %q, want %q %q", tc.code, status, indent, tc.status, tc.indent)
		}
	}
}

func TestLimitsFlags(t *testing.T) {
	var l Limits = DefaultLimits()
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	l.RegisterFlags(fs)
	if err := fs.Parse([]string{"--max-code-bytes=50KB", "--max-output-bytes=2MiB", "--cell-timeout=5s", "--kill-grace=1s", "--heap-limit=512MiB"}); err != nil {
		t.Fatal(err)
	}
	want := Limits{MaxCodeBytes: 50000, MaxOutputBytes: 2 << 20, CellTimeout: 5 * time.Second, KillGrace: time.Second, HeapBytes: 512 << 20}
	if l != want {
		t.Fatalf("%+v, want %+v", l, want)
	}
	// Args round-trips.
	var back Limits
	fs2 := flag.NewFlagSet("y", flag.ContinueOnError)
	back.RegisterFlags(fs2)
	if err := fs2.Parse(l.Args()); err != nil || back != l {
		t.Fatalf("Args round trip: %v %+v", err, back)
	}
	if err := fs.Parse([]string{"--heap-limit=lots"}); err == nil {
		t.Error("accepted a bad size")
	}
}

func TestCodeTooLarge(t *testing.T) {
	s := newTestSession(t, func(l *Limits) { l.MaxCodeBytes = 10 })
	r := run(t, s, "x := 12345678901")
	if r.ErrorName != "CodeTooLarge" || !strings.Contains(r.ErrorMessage, "16 bytes; the limit is 10 bytes") {
		t.Fatalf("%+v", r)
	}
	// 200 KB under the default 100 KiB limit.
	s = newTestSession(t, nil)
	r = run(t, s, "x := 1\n"+strings.Repeat("// padding padding padding padding\n", 6000))
	if r.ErrorName != "CodeTooLarge" || !strings.Contains(r.ErrorMessage, "the limit is 100 KiB") {
		t.Fatalf("%+v", r)
	}
}

func TestProbeIsolationAndRequire(t *testing.T) {
	layers, err := ProbeIsolation(context.Background(), Options{DataPath: testDataPath})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	allActive := true
	for _, l := range layers {
		names[l.Name] = true
		if l.Detail == "" {
			t.Errorf("layer %s has no detail", l.Name)
		}
		allActive = allActive && l.Active
	}
	for _, n := range []string{"worker-process", "pdeathsig", "namespaces", "rlimits", "landlock", "seccomp", "no_new_privs", "heap-watchdog"} {
		if !names[n] {
			t.Errorf("layer %s not reported", n)
		}
	}
	s, err := NewSession(context.Background(), Options{DataPath: testDataPath, RequireIsolation: true})
	if allActive {
		if err != nil {
			t.Fatalf("all layers active but RequireIsolation failed: %v", err)
		}
		s.Close()
		return
	}
	if err == nil || !strings.Contains(err.Error(), "not active") {
		t.Fatalf("RequireIsolation with inactive layers: %v", err)
	}
}

func TestClose(t *testing.T) {
	s := newTestSession(t, nil)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(context.Background(), "1", nil); err == nil {
		t.Fatal("Run after Close succeeded")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// checkMatches reports the completions of code that lack one of want or
// offer one of absent.
func checkMatches(t *testing.T, code string, matches, want, absent []string) {
	t.Helper()
	for _, w := range want {
		if !slices.Contains(matches, w) {
			t.Errorf("Complete(%q) = %q, missing %q", code, matches, w)
		}
	}
	for _, a := range absent {
		if slices.Contains(matches, a) {
			t.Errorf("Complete(%q) offers %q", code, a)
		}
	}
}

// TestRowWindow: Handlers.Rows chooses the rows a frame's table
// representation carries, for the cell's value and its displays, for that
// cell only; out-of-range windows are refused before anything runs.
func TestRowWindow(t *testing.T) {
	s := newTestSession(t, nil)
	const mime = "application/vnd.dataresource+json"
	firstIndex := func(b map[string]any) (string, int) {
		r, _ := b[mime].(map[string]any)
		data, _ := r["data"].([]any)
		if len(data) == 0 {
			return "", 0
		}
		n, _ := data[0].(map[string]any)["index"].(json.Number)
		return string(n), len(data)
	}
	var shown map[string]any
	h := &Handlers{Rows: RowWindow{Offset: 100, Limit: 7}, Display: func(d Display) { shown = d.Data }}
	r, err := s.Run(context.Background(), `display.Show(award_data.Select("Company"))
award_data.Select("Company")`, h)
	if err != nil || !r.Success {
		t.Fatalf("%v %+v", err, r)
	}
	if i, n := firstIndex(r.Value); i != "100" || n != 7 {
		t.Errorf("value: first row %q, %d rows; want 100, 7", i, n)
	}
	if i, n := firstIndex(shown); i != "100" || n != 7 {
		t.Errorf("display: first row %q, %d rows; want 100, 7", i, n)
	}
	if i, n := firstIndex(run(t, s, `award_data.Select("Company")`).Value); i != "0" || n != 20 {
		t.Errorf("the next cell: first row %q, %d rows; want the default 0, 20", i, n)
	}
	for _, w := range []RowWindow{{Offset: -1}, {Limit: -1}, {Limit: MaxRowWindow + 1}} {
		if _, err := s.Run(context.Background(), "1", &Handlers{Rows: w}); err == nil {
			t.Errorf("Rows %+v accepted", w)
		}
	}
}

// TestLoopCopyKeepsChangesThroughFields replays a red-team finding: the
// per-iteration copy of a three-clause loop's variable hid changes the body
// makes through a field, an element or a pointer method from the loop's
// condition, so a loop that ends under go run spun until the time limit.
func TestLoopCopyKeepsChangesThroughFields(t *testing.T) {
	s := newTestSession(t, nil)
	run(t, s, "type C struct{ n int }\nfunc (c *C) Inc() { c.n++ }")
	for _, c := range []struct{ code, want string }{
		{"for c := (C{}); c.n < 3; { f := func() { fmt.Print(c.n) }; f(); c.n++ }", "012"},
		{"for c := (C{}); c.n < 3; c.Inc() { f := func() { fmt.Print(c.n) }; f(); c.Inc() }", "02"},
		{"for a := ([1]int{}); a[0] < 3; { f := func() { fmt.Print(a[0]) }; f(); a[0]++ }", "012"},
		{"var fs []func()\nfor _, v := range []C{{1}, {2}} { fs = append(fs, func() { fmt.Print(v.n) }); v.n = 9 }\nfor _, f := range fs { f() }", "99"},
	} {
		r := run(t, s, c.code)
		if !r.Success || r.Stdout != c.want {
			t.Errorf("%s: got %.80q (%s %s), want %q as go run prints", c.code, r.Stdout, r.ErrorName, r.ErrorMessage, c.want)
		}
	}
}

// TestLoopVariablePerIteration checks Go 1.22's per-iteration loop
// variables where the body takes the variable's address, or changes a
// variable a closure captured: each iteration's pointer is its own, and
// the value the iteration ends with (at the end of the body or at a
// continue) is the next iteration's. Inside a function and at the top
// level of a cell, where the loop moves into a function literal.
func TestLoopVariablePerIteration(t *testing.T) {
	s := newTestSession(t, nil)
	for _, c := range []struct{ code, want string }{
		{"var ps []*int\nfor i := 0; i < 3; i++ { ps = append(ps, &i) }\nfmt.Print(*ps[0], *ps[1], *ps[2])", "0 1 2"},
		{"var ps []*string\nfor _, v := range []string{\"a\", \"b\"} { ps = append(ps, &v) }\nfmt.Print(*ps[0], *ps[1])", "ab"},
		{"var fs []func() int\nfor i := 0; i < 6; i++ { fs = append(fs, func() int { return i }); i++ }\nfor _, f := range fs { fmt.Print(f()) }", "135"},
		{"var fs []func() int\nfor i := 0; i < 6; i++ { fs = append(fs, func() int { return i }); if i%2 == 0 { i += 2; continue }; i++ }\nfor _, f := range fs { fmt.Print(f()) }", "246"},
		{"func f() (out []int) {\nouter:\n\tfor i := 0; i < 4; i++ {\n\t\tp := &i\n\t\tfor j := 0; j < 2; j++ { if *p == 1 { *p = 2; continue outer } }\n\t\tout = append(out, *p)\n\t}\n\treturn\n}\nfmt.Print(f())", "[0 3]"},
		{"func g() int { n := 0; for i := 0; i < 3; i++ { p := &i; n += *p; *p += 0 }; return n }\nfmt.Print(g())", "3"},
	} {
		r := run(t, s, c.code)
		if !r.Success || r.Stdout != c.want {
			t.Errorf("%s: got %.80q (%s %s), want %q as go run prints", c.code, r.Stdout, r.ErrorName, r.ErrorMessage, c.want)
		}
	}
}
