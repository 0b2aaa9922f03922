package kernel

import (
	"slices"
	"strings"
	"testing"
)

func TestKernelInfoOverSockets(t *testing.T) {
	k := startKernel(t, Config{Banner: "hello", HelpLinks: []HelpLink{{"Go", "https://go.dev"}}})
	c := k.client
	for _, ch := range []struct {
		name string
		s    func() (*Message, []*Message)
	}{
		{"shell", func() (*Message, []*Message) {
			return c.roundTrip(c.shell, c.shellC, "kernel_info_request", map[string]any{})
		}},
		{"control", func() (*Message, []*Message) {
			return c.roundTrip(c.control, c.controlC, "kernel_info_request", map[string]any{})
		}},
	} {
		t.Run(ch.name, func(t *testing.T) {
			rep, io := ch.s()
			if got := types(io); !slices.Equal(got, []string{"status:busy", "status:idle"}) {
				t.Errorf("iopub = %v, want busy, idle", got)
			}
			if rep.Header.MsgType != "kernel_info_reply" {
				t.Fatalf("reply type %q", rep.Header.MsgType)
			}
			ct := content(t, rep)
			li := ct["language_info"].(map[string]any)
			if ct["protocol_version"] != "5.3" || ct["implementation"] != "sbir-kernel" || ct["banner"] != "hello" ||
				li["name"] != "go" || li["mimetype"] != "text/x-go" || li["file_extension"] != ".go" ||
				li["pygments_lexer"] != "go" || li["codemirror_mode"] != "go" || li["nbconvert_exporter"] != "script" {
				t.Errorf("kernel_info content = %v", ct)
			}
		})
	}
}

func TestExecuteOrderAndCounts(t *testing.T) {
	k := startKernel(t, Config{})
	c := k.client
	tests := []struct {
		name      string
		code      string
		extra     map[string]any
		wantIO    []string
		wantCount float64
	}{
		{"value", "print hi\nvalue 42", nil,
			[]string{"status:busy", "execute_input", "stream", "execute_result", "status:idle"}, 1},
		{"no value", "print hi", nil,
			[]string{"status:busy", "execute_input", "stream", "status:idle"}, 2},
		{"no store_history", "value 1", map[string]any{"store_history": false},
			[]string{"status:busy", "execute_input", "execute_result", "status:idle"}, 2},
		{"silent", "print hidden\nvalue 1\ndisplay x", map[string]any{"silent": true},
			[]string{"status:busy", "status:idle"}, 2},
		{"display", "display d\nvalue 2", nil,
			[]string{"status:busy", "execute_input", "display_data", "execute_result", "status:idle"}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := c.execute(tt.code, tt.extra)
			rep := c.reply(c.shellC, id)
			io := c.untilIdle(id)
			if got := types(io); !slices.Equal(got, tt.wantIO) {
				t.Errorf("iopub = %v, want %v", got, tt.wantIO)
			}
			rc := content(t, rep)
			if rc["status"] != "ok" || rc["execution_count"] != tt.wantCount {
				t.Errorf("reply = %v, want ok with execution_count %v", rc, tt.wantCount)
			}
			if _, ok := rc["payload"].([]any); !ok {
				t.Errorf("payload = %v, want []", rc["payload"])
			}
			for _, m := range io {
				mc := content(t, m)
				switch m.Header.MsgType {
				case "execute_input":
					if mc["code"] != tt.code || mc["execution_count"] != tt.wantCount {
						t.Errorf("execute_input = %v", mc)
					}
				case "execute_result":
					data := mc["data"].(map[string]any)
					if _, ok := data["text/plain"]; !ok || mc["execution_count"] != tt.wantCount {
						t.Errorf("execute_result = %v", mc)
					}
				case "display_data":
					if mc["transient"].(map[string]any)["display_id"] != "d1" {
						t.Errorf("display_data = %v", mc)
					}
				}
				if m.Header.Session == c.session || m.Header.MsgID == "" || m.Header.Date == "" {
					t.Errorf("header = %+v", m.Header)
				}
			}
		})
	}
}

func TestExecuteResultAlwaysHasTextPlain(t *testing.T) {
	k := startKernel(t, Config{})
	c := k.client
	id := c.execute("html <b>x</b>", nil)
	for _, m := range c.untilIdle(id) {
		if m.Header.MsgType == "execute_result" {
			data := content(t, m)["data"].(map[string]any)
			if data["text/html"] != "<b>x</b>" || data["text/plain"] != "" {
				t.Errorf("data = %v", data)
			}
		}
	}
}

