package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sbirtools/sbir-kernel/cellresult"
	"github.com/sbirtools/sbir-kernel/dataset"
	"github.com/sbirtools/sbir-kernel/internal/testenv"
	"github.com/sbirtools/sbir-kernel/sandbox"
)

// testData is the embedded sample, shared by the package's tests.
var testData *dataset.Source

// waitTime is how long a test waits for what must happen (a session
// closed, a call in flight): it bounds only a failure, so it is long, and
// scaled by SBIR_TEST_SLOW.
var waitTime = testenv.Scale(10 * time.Second)

// TestMain makes the test binary double as the sandbox worker.
func TestMain(m *testing.M) {
	if sandbox.IsWorker() {
		os.Exit(sandbox.WorkerMain())
	}
	dir, err := os.MkdirTemp("", "mcpserver-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testData, err = dataset.Locate(context.Background(), dataset.Config{CacheDir: dir})
	if err != nil {
		fmt.Fprintln(os.Stderr, "preparing test data:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func testOptions(change func(*Options)) Options {
	l := sandbox.DefaultLimits()
	l.CellTimeout = testenv.Scale(5 * time.Second)
	l.KillGrace = testenv.Scale(time.Second)
	o := Options{
		Session: sandbox.Options{Limits: l, DataPath: testData.ArrowPath},
		Data:    testData,
		Version: "test",
	}
	if change != nil {
		change(&o)
	}
	return o
}

// connect starts a server and one in-memory client connection to it.
func connect(t testing.TB, change func(*Options)) (*Server, *mcp.ClientSession) {
	t.Helper()
	s, err := New(testOptions(change))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, dial(t, s)
}

// dial adds one client connection to s.
func dial(t testing.TB, s *Server) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := s.Connect(ctx, st); err != nil {
		t.Fatal(err)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and decodes its structured content into out.
func call(t testing.TB, cs *mcp.ClientSession, tool string, args map[string]any, out any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if out != nil && res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: structured content: %v\n%s", tool, err, b)
		}
	}
	return res
}

func runGo(t testing.TB, cs *mcp.ClientSession, args map[string]any) (*cellresult.Result, *mcp.CallToolResult) {
	t.Helper()
	var out cellresult.Result
	res := call(t, cs, "run_go", args, &out)
	return &out, res
}

func errorText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestListTools(t *testing.T) {
	_, cs := connect(t, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if len(tool.Description) < 100 || tool.OutputSchema == nil {
			t.Errorf("%s: description %d bytes, output schema %v", tool.Name, len(tool.Description), tool.OutputSchema)
		}
	}
	if got := strings.Join(names, ","); got != "api_reference,describe_data,reset_session,run_go" {
		t.Errorf("tools %s", got)
	}
}

func TestSessionPersists(t *testing.T) {
	_, cs := connect(t, nil)
	steps := []struct {
		code    string
		ok      bool
		value   string
		errName string
	}{
		{code: "x := 20", ok: true},
		{code: "x * 2", ok: true, value: "40"},
		{code: "y := x +", ok: false, errName: "SyntaxError"},
		{code: `award_data.Where("Agncy", "==", "DOD")`, ok: false, errName: "award_data.Error"},
		{code: "x + 1", ok: true, value: "21"},
	}
	for _, st := range steps {
		out, res := runGo(t, cs, map[string]any{"code": st.code, "session": "a"})
		if out.Success != st.ok || res.IsError == st.ok || out.Value != st.value {
			t.Fatalf("%q: success %v (isError %v), value %q; want %v, %q\n%+v", st.code, out.Success, res.IsError, out.Value, st.ok, st.value, out)
		}
		if st.errName != "" && (out.Error == nil || out.Error.Name != st.errName) {
			t.Fatalf("%q: error %+v, want %s", st.code, out.Error, st.errName)
		}
	}
}

func TestErrorFields(t *testing.T) {
	_, cs := connect(t, nil)
	tests := []struct {
		code       string
		want       cellresult.Error
		suggestion string
	}{
		{"fmt.Println(1)\nfmt.Println(undefinedVar)", cellresult.Error{Name: "CompileError", Line: 2, Column: 13, Message: "undefined: undefinedVar"}, ""},
		{`import "os/exec"`, cellresult.Error{Name: "NotAllowed", Line: 1, Column: 8}, "cells may import only"},
		{`award_data.Where("Agncy", "==", "DOD")`, cellresult.Error{Name: "award_data.Error", Line: 1, Column: 18}, `did you mean "Agency"?`}, // at "Agncy"
		{"x := 1\n/*line a.go:9:1*/x++", cellresult.Error{Name: "NotAllowed", Line: 2, Column: 1}, "remove the comment"},
		{"var a []int\n_ = a[3]", cellresult.Error{Name: "RuntimeError", Line: 2, Message: "runtime error: index out of range [3] with length 0"}, ""},
	}
	for _, tc := range tests {
		out, _ := runGo(t, cs, map[string]any{"code": tc.code})
		e := out.Error
		if e == nil {
			t.Fatalf("%q: no error: %+v", tc.code, out)
		}
		if e.Name != tc.want.Name || e.Line != tc.want.Line || (tc.want.Column != 0 && e.Column != tc.want.Column) ||
			(tc.want.Message != "" && e.Message != tc.want.Message) || !strings.Contains(e.Suggestion, tc.suggestion) {
			t.Errorf("%q: error %+v, want %+v with suggestion containing %q", tc.code, *e, tc.want, tc.suggestion)
		}
	}
}

// TestFrameRecords: a frame value comes back as max_rows exact records
// with its columns' types; a later call pages through it with offset.
func TestFrameRecords(t *testing.T) {
	_, cs := connect(t, nil)
	runGo(t, cs, map[string]any{"code": `f := award_data.Head(30).Select("Company", "Award Amount", "Award Year")`})
	out, _ := runGo(t, cs, map[string]any{"code": "f", "max_rows": 4})
	f := out.Frame
	if f == nil {
		t.Fatalf("no frame: %+v", out)
	}
	if strings.Join(f.Columns, ",") != "Company,Award Amount,Award Year" || strings.Join(f.Types, ",") != "string,number,integer" || f.Rows != 30 || !f.Truncated || f.NextOffset != 4 {
		t.Fatalf("frame %+v", f)
	}
	if len(f.Records) != 4 || fmt.Sprint(f.Index) != "[0 1 2 3]" {
		t.Fatalf("records %v index %v", f.Records, f.Index)
	}
	// The records agree with the data, read back in the same session.
	check, _ := runGo(t, cs, map[string]any{"code": `r := f.Row(0); fmt.Print(r.String("Company"), "|", r.Int("Award Year"), "|", r.Float("Award Amount"))`})
	first := f.Records[0]
	if want := fmt.Sprintf("%v|%v|%v", first["Company"], first["Award Year"], first["Award Amount"]); check.Stdout != want {
		t.Errorf("first record %v, data says %q", first, check.Stdout)
	}
	if _, ok := first["Award Amount"].(float64); !ok {
		t.Errorf("Award Amount is %T, want a JSON number", first["Award Amount"])
	}
	// Paging: every row once, in order, the last page not truncated.
	var labels []int64
	for offset := 0; ; {
		page, _ := runGo(t, cs, map[string]any{"code": "f", "max_rows": 7, "offset": offset})
		labels = append(labels, page.Frame.Index...)
		if page.Frame.Offset != offset || len(page.Frame.Records) != len(page.Frame.Index) {
			t.Fatalf("page at %d: %+v", offset, page.Frame)
		}
		if !page.Frame.Truncated {
			break
		}
		offset = page.Frame.NextOffset
	}
	if fmt.Sprint(labels) != fmt.Sprint(seq(30)) {
		t.Errorf("paged labels %v", labels)
	}
	for _, bad := range []map[string]any{{"code": "f", "max_rows": cellresult.MaxRows + 1}, {"code": "f", "offset": -1}} {
		if _, res := runGo(t, cs, bad); !res.IsError || !strings.Contains(errorText(res), "give") {
			t.Errorf("%v: %s", bad, errorText(res))
		}
	}
}

func seq(n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(i)
	}
	return out
}

// TestTwoSessionsInParallel: while a call runs in one session (until its
// time limit), a call in another session is answered.
func TestTwoSessionsInParallel(t *testing.T) {
	s, cs := connect(t, func(o *Options) { o.Session.Limits.CellTimeout = 3 * waitTime })
	runGo(t, cs, map[string]any{"code": `who := "a"`, "session": "a"})
	runGo(t, cs, map[string]any{"code": `who := "b"`, "session": "b"})
	ctx, cancel := context.WithCancel(context.Background())
	aDone := make(chan struct{})
	go func() {
		defer close(aDone)
		cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_go", Arguments: map[string]any{"code": "time.Sleep(time.Hour)", "session": "a"}})
	}()
	t.Cleanup(func() { cancel(); <-aDone })
	waitBusy(t, s, "a")
	out, _ := runGo(t, cs, map[string]any{"code": "who", "session": "b"})
	if out.Value != `"b"` {
		t.Errorf("session b: value %q", out.Value)
	}
	select {
	case <-aDone:
		t.Fatal("the call in session a ended before its time limit")
	default:
	}
}

// waitBusy waits until a call is in flight in the named session.
func waitBusy(t *testing.T, s *Server, name string) {
	t.Helper()
	deadline := time.Now().Add(waitTime)
	for {
		s.pool.mu.Lock()
		busy := 0
		for k, e := range s.pool.entries {
			if k.name == name {
				busy += e.busy
			}
		}
		s.pool.mu.Unlock()
		if busy > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no call running in session %q after %v", name, waitTime)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestReset(t *testing.T) {
	_, cs := connect(t, nil)
	runGo(t, cs, map[string]any{"code": "v := 1", "session": "r"})
	var ro ResetOutput
	call(t, cs, "reset_session", map[string]any{"session": "r"}, &ro)
	if !ro.Existed || len(ro.Open) != 0 {
		t.Fatalf("reset: %+v", ro)
	}
	out, _ := runGo(t, cs, map[string]any{"code": "v", "session": "r"})
	if out.Success || out.Error.Name != "CompileError" {
		t.Fatalf("after reset: %+v", out)
	}
	call(t, cs, "reset_session", map[string]any{"session": "nope"}, &ro)
	if ro.Existed || fmt.Sprint(ro.Open) != "[r]" {
		t.Fatalf("reset of a missing session: %+v", ro)
	}
}

func TestBadInput(t *testing.T) {
	_, cs := connect(t, func(o *Options) { o.Session.Limits.MaxCodeBytes = 1000 })
	ctx := context.Background()
	// Unknown tool: a protocol error.
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_python", Arguments: map[string]any{}}); err == nil || !strings.Contains(err.Error(), "run_python") {
		t.Errorf("unknown tool: %v", err)
	}
	tests := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"run_go", map[string]any{"code": 42}, "code"},
		{"run_go", map[string]any{}, "code"},
		{"run_go", map[string]any{"code": "1", "session": 7}, "session"},
		{"run_go", map[string]any{"code": "1", "session": "no spaces"}, "bad session name"},
		{"run_go", map[string]any{"code": "1", "max_rows": -1}, "max_rows"},
		{"run_go", map[string]any{"code": "1", "bogus": true}, "bogus"},
		{"api_reference", map[string]any{"package": "os"}, "unknown package"},
		{"api_reference", map[string]any{"query": "zzzqqq"}, "nothing in"},
	}
	for _, tc := range tests {
		res := call(t, cs, tc.tool, tc.args, nil)
		if !res.IsError || !strings.Contains(errorText(res), tc.want) {
			t.Errorf("%s %v: isError %v, %q; want an error mentioning %q", tc.tool, tc.args, res.IsError, errorText(res), tc.want)
		}
	}
	out, _ := runGo(t, cs, map[string]any{"code": strings.Repeat("x := 1\n", 200)})
	if out.Success || out.Error.Name != "CodeTooLarge" {
		t.Errorf("code over the cap: %+v", out.Error)
	}
}

