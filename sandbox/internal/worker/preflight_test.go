package worker

import (
	"errors"
	"testing"
)

func TestPreflightReason(t *testing.T) {
	tests := []struct{ err, want string }{
		{`src/example.com/runs/runs.go:3:8: import "os/exec" error: unable to find source related to: "os/exec"`,
			"imports os/exec, which cells may not use (at example.com/runs/runs.go:3:8)"},
		{`import "net" error: unable to find source related to: "net"`,
			"imports net, which cells may not use"},
		{`src/example.com/r/r.go:7:10: package os "os" has no symbol ReadFile`,
			"uses os.ReadFile, which cells may not use (at example.com/r/r.go:7:10)"},
		{`src/example.com/a/a.go:3:8: import "example.com/missing" error: unable to find source related to: "example.com/missing"`,
			`example.com/a/a.go:3:8: import "example.com/missing" error: unable to find source related to: "example.com/missing"`},
		{"src/example.com/g/g.go:5:2: undefined: x", "example.com/g/g.go:5:2: undefined: x"},
	}
	for _, tc := range tests {
		if got := preflightReason("example.com/x", errors.New(tc.err)); got != tc.want {
			t.Errorf("preflightReason(%q)\n got %q\nwant %q", tc.err, got, tc.want)
		}
	}
}