func TestExecuteErrorIsOneOutput(t *testing.T) {
	k := startKernel(t, Config{})
	c := k.client
	id := c.execute("fail CompileError undefined: x", nil)
	rep := c.reply(c.shellC, id)
	io := c.untilIdle(id)
	if got := types(io); !slices.Equal(got, []string{"status:busy", "execute_input", "error", "status:idle"}) {
		t.Errorf("iopub = %v, want exactly one error output", got)
	}
	rc := content(t, rep)
	if rc["status"] != "error" || rc["ename"] != "CompileError" || rc["evalue"] != "undefined: x" || rc["execution_count"] != 1.0 {
		t.Errorf("reply = %v", rc)
	}
	if tb, ok := rc["traceback"].([]any); !ok || tb == nil {
		t.Errorf("traceback = %#v, want [] (never null)", rc["traceback"])
	}
	if tb, ok := content(t, io[2])["traceback"].([]any); !ok || tb == nil {
		t.Errorf("error output traceback = %#v, want []", content(t, io[2])["traceback"])
	}
}

func TestEvaluatorPanicBecomesCellError(t *testing.T) {
	k := startKernel(t, Config{})
	c := k.client
	id := c.execute("panic", nil)
	if rc := content(t, c.reply(c.shellC, id)); rc["status"] != "error" || rc["ename"] != "KernelError" {
		t.Errorf("reply = %v", rc)
	}
	c.untilIdle(id)
	id = c.execute("value ok", nil)
	if rc := content(t, c.reply(c.shellC, id)); rc["status"] != "ok" {
		t.Errorf("kernel did not survive the panic: %v", rc)
	}
}

func TestStopOnErrorAbortsQueuedCells(t *testing.T) {
	for _, stop := range []bool{true, false} {
		t.Run(map[bool]string{true: "stop", false: "continue"}[stop], func(t *testing.T) {
			k := startKernel(t, Config{})
			c := k.client
			first := c.execute("sleep 150ms\nfail Boom bad", map[string]any{"stop_on_error": stop})
			second := c.execute("value 2", nil)
			third := c.execute("value 3", nil)
			wantStatus := map[bool]string{true: "aborted", false: "ok"}[stop]
			for i, id := range []string{first, second, third} {
				rc := content(t, c.reply(c.shellC, id))
				want := wantStatus
				if i == 0 {
					want = "error"
				}
				if rc["status"] != want {
					t.Errorf("reply %d status = %v, want %s", i, rc["status"], want)
				}
			}
			for _, id := range []string{second, third} {
				io := c.untilIdle(id)
				if stop {
					if got := types(io); !slices.Equal(got, []string{"status:busy", "status:idle"}) {
						t.Errorf("aborted cell iopub = %v, want busy, idle", got)
					}
				}
			}
			after := c.execute("value 4", nil)
			if rc := content(t, c.reply(c.shellC, after)); rc["status"] != "ok" {
				t.Errorf("cell after the aborted ones: %v", rc)
			}
			k.ev.mu.Lock()
			n := len(k.ev.executed)
			k.ev.mu.Unlock()
			want := 4
			if stop {
				want = 2
			}
			if n != want {
				t.Errorf("evaluator ran %d cells, want %d", n, want)
			}
		})
	}
}

func TestIPCTransport(t *testing.T) {
	dir := t.TempDir()
	ci := ConnectionInfo{Transport: "ipc", IP: dir + "/kernel", Key: testKey,
		ShellPort: 1, ControlPort: 2, StdinPort: 3, IOPubPort: 4, HBPort: 5}
	k := startKernelAt(t, ci, Config{})
	c := k.client
	id := c.execute("print over ipc\nvalue 1", nil)
	if rc := content(t, c.reply(c.shellC, id)); rc["status"] != "ok" {
		t.Errorf("reply = %v", rc)
	}
	if got := types(c.untilIdle(id)); !slices.Equal(got, []string{"status:busy", "execute_input", "stream", "execute_result", "status:idle"}) {
		t.Errorf("iopub = %v", got)
	}
}

func TestPortInUse(t *testing.T) {
	k := startKernel(t, Config{})
	ci := k.conn
	ci.Key = testKey
	_, err := Serve(t.Context(), ci, Config{Evaluator: &scriptEvaluator{}})
	if err == nil || !strings.Contains(err.Error(), "bind shell socket") {
		t.Errorf("Serve on used ports = %v, want a bind error naming the socket", err)
	}
}