func TestSessionCap(t *testing.T) {
	s, cs := connect(t, func(o *Options) { o.MaxSessions = 2 })
	for _, n := range []string{"s1", "s2"} {
		if out, _ := runGo(t, cs, map[string]any{"code": "1", "session": n}); !out.Success {
			t.Fatal(out.Error)
		}
	}
	res := call(t, cs, "run_go", map[string]any{"code": "1", "session": "s3"}, nil)
	if !res.IsError || !strings.Contains(errorText(res), "2 sessions are open (2 of them this connection's)") || !strings.Contains(errorText(res), "call reset_session") {
		t.Fatalf("third session: %q", errorText(res))
	}
	// Another client holds none of them: reset_session is no advice for it.
	other := dial(t, s)
	res = call(t, other, "run_go", map[string]any{"code": "1"}, nil)
	if text := errorText(res); !res.IsError || !strings.Contains(text, "none of them is this connection's") || strings.Contains(text, "call reset_session") {
		t.Fatalf("another client's first session: %q", text)
	}
	call(t, cs, "reset_session", map[string]any{"session": "s1"}, nil)
	if out, _ := runGo(t, cs, map[string]any{"code": "1", "session": "s3"}); !out.Success {
		t.Fatalf("after a reset: %+v", out.Error)
	}
}

