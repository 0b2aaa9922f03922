package kernelspec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Defaults used when Options leaves a field empty.
const (
	DefaultName        = "sbir"
	DefaultDisplayName = "Go (SBIR awards)"
)

// The files of a kernelspec directory.
const (
	SpecFile = "kernel.json"
	logo32   = "logo-32x32.png"
	logo64   = "logo-64x64.png"
	logoSVG  = "logo-svg.svg"
)

// metadataKey marks a kernelspec as written by this package, so Uninstall
// never removes someone else's kernel.
const metadataKey = "sbir_kernel"

// ErrNotInstalled is returned (wrapped, with the directory) by Uninstall when
// there is no kernelspec to remove. errors.Is(err, fs.ErrNotExist) holds for
// it as well.
var ErrNotInstalled error = notInstalledError{}

type notInstalledError struct{}

func (notInstalledError) Error() string        { return "kernelspec not installed" }
func (notInstalledError) Is(target error) bool { return target == fs.ErrNotExist }

// Options say which kernelspec to install or remove and what it contains.
// The zero value installs "sbir" for the current user, pointing at the
// running binary.
type Options struct {
	// Scope selects the Jupyter data directory; the default is UserScope.
	Scope Scope
	// Prefix is the installation prefix for PrefixScope: the kernelspec goes
	// in Prefix/share/jupyter/kernels/Name. It must be empty otherwise.
	Prefix string
	// Name is the kernel name Jupyter uses (`jupyter console --kernel NAME`,
	// notebook metadata). Letters, digits, '.', '_' and '-'; Jupyter treats
	// names case-insensitively, so it is lower-cased. Default DefaultName.
	Name string
	// DisplayName is what launchers and menus show. Default DefaultDisplayName.
	DisplayName string
	// Executable is the kernel binary. Default: the running executable.
	// It is made absolute; it must exist.
	Executable string
	// Args are extra arguments for the "kernel" command, placed before
	// "-f {connection_file}" (for example the sandbox limit flags).
	Args []string
	// Env is written to kernel.json's env: launchers that pass kernels a
	// bare environment (Kernel Gateway passes only PATH) still give the
	// kernel these variables.
	Env map[string]string
	// Version is recorded in the kernelspec's metadata.
	Version string
	// Getenv reads the environment (JUPYTER_DATA_DIR, XDG_DATA_HOME, HOME,
	// VIRTUAL_ENV, CONDA_PREFIX). Default os.Getenv.
	Getenv func(string) string

	// lookPath finds the jupyter command for SysPrefixScope; tests replace it.
	lookPath func(string) (string, error)
}

// Spec is the content of kernel.json.
type Spec struct {
	Argv          []string          `json:"argv"`
	DisplayName   string            `json:"display_name"`
	Language      string            `json:"language"`
	InterruptMode string            `json:"interrupt_mode,omitempty"`
	Env           map[string]string `json:"env,omitempty"`
	Metadata      map[string]any    `json:"metadata,omitempty"`
}

// Installation describes a kernelspec that Install wrote.
type Installation struct {
	// Name is the kernel name, as Jupyter will list it.
	Name string
	// Dir is the kernelspec directory.
	Dir string
	// Spec is what kernel.json now holds.
	Spec Spec
	// Replaced is true when a kernelspec was already there and was updated.
	Replaced bool
	// Previous is the kernel.json that was replaced, when it could be read.
	Previous *Spec
}

var namePattern = regexp.MustCompile(`^[a-zA-Z0-9._-]+$`)

// resolved fills in the defaults and validates o.
func (o Options) resolved() (Options, error) {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.lookPath == nil {
		o.lookPath = lookPathJupyter
	}
	if o.Name == "" {
		o.Name = DefaultName
	}
	if !namePattern.MatchString(o.Name) || o.Name == "." || o.Name == ".." {
		return o, fmt.Errorf("invalid kernel name %q: use only letters, digits, '.', '_' and '-' (Jupyter's rule)", o.Name)
	}
	o.Name = strings.ToLower(o.Name)
	if o.DisplayName == "" {
		o.DisplayName = DefaultDisplayName
	}
	switch o.Scope {
	case UserScope, SysPrefixScope:
		if o.Prefix != "" {
			return o, fmt.Errorf("a prefix (%q) is only meaningful with the prefix scope", o.Prefix)
		}
	case PrefixScope:
		if o.Prefix == "" {
			return o, errors.New("the prefix scope needs a prefix directory, e.g. /usr/local or a virtualenv")
		}
	default:
		return o, fmt.Errorf("unknown scope %d", o.Scope)
	}
	return o, nil
}

// Dir returns the kernelspec directory that Install would write and
// Uninstall would remove for opts, without touching it.
func Dir(opts Options) (string, error) {
	o, err := opts.resolved()
	if err != nil {
		return "", err
	}
	kernels, err := kernelsDir(o)
	if err != nil {
		return "", err
	}
	return filepath.Join(kernels, o.Name), nil
}

