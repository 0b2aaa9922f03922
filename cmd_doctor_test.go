package main

import (
	"strings"
	"testing"
)

// TestDoctor runs the doctor command against the embedded sample with a
// real sandbox worker: it names the data as synthetic with the command that
// fetches the real data, lists the isolation layers, and the package cache.
func TestDoctor(t *testing.T) {
	cache := t.TempDir()
	stdout, stderr, code := runCLI(t, map[string]string{"SBIR_CACHE_DIR": cache}, "doctor")
	if code != 0 {
		t.Fatalf("doctor: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"synthetic", "sbir-kernel download-data", "2,000",
		cache, // the Arrow file and the package cache live there
		"Sandbox", "worker-process", "seccomp", "landlock",
		"Per-notebook Go packages", "0 sets",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, stdout)
		}
	}
}

func TestDoctorUsage(t *testing.T) {
	_, stderr, code := runCLI(t, map[string]string{"SBIR_CACHE_DIR": t.TempDir()}, "doctor", "extra")
	if code != 2 || !strings.Contains(stderr, `unexpected argument "extra"`) {
		t.Errorf("exit %d, stderr %q; want a usage error", code, stderr)
	}
}