func TestMemoryCap(t *testing.T) {
	_, cs := connect(t, func(o *Options) {
		o.Session.Limits.HeapBytes = 256 << 20
		o.MaxMemory = 600 << 20
	})
	runGo(t, cs, map[string]any{"code": "1", "session": "m1"})
	runGo(t, cs, map[string]any{"code": "1", "session": "m2"})
	res := call(t, cs, "run_go", map[string]any{"code": "1", "session": "m3"}, nil)
	if !res.IsError || !strings.Contains(errorText(res), "--max-memory") {
		t.Fatalf("third session: %q", errorText(res))
	}
}

func TestIdleExpiry(t *testing.T) {
	s, cs := connect(t, func(o *Options) { o.IdleTimeout = 300 * time.Millisecond })
	runGo(t, cs, map[string]any{"code": "v := 1", "session": "idle"})
	deadline := time.Now().Add(waitTime)
	for s.pool.count() > 0 {
		if time.Now().After(deadline) {
			t.Fatal("the idle session did not expire")
		}
		time.Sleep(50 * time.Millisecond)
	}
	out, _ := runGo(t, cs, map[string]any{"code": "v", "session": "idle"})
	if out.Success {
		t.Fatal("an expired session kept its variables")
	}
}

func TestCrashIsolation(t *testing.T) {
	_, cs := connect(t, func(o *Options) { o.Session.Limits.HeapBytes = 256 << 20 })
	runGo(t, cs, map[string]any{"code": `keep := "safe"`, "session": "calm"})
	out, _ := runGo(t, cs, map[string]any{"code": "var hog [][]byte\nfor { hog = append(hog, make([]byte, 64<<20)) }", "session": "hog"})
	if out.Success || !out.Restarted || out.Error.Name != "MemoryError" {
		t.Fatalf("hog: %+v", out.Error)
	}
	if out, _ := runGo(t, cs, map[string]any{"code": "keep", "session": "calm"}); out.Value != `"safe"` {
		t.Fatalf("the other session lost its state: %+v", out)
	}
}

