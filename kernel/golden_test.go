package kernel

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestGoldenReplies pins the exact JSON content of replies and outputs
// clients parse, so a change (a null where [] belongs, a renamed field)
// shows up in review. Refresh with go test -run TestGoldenReplies -update.
func TestGoldenReplies(t *testing.T) {
	k := startMemKernelConfig(t, Config{
		Evaluator:             &scriptEvaluator{},
		Banner:                "sbir-kernel test banner",
		ImplementationVersion: "1.2.3",
		LanguageVersion:       "1.26",
		HelpLinks:             []HelpLink{{Text: "Go", URL: "https://go.dev/doc/"}},
	})
	tests := []struct {
		name, sock, msgType, content string
		iopub                        bool // compare the iopub messages instead of the reply
	}{
		{"kernel_info_reply", "shell", "kernel_info_request", `{}`, false},
		{"execute_reply_ok", "shell", "execute_request", `{"code":"value 42","user_expressions":{"x":"value 1"}}`, false},
		{"execute_iopub_ok", "shell", "execute_request", `{"code":"print hi\nvalue 42"}`, true},
		{"execute_reply_error", "shell", "execute_request", `{"code":"fail CompileError undefined: x"}`, false},
		{"execute_iopub_error", "shell", "execute_request", `{"code":"fail CompileError undefined: x"}`, true},
		{"complete_reply", "shell", "complete_request", `{"code":"none","cursor_pos":4}`, false},
		{"inspect_reply", "shell", "inspect_request", `{"code":"x","cursor_pos":1}`, false},
		{"is_complete_reply", "shell", "is_complete_request", `{"code":"if x {"}`, false},
		{"history_reply", "shell", "history_request", `{"hist_access_type":"tail","n":2,"output":true}`, false},
		{"comm_info_reply", "control", "comm_info_request", `{}`, false},
		{"interrupt_reply", "control", "interrupt_request", `{}`, false},
		{"error_reply", "shell", "complete_request", `{"code":7}`, false},
	}
	<-k.tr.iopub.(*memSocket).out // starting
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sock := k.tr.shell
			if tt.sock == "control" {
				sock = k.tr.control
			}
			req := k.request(sock, tt.msgType, tt.content)
			rep := k.next(sock)
			var parts []json.RawMessage
			for {
				m := k.next(k.tr.iopub)
				if m.ParentHeader.MsgID != req.Header.MsgID {
					t.Fatalf("iopub parent %v", m.ParentHeader)
				}
				parts = append(parts, json.RawMessage(`{"msg_type":"`+m.Header.MsgType+`","content":`+string(m.Content)+`}`))
				if m.Header.MsgType == "status" && bytes.Contains(m.Content, []byte("idle")) {
					break
				}
			}
			got := []byte(rep.Content)
			if tt.iopub {
				got, _ = json.Marshal(parts)
			}
			var buf bytes.Buffer
			if err := json.Indent(&buf, got, "", "  "); err != nil {
				t.Fatal(err)
			}
			buf.WriteByte('\n')
			path := filepath.Join("testdata", "golden", tt.name+".json")
			if *update {
				os.MkdirAll(filepath.Dir(path), 0o755)
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("%s differs from %s:\n%s", tt.name, path, buf.Bytes())
			}
		})
	}
}
