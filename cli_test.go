package main

import (
	"bytes"
	"context"
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
