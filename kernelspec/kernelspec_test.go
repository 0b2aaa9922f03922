package kernelspec

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// fakeKernel creates an executable file standing in for the kernel binary
// (the test binary itself lives in a go-build directory, which Install
// rightly refuses).
func fakeKernel(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "sbir-kernel")
	if err := os.WriteFile(p, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

// envMap returns a Getenv over m.
func envMap(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func noJupyter(string) (string, error) { return "", errors.New(`"jupyter" is not on PATH`) }

func TestDir(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the expected paths are Linux's")
	}
	tests := []struct {
		name     string
		opts     Options
		lookPath func(string) (string, error)
		want     string
		wantErr  string
	}{
		{
			name: "JUPYTER_DATA_DIR wins for the user scope",
			opts: Options{Getenv: envMap(map[string]string{"JUPYTER_DATA_DIR": "/j/data", "HOME": "/home/u", "XDG_DATA_HOME": "/x"})},
			want: "/j/data/kernels/sbir",
		},
		{
			name: "XDG_DATA_HOME",
			opts: Options{Getenv: envMap(map[string]string{"HOME": "/home/u", "XDG_DATA_HOME": "/x"})},
			want: "/x/jupyter/kernels/sbir",
		},
		{
			name: "HOME fallback",
			opts: Options{Getenv: envMap(map[string]string{"HOME": "/home/u"})},
			want: "/home/u/.local/share/jupyter/kernels/sbir",
		},
		{
			name:    "no HOME",
			opts:    Options{Getenv: envMap(nil)},
			wantErr: "HOME is not set",
		},
		{
			name: "custom name is lower-cased like Jupyter does",
			opts: Options{Name: "SBIR-Short", Getenv: envMap(map[string]string{"HOME": "/home/u"})},
			want: "/home/u/.local/share/jupyter/kernels/sbir-short",
		},
		{
			name: "prefix",
			opts: Options{Scope: PrefixScope, Prefix: "/opt/env", Getenv: envMap(map[string]string{"JUPYTER_DATA_DIR": "/ignored"})},
			want: "/opt/env/share/jupyter/kernels/sbir",
		},
		{
			name: "sys-prefix from VIRTUAL_ENV",
			opts: Options{Scope: SysPrefixScope, Getenv: envMap(map[string]string{"VIRTUAL_ENV": "/venv", "CONDA_PREFIX": "/conda"})},
			want: "/venv/share/jupyter/kernels/sbir",
		},
		{
			name: "sys-prefix from CONDA_PREFIX",
			opts: Options{Scope: SysPrefixScope, Getenv: envMap(map[string]string{"CONDA_PREFIX": "/conda"})},
			want: "/conda/share/jupyter/kernels/sbir",
		},
		{
			name:     "sys-prefix from the jupyter command",
			opts:     Options{Scope: SysPrefixScope, Getenv: envMap(nil)},
			lookPath: func(string) (string, error) { return "/nonexistent/env/bin/jupyter", nil },
			want:     "/nonexistent/env/share/jupyter/kernels/sbir",
		},
		{
			name:     "sys-prefix without any environment",
			opts:     Options{Scope: SysPrefixScope, Getenv: envMap(nil)},
			lookPath: noJupyter,
			wantErr:  "use --prefix DIR",
		},
		{
			name:    "prefix scope without a prefix",
			opts:    Options{Scope: PrefixScope, Getenv: envMap(nil)},
			wantErr: "needs a prefix directory",
		},
		{
			name:    "prefix given with the user scope",
			opts:    Options{Prefix: "/p", Getenv: envMap(map[string]string{"HOME": "/h"})},
			wantErr: "only meaningful with the prefix scope",
		},
		{
			name:    "name with a slash",
			opts:    Options{Name: "../etc", Getenv: envMap(map[string]string{"HOME": "/h"})},
			wantErr: "invalid kernel name",
		},
		{
			name:    "name that is a dot-dot",
			opts:    Options{Name: "..", Getenv: envMap(map[string]string{"HOME": "/h"})},
			wantErr: "invalid kernel name",
		},
		{
			name:    "unknown scope",
			opts:    Options{Scope: Scope(9), Getenv: envMap(map[string]string{"HOME": "/h"})},
			wantErr: "unknown scope",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			opts.lookPath = tt.lookPath
			if opts.lookPath == nil {
				opts.lookPath = noJupyter
			}
			got, err := Dir(opts)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Dir() error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Dir() error = %v", err)
			}
			if got != tt.want {
				t.Errorf("Dir() = %q, want %q", got, tt.want)
			}
		})
	}
}

func readSpec(t *testing.T, dir string) Spec {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, SpecFile))
	if err != nil {
		t.Fatal(err)
	}
	var s Spec
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("kernel.json is not valid JSON: %v\n%s", err, data)
	}
	return s
}

