package main

import (
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sbirtools/sbir-kernel/kernelspec"
	"github.com/sbirtools/sbir-kernel/sandbox"
)

func TestInstallUsageErrors(t *testing.T) {
	env := map[string]string{"JUPYTER_DATA_DIR": t.TempDir()}
	tests := []struct {
		args    []string
		wantErr string
	}{
		{[]string{"install", "--user", "--sys-prefix"}, "choose one of --user, --sys-prefix and --prefix"},
		{[]string{"install", "--sys-prefix", "--prefix", "/p"}, "choose one of"},
		{[]string{"install", "--prefix", ""}, "--prefix needs a directory"},
		{[]string{"install", "stray"}, `unexpected argument "stray"`},
		{[]string{"install", "--cell-timeout", "later"}, "invalid value"},
		{[]string{"install", "--max-output-bytes", "lots"}, "invalid size"},
		{[]string{"install", "--cache-dir", "relative/dir"}, "give an absolute path"},
		{[]string{"install", "--iopub-stall-timeout", "0s"}, "--iopub-stall-timeout 0s: give a positive duration"},
		{[]string{"kernel", "--iopub-stall-timeout", "-1s", "-f", "conn.json"}, "--iopub-stall-timeout -1s: give a positive duration"},
		{[]string{"uninstall", "--user", "--prefix", "/p"}, "choose one of"},
		{[]string{"uninstall", "extra"}, `unexpected argument "extra"`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, stderr, code := runCLI(t, env, tt.args...)
			if code != 2 || !strings.Contains(stderr, tt.wantErr) {
				t.Errorf("exit %d, stderr %q; want exit 2 mentioning %q", code, stderr, tt.wantErr)
			}
		})
	}
}

func TestUninstallNotInstalled(t *testing.T) {
	data := t.TempDir()
	_, stderr, code := runCLI(t, map[string]string{"JUPYTER_DATA_DIR": data}, "uninstall", "--name", "nothing-here")
	if code != 1 || !strings.Contains(stderr, "not installed") || !strings.Contains(stderr, data) {
		t.Errorf("exit %d, stderr %q; want exit 1 saying where it looked", code, stderr)
	}
}

func TestChosenLimitArgs(t *testing.T) {
	tests := []struct {
		args []string
		want []string
	}{
		{nil, nil},
		{[]string{"--cell-timeout", "5s"}, []string{"--cell-timeout=5s"}},
		{[]string{"--heap-limit", "512MiB", "--max-code-bytes", "1KB"}, []string{"--max-code-bytes=1000", "--heap-limit=536870912"}},
		// Setting a flag to its default still records it: the user chose it.
		{[]string{"--kill-grace=2s"}, []string{"--kill-grace=2s"}},
	}
	for _, tt := range tests {
		fs := flag.NewFlagSet("install", flag.ContinueOnError)
		limits := sandbox.DefaultLimits()
		limits.RegisterFlags(fs)
		fs.String("name", kernelspec.DefaultName, "")
		if err := fs.Parse(append(tt.args, "--name", "x")); err != nil {
			t.Fatal(err)
		}
		if got := chosenLimitArgs(fs, limits); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("chosenLimitArgs(%q) = %q, want %q", tt.args, got, tt.want)
		}
	}
}

// TestInstallIOPubStallTimeout: --iopub-stall-timeout reaches kernel.json's
// argv when given, and stays out of it (the kernel's default) when not.
func TestInstallIOPubStallTimeout(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildKernel(t, t.TempDir())
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--iopub-stall-timeout", "1m"}, "--iopub-stall-timeout=1m0s"},
		{nil, ""},
	} {
		spec := installedSpec(t, bin, tt.args...)
		var got string
		for _, a := range spec.Argv {
			if strings.HasPrefix(a, "--iopub-stall-timeout") {
				got = a
			}
		}
		if got != tt.want {
			t.Errorf("install %q: kernel.json argv %q has %q, want %q", tt.args, spec.Argv, got, tt.want)
		}
	}
}

// TestInstallCacheDir checks that --cache-dir reaches kernel.json's env, so
// a kernel started with a bare environment (Kernel Gateway) finds the data.
func TestInstallCacheDir(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	cache := t.TempDir()
	spec := installedSpec(t, buildKernel(t, t.TempDir()), "--cache-dir", cache)
	if spec.Env["SBIR_CACHE_DIR"] != cache {
		t.Errorf("kernel.json env = %v, want SBIR_CACHE_DIR=%s", spec.Env, cache)
	}
}

// TestInstallRecordsCompileFlags: the compiled-cell flags given to
// install are the ones recorded in kernel.json's argv; those left alone
// are not.
func TestInstallRecordsCompileFlags(t *testing.T) {
	fs := flag.NewFlagSet("install", flag.ContinueOnError)
	compile := sandbox.DefaultCompileSettings()
	compile.RegisterFlags(fs)
	if err := fs.Parse([]string{"--compile=off", "--go", "/opt/go/bin/go"}); err != nil {
		t.Fatal(err)
	}
	want := []string{"--compile=off", "--go=/opt/go/bin/go"}
	if got := chosenArgs(fs, compile.Args()); !reflect.DeepEqual(got, want) {
		t.Errorf("chosenArgs = %q, want %q", got, want)
	}
	// The recorded flags parse back to the same settings.
	back := sandbox.DefaultCompileSettings()
	fs2 := flag.NewFlagSet("kernel", flag.ContinueOnError)
	back.RegisterFlags(fs2)
	if err := fs2.Parse(compile.Args()); err != nil || back != compile {
		t.Errorf("Args %q parse back to %+v (%v); want %+v", compile.Args(), back, err, compile)
	}
}

// installedSpec runs bin install with args into a fresh Jupyter data
// directory and returns the kernel.json it wrote.
func installedSpec(t *testing.T, bin string, args ...string) kernelspec.Spec {
	t.Helper()
	data := t.TempDir()
	cmd := exec.Command(bin, append([]string{"install"}, args...)...)
	cmd.Env = append(os.Environ(), "JUPYTER_DATA_DIR="+data)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("install %q: %v: %s", args, err, out)
	}
	b, err := os.ReadFile(filepath.Join(data, "kernels", kernelspec.DefaultName, "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	var spec kernelspec.Spec
	if err := json.Unmarshal(b, &spec); err != nil {
		t.Fatal(err)
	}
	return spec
}
