package kernel

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadConnectionFile(t *testing.T) {
	tests := []struct {
		name, json string
		wantErr    string
	}{
		{"jupyter_client", `{"shell_port": 1, "iopub_port": 2, "stdin_port": 3, "control_port": 4, "hb_port": 5,
			"ip": "127.0.0.1", "key": "k", "transport": "tcp", "signature_scheme": "hmac-sha256", "kernel_name": "sbir"}`, ""},
		{"defaults", `{"shell_port": 1}`, ""},
		{"bad scheme", `{"signature_scheme": "hmac-md5"}`, `signature_scheme "hmac-md5" is not supported`},
		{"bad transport", `{"transport": "udp"}`, `transport "udp" is not supported`},
		{"bad port", `{"hb_port": 70000}`, "hb_port 70000 is out of range"},
		{"not JSON", `{`, "unexpected end of JSON input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "kernel.json")
			os.WriteFile(path, []byte(tt.json), 0o600)
			ci, err := ReadConnectionFile(path)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), path) {
					t.Errorf("err = %v, want it to name the file and say %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ci.Transport != "tcp" || ci.IP != "127.0.0.1" || ci.SignatureScheme != "hmac-sha256" || ci.ShellPort != 1 {
				t.Errorf("info = %+v", ci)
			}
		})
	}
	if _, err := ReadConnectionFile(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("missing file accepted")
	}
}

func TestIPCEndpoint(t *testing.T) {
	ci := ConnectionInfo{Transport: "ipc", IP: "/tmp/k"}
	if got := ci.endpoint(3); got != "ipc:///tmp/k-3" {
		t.Errorf("endpoint = %q", got)
	}
}
