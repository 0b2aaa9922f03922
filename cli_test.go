package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs one sbir-kernel command line in this process, with the given
// environment variables and no standard input, as main would.
func runCLI(t *testing.T, env map[string]string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	cli := &cliEnv{
		Stdin:  strings.NewReader(""),
		Stdout: &o,
		Stderr: &e,
		Getenv: func(k string) string { return env[k] },
	}
	cli.Logger = newLogger(&e, 0)
	code = runMain(context.Background(), cli, args)
	return o.String(), e.String(), code
}

// buildKernel compiles this command into dir for tests that need a real
// process (signals, exit codes).
func buildKernel(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "sbir-kernel")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}
