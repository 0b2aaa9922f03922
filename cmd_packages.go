package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/sbirtools/sbir-kernel/dataset"
	"github.com/sbirtools/sbir-kernel/internal/bytesize"
	"github.com/sbirtools/sbir-kernel/pkgenv"
)

const packagesUsage = `Usage: sbir-kernel packages <subcommand> [flags]

Manage the cache of per-notebook Go package environments: the modules
cells declare with //sbir:require, installed once per requirement set and
shared by every session asking for the same set.

Subcommands:
  list     list cached environments, least recently used first
  prune    evict least recently used environments down to a size budget

The cache lives in $SBIR_CACHE_DIR/packages, else
$XDG_CACHE_HOME/sbir-kernel/packages, else ~/.cache/sbir-kernel/packages.
Run 'sbir-kernel packages <subcommand> -h' for the flags of one subcommand.
`

func cmdPackages(ctx context.Context, env *cliEnv, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(env.Stderr, packagesUsage)
		return exitError{code: 2}
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(env.Stdout, packagesUsage)
		return nil
	case "list":
		return cmdPackagesList(env, args[1:])
	case "prune":
		return cmdPackagesPrune(env, args[1:])
	}
	return usageError{fmt.Sprintf("unknown subcommand %q: use list or prune", args[0])}
}

func cmdPackagesList(env *cliEnv, args []string) error {
	fs, apply := newFlagSet(env, "packages list", "", `
List the cached package environments, least recently used first: when each
was last used, its size, how many modules it holds and the requirement set
it was installed for. Environments in use by a running session are marked.`)
	asJSON := fs.Bool("json", false, "print the list as JSON")
	if err := parseFlags(fs, apply, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	dir := packagesDir(env.Getenv)
	entries, err := pkgenv.List(dir)
	if err != nil {
		return err
	}
	if *asJSON {
		return writePackagesJSON(env.Stdout, entries)
	}
	if len(entries) == 0 {
		fmt.Fprintf(env.Stdout, "No package environments cached in %s.\n", dir)
		return nil
	}
	var total int64
	for _, e := range entries {
		total += e.Size
	}
	fmt.Fprintf(env.Stdout, "%s: %s, %s\n\n", dir, packagesPlural(len(entries), "environment"), bytesize.Approx(total))
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "LAST USED\tSIZE\tMODULES\tKEY\tREQUIREMENTS")
	for _, e := range entries {
		reqs := make([]string, len(e.Requirements))
		for i, r := range e.Requirements {
			reqs[i] = r.String()
		}
		what := strings.Join(reqs, ", ")
		switch {
		case e.Broken != "":
			what = "(broken: " + e.Broken + "; prune removes it)"
		case e.InUse:
			what += " (in use)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.12s\t%s\n", e.LastUsed.Local().Format(time.DateTime), bytesize.Approx(e.Size), e.Modules, e.Key, what)
	}
	return tw.Flush()
}

// packagesJSONEntry is the -json form of one environment.
type packagesJSONEntry struct {
	Key          string    `json:"key"`
	Dir          string    `json:"dir"`
	Requirements []string  `json:"requirements"`
	Modules      int       `json:"modules"`
	Size         int64     `json:"size"`
	Created      time.Time `json:"created"`
	LastUsed     time.Time `json:"lastUsed"`
	InUse        bool      `json:"inUse"`
	Broken       string    `json:"broken,omitempty"`
}

func writePackagesJSON(w io.Writer, entries []pkgenv.Entry) error {
	out := make([]packagesJSONEntry, 0, len(entries))
	for _, e := range entries {
		j := packagesJSONEntry{Key: e.Key, Dir: e.Dir, Modules: e.Modules, Size: e.Size,
			Created: e.Created, LastUsed: e.LastUsed, InUse: e.InUse, Broken: e.Broken, Requirements: []string{}}
		for _, r := range e.Requirements {
			j.Requirements = append(j.Requirements, r.String())
		}
		out = append(out, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func cmdPackagesPrune(env *cliEnv, args []string) error {
	fs, apply := newFlagSet(env, "packages prune", "", `
Evict cached package environments, least recently used first, until the
cache fits the budget, and remove what interrupted installs left behind.
Environments in use by a running session are never removed. A budget of 0
removes every environment not in use; evicted sets are reinstalled when a
trusted session declares them again.`)
	budgetFlag := fs.String("budget", bytesize.Exact(pkgenv.DefaultLimits().Budget), "size to prune the cache down to, e.g. 2GB, 500MB or 0")
	if err := parseFlags(fs, apply, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	budget, err := bytesize.Parse(*budgetFlag)
	if err != nil {
		return usageError{"--budget: " + err.Error()}
	}
	dir := packagesDir(env.Getenv)
	rep, err := pkgenv.Prune(dir, budget)
	if err != nil {
		return err
	}
	for _, e := range rep.Removed {
		reqs := make([]string, len(e.Requirements))
		for i, r := range e.Requirements {
			reqs[i] = r.String()
		}
		if e.Broken != "" {
			reqs = []string{"broken: " + e.Broken}
		}
		env.Logger.Info("evicted package environment", "key", e.Key, "size", e.Size, "last_used", e.LastUsed)
		fmt.Fprintf(env.Stdout, "removed %.12s  %s  %s\n", e.Key, bytesize.Approx(e.Size), strings.Join(reqs, ", "))
	}
	fmt.Fprintf(env.Stdout, "Removed %s (%s); kept %d (%s, budget %s).\n",
		packagesPlural(len(rep.Removed), "environment"), bytesize.Approx(rep.Freed), rep.Kept, bytesize.Approx(rep.KeptSize), bytesize.Exact(budget))
	if rep.Interrupted > 0 {
		fmt.Fprintf(env.Stdout, "Removed %s of interrupted installs.\n", packagesPlural(rep.Interrupted, "leftover"))
	}
	if rep.Busy > 0 {
		fmt.Fprintf(env.Stdout, "%s over the budget in use by running sessions; run prune again after they end.\n", packagesPlural(rep.Busy, "environment"))
	}
	return nil
}

// packagesPlural returns "1 environment" or "2 environments".
func packagesPlural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// packagesDir is where per-notebook package environments are cached: the
// packages directory of the kernel's cache directory (see
// dataset.ConfigFromEnv), so that data and packages live side by side.
func packagesDir(getenv func(string) string) string {
	return filepath.Join(dataset.ConfigFromEnv(getenv).CacheDir, "packages")
}
