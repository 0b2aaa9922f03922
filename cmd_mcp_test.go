package main

import (
	"strings"
	"testing"
)

// TestMCPCommandUsage checks the flag combinations `mcp` refuses before it
// starts anything.
func TestMCPCommandUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"mcp", "--token", "x"}, "--token applies only with --http"},
		{[]string{"mcp", "--max-sessions", "0"}, "--max-sessions 0: give at least 1"},
		{[]string{"mcp", "extra"}, `unexpected argument "extra"`},
		{[]string{"mcp", "--max-memory", "lots"}, "invalid value"},
	} {
		_, stderr, code := runCLI(t, map[string]string{"SBIR_CACHE_DIR": t.TempDir()}, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: status %d, stderr %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
	// A memory cap below one session's heap budget cannot admit anyone.
	_, stderr, code := runCLI(t, map[string]string{"SBIR_CACHE_DIR": t.TempDir()}, "mcp", "--heap-limit", "512MiB", "--max-memory", "256MiB")
	if code != 2 || !strings.Contains(stderr, "below one session's heap budget") {
		t.Errorf("--max-memory below --heap-limit: status %d, stderr %q", code, stderr)
	}
}

func TestDefaultMaxMemory(t *testing.T) {
	if n := defaultMaxMemory(); n <= 0 || n%1024 != 0 {
		t.Fatalf("defaultMaxMemory() = %d, want 3/4 of MemTotal", n)
	}
}
