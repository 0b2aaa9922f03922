package yaegisuite

import (
	"strings"
	"testing"
)

func TestJudge(t *testing.T) {
	run := &Run{
		Tests: map[string]string{
			"TestFile":          "fail",
			"TestFile/ok.go":    "pass",
			"TestFile/pr.go":    "fail",
			"TestFile/gc.go":    "fail",
			"TestFile/bad.go":   "fail",
			"TestFile/ref.go":   "fail",
			"TestFile/runs.go":  "fail",
			"TestFile/none.go":  "skip",
			"TestEval":          "fail",
			"TestFile/lost.go":  "fail",
			"TestFile/panic.go": "fail",
		},
		Output:  map[string]string{"TestEval": "=== RUN   TestEval\n    eval_test.go:3: got 1, want 2\n--- FAIL: TestEval\n"},
		Parents: map[string]bool{"TestFile": true},
		Programs: map[string]*Program{
			"pr.go":    {Want: "1 2", Stderr: "1 2\n", Merged: "1 2"},
			"gc.go":    {Want: "&{Xa:1}", Stdout: "&{a:1}\n", Merged: "&{a:1}"},
			"bad.go":   {Want: "true", Stderr: "false\n", Merged: "false"},
			"ref.go":   {Want: "loop", WantErr: true, Err: "undefined: c"},
			"runs.go":  {Want: "redeclared", WantErr: true, Stdout: "x\n"},
			"panic.go": {Want: "done", Stdout: "a\n", Err: "panic: boom"},
		},
	}
	gc := map[string]GoRun{
		"gc.go":    {Compiled: true, Stdout: "&{a:1}\n"},
		"bad.go":   {Compiled: true, Stderr: "true\n"},
		"ref.go":   {Stderr: "# command-line-arguments\n./ref.go:5:2: initialization cycle for b\n", Status: 1},
		"runs.go":  {Stderr: "# command-line-arguments\n./runs.go:5:2: time redeclared in this block\n", Status: 1},
		"panic.go": {Compiled: true, Stdout: "a\n", Stderr: "panic: boom\n\ngoroutine 1 [running]:\n", Status: 2},
	}
	v, err := Judge(run, func(name string) (GoRun, error) { return gc[name], nil })
	if err != nil {
		t.Fatal(err)
	}
	for test, want := range map[string]Verdict{
		"TestFile/ok.go":    {Class: Pass},
		"TestFile/pr.go":    {Class: Stderr},
		"TestFile/gc.go":    {Class: AsGc},
		"TestFile/bad.go":   {Class: Fail, Detail: `stderr "false\n", gc "true\n"`},
		"TestFile/ref.go":   {Class: Refuses, Detail: `yaegi: "undefined: c"; gc: "does not compile: ./ref.go:5:2: initialization cycle for b"`},
		"TestFile/runs.go":  {Class: Fail, Detail: "runs; gc refuses it: # command-line-arguments"},
		"TestFile/none.go":  {Class: Skip},
		"TestFile/lost.go":  {Class: Fail, Detail: "not recorded: (no output)"},
		"TestFile/panic.go": {Class: AsGc},
		"TestEval":          {Class: Fail, Detail: "eval_test.go:3: got 1, want 2"},
	} {
		if got := v[test]; got != want {
			t.Errorf("%s: %+v, want %+v", test, got, want)
		}
	}
	if _, ok := v["TestFile"]; ok {
		t.Errorf("a parent test was judged: %+v", v["TestFile"])
	}
}