func TestFloodAndTimeout(t *testing.T) {
	// The flood runs under the tests' (scaled) time limit: 100,000
	// interpreted writes take a while on a loaded machine.
	_, cs := connect(t, func(o *Options) { o.Session.Limits.MaxOutputBytes = 4096 })
	out, _ := runGo(t, cs, map[string]any{"code": `for i := 0; i < 100000; i++ { fmt.Println("flood", i) }`})
	if !out.Success || !out.OutputTruncated || len(out.Stdout) > 4096+200 {
		t.Fatalf("flood: success %v truncated %v, %d bytes", out.Success, out.OutputTruncated, len(out.Stdout))
	}
	_, cs = connect(t, func(o *Options) { o.Session.Limits.CellTimeout = time.Second })
	runGo(t, cs, map[string]any{"code": "kept := 5"})
	out, _ = runGo(t, cs, map[string]any{"code": "for {}"})
	if out.Success || out.Error.Name != "Timeout" {
		t.Fatalf("timeout: %+v", out.Error)
	}
	if out, _ := runGo(t, cs, map[string]any{"code": "kept"}); out.Value != "5" && !out.Restarted {
		t.Fatalf("after the timeout: %+v", out)
	}
}

func TestDisconnectClosesSessions(t *testing.T) {
	s, err := New(testOptions(func(o *Options) { o.Session.Limits.CellTimeout = time.Minute }))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// A client that dies mid-call: its end of the connection just closes.
	clientEnd, serverEnd := net.Pipe()
	ctx := context.Background()
	if _, err := s.Connect(ctx, &mcp.IOTransport{Reader: serverEnd, Writer: serverEnd}); err != nil {
		t.Fatal(err)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: clientEnd, Writer: clientEnd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	runGo(t, cs, map[string]any{"code": "1", "session": "d"})
	go cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_go", Arguments: map[string]any{"code": "time.Sleep(time.Minute)", "session": "d"}})
	waitBusy(t, s, "d")
	if n := len(workerProcesses(t)); n != 1 {
		t.Fatalf("%d worker processes, want 1", n)
	}
	clientEnd.Close()
	// Well before the call's minute: the connection's end stops it.
	deadline := time.Now().Add(waitTime)
	for s.pool.count() > 0 || len(workerProcesses(t)) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d sessions and worker processes %v remain %v after the connection ended", s.pool.count(), workerProcesses(t), waitTime)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// workerProcesses lists the sandbox workers this test process started
// (children whose command line carries the worker marker).
func workerProcesses(t testing.TB) []int {
	t.Helper()
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc: cannot count worker processes")
	}
	self := os.Getpid()
	var pids []int
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue
		}
		// The fields after the parenthesised command: state, ppid, ...
		rest := string(stat[strings.LastIndexByte(string(stat), ')')+2:])
		f := strings.Fields(rest)
		if len(f) < 2 || f[0] == "Z" {
			continue
		}
		if ppid, _ := strconv.Atoi(f[1]); ppid != self {
			continue
		}
		cmdline, _ := os.ReadFile("/proc/" + d.Name() + "/cmdline")
		if strings.Contains(string(cmdline), "__sbir_worker") {
			pids = append(pids, pid)
		}
	}
	return pids
}

