package kernelspec

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
)

// Scope says which Jupyter data directory a kernelspec belongs to, with the
// same meaning as the --user, --sys-prefix and --prefix options of
// `jupyter kernelspec install` and ipykernel's installer.
type Scope int

const (
	// UserScope installs for the current user: $JUPYTER_DATA_DIR/kernels when
	// that is set, otherwise the platform's user data directory
	// ($XDG_DATA_HOME/jupyter or ~/.local/share/jupyter on Linux,
	// ~/Library/Jupyter on macOS, %APPDATA%\jupyter on Windows).
	UserScope Scope = iota
	// SysPrefixScope installs into the active Python environment, the one
	// whose Jupyter should see the kernel: $VIRTUAL_ENV, else $CONDA_PREFIX,
	// else the prefix of the `jupyter` command on PATH (/usr for
	// /usr/bin/jupyter). Kernels go in PREFIX/share/jupyter/kernels.
	SysPrefixScope
	// PrefixScope installs into Options.Prefix/share/jupyter/kernels.
	PrefixScope
)

// String returns the command-line spelling of the scope.
func (s Scope) String() string {
	switch s {
	case UserScope:
		return "user"
	case SysPrefixScope:
		return "sys-prefix"
	case PrefixScope:
		return "prefix"
	}
	return fmt.Sprintf("Scope(%d)", int(s))
}

// kernelsDir returns the "kernels" directory for the resolved options.
func kernelsDir(o Options) (string, error) {
	switch o.Scope {
	case UserScope:
		data, err := userDataDir(o.Getenv)
		if err != nil {
			return "", err
		}
		return filepath.Join(data, "kernels"), nil
	case SysPrefixScope:
		prefix, err := sysPrefix(o.Getenv, o.lookPath)
		if err != nil {
			return "", err
		}
		return prefixKernels(prefix)
	default:
		return prefixKernels(o.Prefix)
	}
}

func prefixKernels(prefix string) (string, error) {
	abs, err := filepath.Abs(prefix)
	if err != nil {
		return "", fmt.Errorf("prefix %q: %w", prefix, err)
	}
	return filepath.Join(abs, "share", "jupyter", "kernels"), nil
}

// userDataDir mirrors jupyter_core.paths.jupyter_data_dir.
func userDataDir(getenv func(string) string) (string, error) {
	if d := getenv("JUPYTER_DATA_DIR"); d != "" {
		return filepath.Abs(d)
	}
	switch runtime.GOOS {
	case "windows":
		if appdata := getenv("APPDATA"); appdata != "" {
			return filepath.Join(appdata, "jupyter"), nil
		}
	}
	home := getenv("HOME")
	if runtime.GOOS == "windows" && home == "" {
		home = getenv("USERPROFILE")
	}
	if home == "" {
		return "", errors.New("cannot find the Jupyter data directory: HOME is not set; set JUPYTER_DATA_DIR or HOME")
	}
	switch runtime.GOOS {
	case "darwin":
		return filepath.Join(home, "Library", "Jupyter"), nil
	case "windows":
		return filepath.Join(home, ".jupyter", "data"), nil
	}
	if xdg := getenv("XDG_DATA_HOME"); xdg != "" {
		return filepath.Join(xdg, "jupyter"), nil
	}
	return filepath.Join(home, ".local", "share", "jupyter"), nil
}

// sysPrefix finds the prefix of the Python environment whose Jupyter should
// see the kernel.
func sysPrefix(getenv func(string) string, lookPath func(string) (string, error)) (string, error) {
	for _, v := range []string{"VIRTUAL_ENV", "CONDA_PREFIX"} {
		if p := getenv(v); p != "" {
			return p, nil
		}
	}
	jupyter, err := lookPath("jupyter")
	if err != nil {
		return "", fmt.Errorf("cannot find the Python environment for --sys-prefix: no VIRTUAL_ENV or CONDA_PREFIX set and %w; "+
			"activate the environment that runs Jupyter, or use --prefix DIR", err)
	}
	if real, err := filepath.EvalSymlinks(jupyter); err == nil {
		jupyter = real
	}
	// PREFIX/bin/jupyter → PREFIX
	return filepath.Dir(filepath.Dir(jupyter)), nil
}

func lookPathJupyter(name string) (string, error) {
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%q is not on PATH", name)
	}
	return filepath.Abs(p)
}