func TestCheck(t *testing.T) {
	up := map[string]Verdict{
		"TestFile/a.go": {Class: Pass}, "TestFile/b.go": {Class: Pass}, "TestFile/c.go": {Class: Pass},
		"TestFile/d.go": {Class: Fail}, "TestX": {Class: Pass},
	}
	pa := map[string]Verdict{
		"TestFile/a.go": {Class: Stderr}, "TestFile/b.go": {Class: Fail, Detail: "json"},
		"TestFile/c.go": {Class: Refuses, Detail: "msg"}, "TestFile/d.go": {Class: Fail, Detail: "old"},
		"TestX": {Class: Fail, Detail: "println"},
	}
	for _, tc := range []struct {
		name  string
		known string
		want  []string // substrings of the problems, in order
	}{
		{"all listed", "TestFile/b.go fail regression: json\nTestFile/c.go refuses message\nTestFile/d.go fail as upstream\nTestX fail regression: println\n", nil},
		{"unlisted regression", "TestFile/c.go refuses m\nTestFile/d.go fail x\nTestX fail regression: p\n",
			[]string{"TestFile/b.go fail: json (v0.16.1 passes it: a regression): not in UPSTREAM_FAILURES",
				"passes 2 _test programs, v0.16.1 3: more than the 0 listed"}},
		{"regression not marked", "TestFile/b.go fail json\nTestFile/c.go refuses m\nTestFile/d.go fail x\nTestX fail regression: p\n",
			[]string{`TestFile/b.go: its cause must start with "regression:"`, "more than the 0 listed regressions explain"}},
		{"marked but not a regression", "TestFile/b.go fail regression: j\nTestFile/c.go refuses m\nTestFile/d.go fail regression: x\nTestX fail regression: p\n",
			[]string{`TestFile/d.go: its cause must start with "regression:"`}},
		{"wrong class", "TestFile/b.go fail regression: j\nTestFile/c.go fail m\nTestFile/d.go fail x\nTestX fail regression: p\n",
			[]string{"TestFile/c.go is listed as fail but is refuses"}},
		{"listed but passes", "TestFile/a.go fail x\nTestFile/b.go fail regression: j\nTestFile/c.go refuses m\nTestFile/d.go fail x\nTestX fail regression: p\n",
			[]string{"TestFile/a.go is listed in UPSTREAM_FAILURES but is stderr: remove its line"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			known, err := ParseKnown(tc.known)
			if err != nil {
				t.Fatal(err)
			}
			got := Check(up, pa, known)
			if len(got) != len(tc.want) {
				t.Fatalf("problems:\n%s\nwant %d", strings.Join(got, "\n"), len(tc.want))
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("problem %d: %q, want it to contain %q", i, got[i], w)
				}
			}
		})
	}
}

func TestParseKnown(t *testing.T) {
	for _, tc := range []struct{ text, err string }{
		{"# comment\n\nTestFile/a.go fail why\n", ""},
		{"TestFile/a.go passes why\n", `line 1: want "<test> <fail|refuses> <cause>"`},
		{"TestFile/a.go fail\n", "line 1"},
		{"TestFile/a.go fail x\nTestFile/a.go refuses y\n", "line 2: TestFile/a.go is listed twice"},
	} {
		_, err := ParseKnown(tc.text)
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("ParseKnown(%q) = %v, want %q", tc.text, err, tc.err)
		}
	}
}

func TestFormatKnownKeepsCauses(t *testing.T) {
	up := map[string]Verdict{"TestFile/a.go": {Class: Pass}, "TestFile/b.go": {Class: Fail}}
	pa := map[string]Verdict{"TestFile/a.go": {Class: Fail, Detail: "new detail"}, "TestFile/b.go": {Class: Fail, Detail: "d"}, "TestFile/c.go": {Class: Pass}}
	old := map[string]Known{"TestFile/b.go": {Class: Fail, Cause: "regression: written by hand"}}
	got := FormatKnown("# h\n", up, pa, old)
	want := "# h\nTestFile/a.go fail regression: new detail\nTestFile/b.go fail written by hand\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestParseEvents(t *testing.T) {
	events := `{"Action":"run","Test":"TestFile"}
{"Action":"output","Test":"TestFile/a.go","Output":"=== RUN   TestFile/a.go\n"}
{"Action":"output","Test":"TestFile/a.go","Output":"    x_test.go:1: bad\n"}
{"Action":"fail","Test":"TestFile/a.go"}
{"Action":"pass","Test":"TestFile/b.go"}
# github.com/traefik/yaegi/interp
{"Action":"fail","Test":"TestFile"}
{"Action":"fail"}
`
	r, err := parseEvents(strings.NewReader(events))
	if err != nil {
		t.Fatal(err)
	}
	if r.Tests["TestFile/a.go"] != "fail" || r.Tests["TestFile/b.go"] != "pass" || !r.Parents["TestFile"] || len(r.Tests) != 3 {
		t.Errorf("tests %v parents %v", r.Tests, r.Parents)
	}
	if failureLine(r.Output["TestFile/a.go"]) != "x_test.go:1: bad" {
		t.Errorf("output %q", r.Output["TestFile/a.go"])
	}
}
