package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/sbirtools/sbir-kernel/kernelspec"
	"github.com/sbirtools/sbir-kernel/pkgenv"
	"github.com/sbirtools/sbir-kernel/sandbox"
)

// scopeFlags are the --user / --sys-prefix / --prefix flags shared by
// install and uninstall.
type scopeFlags struct {
	user, sysPrefix bool
	prefix          string
}

func (s *scopeFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&s.user, "user", false, "use the current user's Jupyter data directory ($JUPYTER_DATA_DIR if set); the default")
	fs.BoolVar(&s.sysPrefix, "sys-prefix", false, "use the active Python environment ($VIRTUAL_ENV, $CONDA_PREFIX, or the prefix of the jupyter command on PATH)")
	fs.StringVar(&s.prefix, "prefix", "", "use `DIR`/share/jupyter/kernels")
}

// options converts the flags to kernelspec options, rejecting combinations.
func (s *scopeFlags) options(fs *flag.FlagSet) (kernelspec.Options, error) {
	var chosen []string
	prefixSet := false
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "user", "sys-prefix":
			if f.Value.String() == "true" {
				chosen = append(chosen, "--"+f.Name)
			}
		case "prefix":
			prefixSet = true
			chosen = append(chosen, "--prefix")
		}
	})
	if len(chosen) > 1 {
		return kernelspec.Options{}, usageError{fmt.Sprintf("choose one of --user, --sys-prefix and --prefix, not %s", strings.Join(chosen, " and "))}
	}
	switch {
	case s.sysPrefix:
		return kernelspec.Options{Scope: kernelspec.SysPrefixScope}, nil
	case prefixSet:
		if s.prefix == "" {
			return kernelspec.Options{}, usageError{"--prefix needs a directory"}
		}
		return kernelspec.Options{Scope: kernelspec.PrefixScope, Prefix: s.prefix}, nil
	}
	return kernelspec.Options{Scope: kernelspec.UserScope}, nil
}

func cmdInstall(ctx context.Context, env *cliEnv, args []string) error {
	fs, apply := newFlagSet(env, "install", "", `
Install the kernelspec that lets Jupyter start this binary as a kernel.
kernel.json records the absolute path of this binary and the limit and
package flags given here (--allow-packages lets notebooks install the Go
modules they declare) and the compiled-cell flags (--compile=off, --go);
run install again after moving the binary or to change them.`)
	var scope scopeFlags
	scope.register(fs)
	name := fs.String("name", kernelspec.DefaultName, "kernel `name` for Jupyter (jupyter console --kernel NAME)")
	display := fs.String("display-name", kernelspec.DefaultDisplayName, "name shown in JupyterLab's launcher and menus")
	limits := sandbox.DefaultLimits()
	limits.RegisterFlags(fs)
	stall := iopubStallFlag(fs)
	var pkgs pkgenv.Options
	pkgs.RegisterFlags(fs)
	compile := sandbox.DefaultCompileSettings()
	compile.RegisterFlags(fs)
	requireIsolation := fs.Bool("require-isolation", false, "the kernel refuses to run cells unless every sandbox isolation layer is active (for shared servers)")
	cacheDir := fs.String("cache-dir", "", "record SBIR_CACHE_DIR=`DIR` in kernel.json, for launchers that pass the kernel a bare environment (Kernel Gateway): where the downloaded data and its Arrow file are")
	if err := parseFlags(fs, apply, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	if err := checkIOPubStall(*stall); err != nil {
		return err
	}
	opts, err := scope.options(fs)
	if err != nil {
		return err
	}
	opts.Name = *name
	opts.DisplayName = *display
	opts.Version = version
	opts.Getenv = env.Getenv
	opts.Args = append(chosenLimitArgs(fs, limits), chosenArgs(fs, pkgs.Args())...)
	opts.Args = append(opts.Args, chosenArgs(fs, compile.Args())...)
	opts.Args = append(opts.Args, chosenArgs(fs, []string{"--iopub-stall-timeout=" + stall.String()})...)
	if *requireIsolation {
		opts.Args = append(opts.Args, "--require-isolation")
	}
	if *cacheDir != "" {
		if !filepath.IsAbs(*cacheDir) {
			return usageError{fmt.Sprintf("--cache-dir %q: give an absolute path (the kernel starts in another directory)", *cacheDir)}
		}
		opts.Env = map[string]string{"SBIR_CACHE_DIR": filepath.Clean(*cacheDir)}
	}

	inst, err := kernelspec.Install(opts)
	if err != nil {
		return err
	}
	printInstalled(env.Stdout, inst, opts, env.Getenv)
	return nil
}

// chosenLimitArgs returns the limit flags the user set, as limits.Args()
// renders them.
func chosenLimitArgs(fs *flag.FlagSet, limits sandbox.Limits) []string {
	return chosenArgs(fs, limits.Args())
}

// chosenArgs returns the flags of all (as Limits.Args and
// pkgenv.Options.Args render them) that the user set. Flags left at their
// defaults stay out of kernel.json, so a newer binary's defaults apply to
// them.
func chosenArgs(fs *flag.FlagSet, all []string) []string {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var out []string
	for _, a := range all {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if set[name] {
			out = append(out, a)
		}
	}
	return out
}

func printInstalled(w io.Writer, inst *kernelspec.Installation, opts kernelspec.Options, getenv func(string) string) {
	verb := "Installed"
	if inst.Replaced {
		verb = "Updated"
	}
	fmt.Fprintf(w, "%s kernelspec %q (%s) in %s\n", verb, inst.Name, inst.Spec.DisplayName, inst.Dir)
	fmt.Fprintf(w, "  starts: %s\n", strings.Join(inst.Spec.Argv, " "))
	if inst.Previous != nil && strings.Join(inst.Previous.Argv, " ") != strings.Join(inst.Spec.Argv, " ") {
		fmt.Fprintf(w, "  was:    %s\n", strings.Join(inst.Previous.Argv, " "))
	}
	if opts.Scope == kernelspec.UserScope && getenv("JUPYTER_DATA_DIR") != "" {
		fmt.Fprintf(w, "  (in $JUPYTER_DATA_DIR: Jupyter sees this kernel only while JUPYTER_DATA_DIR=%s)\n", getenv("JUPYTER_DATA_DIR"))
	}
	if opts.Scope == kernelspec.PrefixScope {
		fmt.Fprintf(w, "  (Jupyter looks there only if that prefix is its own, or is listed in $JUPYTER_PATH as %s/share/jupyter)\n", opts.Prefix)
	}
	fmt.Fprintf(w, "Next: jupyter console --kernel %s   (or pick %q in JupyterLab's launcher; `jupyter kernelspec list` shows it)\n",
		inst.Name, inst.Spec.DisplayName)
}

func cmdUninstall(ctx context.Context, env *cliEnv, args []string) error {
	fs, apply := newFlagSet(env, "uninstall", "", `
Remove a kernelspec that 'sbir-kernel install' wrote. Kernelspecs written by
anything else are left alone.`)
	var scope scopeFlags
	scope.register(fs)
	name := fs.String("name", kernelspec.DefaultName, "kernel `name` to remove")
	if err := parseFlags(fs, apply, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	opts, err := scope.options(fs)
	if err != nil {
		return err
	}
	opts.Name = *name
	opts.Getenv = env.Getenv
	dir, err := kernelspec.Uninstall(opts)
	if errors.Is(err, kernelspec.ErrNotInstalled) {
		return exitError{code: 1, err: fmt.Errorf("%w; `jupyter kernelspec list` shows what is installed where", err)}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "Removed kernelspec %q from %s\n", opts.Name, dir)
	return nil
}