func TestDescribeAndReference(t *testing.T) {
	_, cs := connect(t, nil)
	var d DataDescription
	call(t, cs, "describe_data", nil, &d)
	if !d.Loaded || !d.Synthetic || d.Rows != testData.Rows || len(d.Columns) < 42 {
		t.Fatalf("describe: %+v", d)
	}
	types := map[string]string{}
	for _, c := range d.Columns {
		types[c.Name] = c.Type
	}
	if types["Award Amount"] != "float" || types["Agency"] != "category" || types["Award Year"] != "int" || types["Company"] != "text" || types["Proposal Award Date"] != "date" {
		t.Errorf("types %v", types)
	}
	var ref ReferenceOutput
	call(t, cs, "api_reference", map[string]any{"query": "Frame.Where"}, &ref)
	if len(ref.Entries) == 0 || ref.Entries[0].Name != "Frame.Where" || !strings.Contains(ref.Entries[0].Doc, "contains") {
		t.Fatalf("reference: %+v", ref)
	}
	call(t, cs, "api_reference", map[string]any{"package": "display"}, &ref)
	if !strings.Contains(ref.Overview, "package display") || len(ref.Names) == 0 {
		t.Fatalf("overview: %+v", ref)
	}
	ctx := context.Background()
	rs, err := cs.ListResources(ctx, nil)
	if err != nil || len(rs.Resources) != 3 {
		t.Fatalf("resources: %v %v", rs, err)
	}
	for _, r := range rs.Resources {
		got, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: r.URI})
		if err != nil || len(got.Contents) != 1 || len(got.Contents[0].Text) < 500 {
			t.Errorf("%s: %v %v", r.URI, got, err)
		}
	}
}

// TestAPIDocsCurrent fails when apidocs.json is older than the sources it
// is generated from: run go generate ./mcpserver.
func TestAPIDocsCurrent(t *testing.T) {
	out := t.TempDir() + "/apidocs.json"
	// The arguments of doc.go's go:generate line, with another output.
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	_, line, ok := strings.Cut(string(src), "//go:generate go run ./internal/apidocgen ")
	if !ok {
		t.Fatal("doc.go has no go:generate line for apidocgen")
	}
	line, _, _ = strings.Cut(line, "\n")
	args := strings.Fields(line)
	for i, a := range args {
		if a == "-o" && i+1 < len(args) {
			args[i+1] = out
		}
	}
	cmd := exec.Command("go", append([]string{"run", "./internal/apidocgen"}, args...)...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("apidocgen: %v\n%s", err, b)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != string(apidocsJSON) {
		t.Fatal("apidocs.json is stale: run go generate ./mcpserver")
	}
}

// TestDescriptionExamples runs every example call the run_go description
// and the server instructions give a model: each must succeed.
func TestDescriptionExamples(t *testing.T) {
	s, cs := connect(t, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, tool := range res.Tools {
		if tool.Name == "run_go" {
			texts = append(texts, tool.Description)
		}
	}
	texts = append(texts, s.instructions())
	n := 0
	for _, text := range texts {
		for _, line := range strings.Split(text, "\n") {
			i := strings.Index(line, `{"code": `)
			if i < 0 {
				continue
			}
			var args map[string]any
			if err := json.NewDecoder(strings.NewReader(line[i:])).Decode(&args); err != nil {
				t.Fatalf("example %s: %v", line, err)
			}
			out, _ := runGo(t, cs, args)
			if !out.Success {
				t.Errorf("example %s failed: %+v", line, out.Error)
			}
			n++
		}
	}
	if n < 4 {
		t.Fatalf("found %d examples, want at least 4", n)
	}
}
