package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runPackages runs "sbir-kernel packages args..." against a cache in
// cacheDir and returns the exit status, stdout and stderr.
func runPackages(t *testing.T, cacheDir string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	env := &cliEnv{
		Stdin:  strings.NewReader(""),
		Stdout: &stdout,
		Stderr: &stderr,
		Getenv: func(k string) string {
			if k == "SBIR_CACHE_DIR" {
				return cacheDir
			}
			return ""
		},
	}
	env.Logger = newLogger(env.Stderr, 0)
	code := runMain(context.Background(), env, append([]string{"packages"}, args...))
	return code, stdout.String(), stderr.String()
}

func TestPackagesCommand(t *testing.T) {
	cache := t.TempDir()
	broken := filepath.Join(cache, "packages", "envs", "0123456789abcdef")
	tests := []struct {
		name       string
		setup      func(t *testing.T)
		args       []string
		code       int
		stdout     string // substring
		stderr     string // substring
		afterCheck func(t *testing.T)
	}{
		{name: "no subcommand", code: 2, stderr: "Subcommands:"},
		{name: "help", args: []string{"-h"}, code: 0, stdout: "prune    evict least recently used"},
		{name: "unknown subcommand", args: []string{"lst"}, code: 2, stderr: `unknown subcommand "lst": use list or prune`},
		{name: "list help", args: []string{"list", "-h"}, code: 0, stderr: "Usage: sbir-kernel packages list"},
		{name: "list empty", args: []string{"list"}, code: 0, stdout: "No package environments cached in " + filepath.Join(cache, "packages")},
		{name: "list json empty", args: []string{"list", "-json"}, code: 0, stdout: "[]"},
		{name: "list extra argument", args: []string{"list", "x"}, code: 2, stderr: `unexpected argument "x"`},
		{
			name: "list broken",
			setup: func(t *testing.T) {
				if err := os.MkdirAll(filepath.Join(broken, "src"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(broken, "src", "a.go"), []byte("package a\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			},
			args: []string{"list"}, code: 0, stdout: "(broken: no manifest",
		},
		{name: "prune bad budget", args: []string{"prune", "--budget", "lots"}, code: 2, stderr: `--budget: invalid size "lots"`},
		{
			name: "prune", args: []string{"prune", "--budget", "1GB"}, code: 0,
			stdout: "Removed 1 environment (10 bytes); kept 0 (0 bytes, budget 1 GB).",
			afterCheck: func(t *testing.T) {
				if _, err := os.Stat(broken); !os.IsNotExist(err) {
					t.Errorf("%s survives prune (%v)", broken, err)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.setup != nil {
				tc.setup(t)
			}
			code, stdout, stderr := runPackages(t, cache, tc.args...)
			if code != tc.code || !strings.Contains(stdout, tc.stdout) || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("packages %v: exit %d\nstdout:\n%s\nstderr:\n%s\nwant exit %d, stdout containing %q, stderr containing %q",
					tc.args, code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
			}
			if tc.afterCheck != nil {
				tc.afterCheck(t)
			}
		})
	}
}