// Install writes the kernelspec directory for opts: kernel.json and the
// logos. Installing over an existing kernelspec of the same name updates it
// in place. Each file is written to a temporary file first and renamed, so a
// concurrent Jupyter never reads half a kernel.json.
func Install(opts Options) (*Installation, error) {
	o, err := opts.resolved()
	if err != nil {
		return nil, err
	}
	exe, err := kernelExecutable(o.Executable)
	if err != nil {
		return nil, err
	}
	kernels, err := kernelsDir(o)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(kernels, o.Name)

	spec := newSpec(o, exe)
	body, err := json.MarshalIndent(spec, "", " ")
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", SpecFile, err)
	}
	body = append(body, '\n')

	inst := &Installation{Name: o.Name, Dir: dir, Spec: spec}
	if old, err := os.ReadFile(filepath.Join(dir, SpecFile)); err == nil {
		inst.Replaced = true
		var prev Spec
		if json.Unmarshal(old, &prev) == nil {
			inst.Previous = &prev
		}
	}

	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create kernelspec directory: %w%s", err, permissionHint(err, o))
	}
	files, err := logoFiles()
	if err != nil {
		return nil, err
	}
	// kernel.json last: Jupyter ignores a directory without it, so a failed
	// install never leaves a kernel that starts without its logos.
	files = append(files, file{SpecFile, body})
	for _, f := range files {
		if err := writeFileAtomic(filepath.Join(dir, f.name), f.data); err != nil {
			return nil, fmt.Errorf("install kernelspec %q: %w%s", o.Name, err, permissionHint(err, o))
		}
	}
	return inst, nil
}

// Uninstall removes the kernelspec directory for opts and returns it. It
// returns an error wrapping ErrNotInstalled when there is none, and refuses
// to remove a kernelspec that this package did not write.
func Uninstall(opts Options) (string, error) {
	o, err := opts.resolved()
	if err != nil {
		return "", err
	}
	kernels, err := kernelsDir(o)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(kernels, o.Name)
	data, err := os.ReadFile(filepath.Join(dir, SpecFile))
	if errors.Is(err, fs.ErrNotExist) {
		return dir, fmt.Errorf("uninstall %q: %w (looked in %s)", o.Name, ErrNotInstalled, dir)
	}
	if err != nil {
		return dir, fmt.Errorf("uninstall %q: %w", o.Name, err)
	}
	var spec Spec
	if err := json.Unmarshal(data, &spec); err != nil || spec.Metadata[metadataKey] == nil {
		return dir, fmt.Errorf("uninstall %q: %s was not written by sbir-kernel; remove it with `jupyter kernelspec remove %s` if you mean to", o.Name, dir, o.Name)
	}
	if err := os.RemoveAll(dir); err != nil {
		return dir, fmt.Errorf("uninstall %q: %w%s", o.Name, err, permissionHint(err, o))
	}
	return dir, nil
}

// newSpec builds kernel.json for the resolved options and executable.
func newSpec(o Options, exe string) Spec {
	argv := []string{exe, "kernel"}
	argv = append(argv, o.Args...)
	argv = append(argv, "-f", "{connection_file}")
	own := map[string]any{}
	if o.Version != "" {
		own["version"] = o.Version
	}
	return Spec{
		Argv:          argv,
		DisplayName:   o.DisplayName,
		Language:      "go",
		InterruptMode: "message",
		Env:           o.Env,
		Metadata: map[string]any{
			// The debug adapter protocol is not implemented; saying so keeps
			// JupyterLab from showing a debugger toggle that cannot work.
			"debugger":  false,
			metadataKey: own,
		},
	}
}

// kernelExecutable returns the absolute, symlink-free path of the kernel
// binary: exe, or the running executable when exe is empty.
func kernelExecutable(exe string) (string, error) {
	if exe == "" {
		self, err := os.Executable()
		if err != nil {
			return "", fmt.Errorf("find the kernel binary: %w; pass its path explicitly", err)
		}
		exe = self
	}
	abs, err := filepath.Abs(exe)
	if err != nil {
		return "", fmt.Errorf("kernel binary %q: %w", exe, err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("kernel binary: %w", err)
	}
	if st.IsDir() || st.Mode().Perm()&0o111 == 0 {
		return "", fmt.Errorf("kernel binary %s is not an executable file", abs)
	}
	if isGoRunBinary(abs) {
		return "", fmt.Errorf("kernel binary %s is a temporary `go run` build that disappears when it exits: "+
			"build the binary (go build -o sbir-kernel . or go install) and run its install command", abs)
	}
	return abs, nil
}

// isGoRunBinary reports whether path is inside a go-build work directory,
// where `go run` puts binaries it deletes afterwards.
func isGoRunBinary(path string) bool {
	for _, part := range strings.Split(filepath.ToSlash(path), "/") {
		if strings.HasPrefix(part, "go-build") {
			return true
		}
	}
	return false
}

type file struct {
	name string
	data []byte
}

// writeFileAtomic writes data to path through a temporary file in the same
// directory, then renames it over path. Unchanged files are not rewritten.
func writeFileAtomic(path string, data []byte) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op after a successful rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// permissionHint suggests what to do after a permission error.
func permissionHint(err error, o Options) string {
	if !errors.Is(err, fs.ErrPermission) {
		return ""
	}
	if o.Scope == UserScope {
		return " (check the ownership of your Jupyter data directory, or set JUPYTER_DATA_DIR)"
	}
	return " (install for the current user instead with --user, or run with permission to write there)"
}