func TestInstall(t *testing.T) {
	exe := fakeKernel(t)
	tests := []struct {
		name     string
		opts     Options
		wantArgv []string
		wantName string
		wantDisp string
	}{
		{
			name:     "defaults",
			opts:     Options{},
			wantArgv: []string{exe, "kernel", "-f", "{connection_file}"},
			wantName: "sbir",
			wantDisp: "Go (SBIR awards)",
		},
		{
			name:     "limits and names",
			opts:     Options{Name: "sbir-short", DisplayName: "Go (SBIR, 2 s cells)", Args: []string{"--cell-timeout", "2s", "--max-output-bytes", "1024"}},
			wantArgv: []string{exe, "kernel", "--cell-timeout", "2s", "--max-output-bytes", "1024", "-f", "{connection_file}"},
			wantName: "sbir-short",
			wantDisp: "Go (SBIR, 2 s cells)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := t.TempDir()
			opts := tt.opts
			opts.Executable = exe
			opts.Version = "1.2.3"
			opts.Getenv = envMap(map[string]string{"JUPYTER_DATA_DIR": data})
			inst, err := Install(opts)
			if err != nil {
				t.Fatalf("Install: %v", err)
			}
			wantDir := filepath.Join(data, "kernels", tt.wantName)
			if inst.Dir != wantDir || inst.Name != tt.wantName || inst.Replaced {
				t.Errorf("Installation = {Name %q Dir %q Replaced %v}, want {%q %q false}", inst.Name, inst.Dir, inst.Replaced, tt.wantName, wantDir)
			}
			spec := readSpec(t, wantDir)
			if !reflect.DeepEqual(spec.Argv, tt.wantArgv) {
				t.Errorf("argv = %q, want %q", spec.Argv, tt.wantArgv)
			}
			if spec.DisplayName != tt.wantDisp || spec.Language != "go" || spec.InterruptMode != "message" {
				t.Errorf("spec = %+v; want display %q, language go, interrupt_mode message", spec, tt.wantDisp)
			}
			own, _ := spec.Metadata[metadataKey].(map[string]any)
			if own["version"] != "1.2.3" || spec.Metadata["debugger"] != false {
				t.Errorf("metadata = %v, want debugger false and %s.version 1.2.3", spec.Metadata, metadataKey)
			}
			for _, f := range []string{logo32, logo64, logoSVG} {
				st, err := os.Stat(filepath.Join(wantDir, f))
				if err != nil || st.Size() == 0 || st.Mode().Perm() != 0o644 {
					t.Errorf("%s: stat %v, err %v; want a non-empty 0644 file", f, st, err)
				}
			}
			leftovers, _ := filepath.Glob(filepath.Join(wantDir, ".*.tmp"))
			if len(leftovers) > 0 {
				t.Errorf("temporary files left behind: %v", leftovers)
			}
		})
	}
}

func TestInstallIsIdempotentAndUpdates(t *testing.T) {
	exe := fakeKernel(t)
	data := t.TempDir()
	opts := Options{Executable: exe, Getenv: envMap(map[string]string{"JUPYTER_DATA_DIR": data})}
	first, err := Install(opts)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(first.Dir, SpecFile))

	again, err := Install(opts)
	if err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(filepath.Join(first.Dir, SpecFile))
	if !again.Replaced || string(before) != string(after) {
		t.Errorf("second install: Replaced=%v, kernel.json changed=%v; want true, false", again.Replaced, string(before) != string(after))
	}
	if again.Previous == nil || !reflect.DeepEqual(again.Previous.Argv, first.Spec.Argv) {
		t.Errorf("Previous = %+v, want the first spec", again.Previous)
	}

	opts.Args = []string{"--cell-timeout", "5s"}
	opts.DisplayName = "Go (updated)"
	updated, err := Install(opts)
	if err != nil {
		t.Fatal(err)
	}
	spec := readSpec(t, updated.Dir)
	if !updated.Replaced || spec.DisplayName != "Go (updated)" || !reflect.DeepEqual(spec.Argv[2:4], []string{"--cell-timeout", "5s"}) {
		t.Errorf("update: Replaced=%v spec=%+v; want the new display name and limits", updated.Replaced, spec)
	}
	entries, _ := os.ReadDir(updated.Dir)
	if len(entries) != 4 {
		t.Errorf("kernelspec directory holds %d entries, want 4 (kernel.json and three logos)", len(entries))
	}
}

func TestInstallRejectsBadExecutables(t *testing.T) {
	dir := t.TempDir()
	notExec := filepath.Join(dir, "plain")
	os.WriteFile(notExec, []byte("x"), 0o644)
	goRun := filepath.Join(dir, "go-build1234", "b001", "exe", "sbir-kernel")
	os.MkdirAll(filepath.Dir(goRun), 0o755)
	os.WriteFile(goRun, []byte("x"), 0o755)

	tests := []struct {
		name, exe, wantErr string
	}{
		{"missing", filepath.Join(dir, "nope"), "no such file"},
		{"directory", dir, "not an executable file"},
		{"not executable", notExec, "not an executable file"},
		{"go run binary", goRun, "temporary `go run` build"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := t.TempDir()
			_, err := Install(Options{Executable: tt.exe, Getenv: envMap(map[string]string{"JUPYTER_DATA_DIR": data})})
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Install(%s) error = %v, want one containing %q", tt.exe, err, tt.wantErr)
			}
			if _, err := os.Stat(filepath.Join(data, "kernels")); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("a failed install created %s/kernels", data)
			}
		})
	}
}

func TestInstallPermissionDenied(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores directory permissions")
	}
	data := t.TempDir()
	os.Chmod(data, 0o555)
	defer os.Chmod(data, 0o755)
	_, err := Install(Options{Executable: fakeKernel(t), Getenv: envMap(map[string]string{"JUPYTER_DATA_DIR": data})})
	if !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), "JUPYTER_DATA_DIR") {
		t.Fatalf("error = %v, want a permission error with a hint", err)
	}
}

func TestUninstall(t *testing.T) {
	exe := fakeKernel(t)
	data := t.TempDir()
	opts := Options{Executable: exe, Getenv: envMap(map[string]string{"JUPYTER_DATA_DIR": data})}
	inst, err := Install(opts)
	if err != nil {
		t.Fatal(err)
	}
	dir, err := Uninstall(opts)
	if err != nil || dir != inst.Dir {
		t.Fatalf("Uninstall = %q, %v; want %q, nil", dir, err, inst.Dir)
	}
	if _, err := os.Stat(inst.Dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s still exists after Uninstall", inst.Dir)
	}

	_, err = Uninstall(opts)
	if !errors.Is(err, ErrNotInstalled) || !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), inst.Dir) {
		t.Errorf("second Uninstall error = %v, want ErrNotInstalled naming %s", err, inst.Dir)
	}

	// A kernelspec someone else wrote is left alone.
	foreign := filepath.Join(data, "kernels", "python3")
	os.MkdirAll(foreign, 0o755)
	os.WriteFile(filepath.Join(foreign, SpecFile), []byte(`{"argv":["python3"],"display_name":"Python 3","language":"python"}`), 0o644)
	opts.Name = "python3"
	if _, err := Uninstall(opts); err == nil || !strings.Contains(err.Error(), "jupyter kernelspec remove python3") {
		t.Errorf("Uninstall(python3) error = %v, want a refusal", err)
	}
	if _, err := os.Stat(filepath.Join(foreign, SpecFile)); err != nil {
		t.Errorf("foreign kernelspec was touched: %v", err)
	}
}

// TestJupyterListsKernel asks the real jupyter_client whether it finds and
// accepts the installed kernelspec.
func TestJupyterListsKernel(t *testing.T) {
	jupyter, err := exec.LookPath("jupyter")
	if err != nil {
		if os.Getenv("SBIR_E2E") == "1" {
			t.Fatal("SBIR_E2E=1 but jupyter is not on PATH (Debian packages jupyter-core jupyter-client)")
		}
		t.Skip("jupyter is not installed (Debian packages jupyter-core jupyter-client); skipping the check with the real client")
	}
	data := t.TempDir()
	exe := fakeKernel(t)
	if _, err := Install(Options{Executable: exe, Getenv: envMap(map[string]string{"JUPYTER_DATA_DIR": data})}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(jupyter, "kernelspec", "list", "--json")
	cmd.Env = append(os.Environ(), "JUPYTER_DATA_DIR="+data)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("jupyter kernelspec list --json: %v", err)
	}
	var list struct {
		Kernelspecs map[string]struct {
			ResourceDir string `json:"resource_dir"`
			Spec        Spec   `json:"spec"`
		} `json:"kernelspecs"`
	}
	if err := json.Unmarshal(out, &list); err != nil {
		t.Fatalf("jupyter kernelspec list --json: %v\n%s", err, out)
	}
	ks, ok := list.Kernelspecs["sbir"]
	if !ok {
		t.Fatalf("jupyter does not list sbir:\n%s", out)
	}
	if ks.ResourceDir != filepath.Join(data, "kernels", "sbir") || ks.Spec.Argv[0] != exe || ks.Spec.InterruptMode != "message" {
		t.Errorf("jupyter sees %+v", ks)
	}
}
