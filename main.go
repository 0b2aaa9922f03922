// Command sbir-kernel is a Jupyter kernel for the public SBIR/STTR awards
// dataset. Cells are Go, evaluated by yaegi in a sandboxed worker process,
// with the awards available as the award_data package.
//
// Usage:
//
//	sbir-kernel <command> [flags] [args]
//
// Run "sbir-kernel help" for the list of commands and "sbir-kernel <command> -h"
// for the flags of one command.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"

	"github.com/sbirtools/sbir-kernel/internal/textdist"
)

// version is the kernel's version, overridable at link time with
// -ldflags "-X main.version=...".
var version = "0.1.0"

// command is one subcommand of sbir-kernel.
type command struct {
	name    string
	summary string
	// run executes the command. args excludes the command name. It returns
	// a usageError for bad flags or arguments and an exitError to choose a
	// specific exit status.
	run func(ctx context.Context, env *cliEnv, args []string) error
}

// commands lists every subcommand, in the order help shows them.
var commands = []command{
	{"run", "run Go code against the awards data and print its output", cmdRun},
	{"kernel", "serve the Jupyter messaging protocol (started by Jupyter)", cmdKernel},
	{"mcp", "serve persistent Go sessions to agents over MCP (stdio or HTTP)", cmdMCP},
	{"install", "install the kernelspec so Jupyter can start this kernel", cmdInstall},
	{"uninstall", "remove an installed kernelspec", cmdUninstall},
	{"download-data", "download the SBIR awards CSV and convert it to Arrow", cmdDownloadData},
	{"generate-data", "write a synthetic SBIR awards CSV (for tests and benchmarks)", cmdGenerateData},
	{"packages", "list or prune cached per-notebook Go package environments", cmdPackages},
	{"doctor", "describe the data and the sandbox isolation on this host", cmdDoctor},
	{"version", "print the version", cmdVersion},
}

// cliEnv is what a command may touch of the outside world. Tests replace
// its fields; nothing in package main reads os.Stdout or os.Getenv directly.
type cliEnv struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
	// Logger writes the kernel's own logs to Stderr; commands replace it
	// once their --log-level flag is parsed (see newFlagSet).
	Logger *slog.Logger
}

// usageError reports bad flags or arguments; it maps to exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// exitError carries a specific exit status. A nil err means the command
// already printed everything it had to say.
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e exitError) Unwrap() error { return e.err }

func main() {
	// The worker is this same binary re-executed by the sandbox; it must not
	// parse the command line like the front end does.
	if maybeRunWorker() {
		return
	}
	env := &cliEnv{
		Stdin:  os.Stdin,
		Stdout: os.Stdout,
		Stderr: os.Stderr,
		Getenv: os.Getenv,
	}
	env.Logger = newLogger(env.Stderr, slog.LevelWarn)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	os.Exit(runMain(ctx, env, os.Args[1:]))
}

// runMain dispatches args to a command and maps its error to an exit status
// in one place: 0 success, 1 failure, 2 usage error.
func runMain(ctx context.Context, env *cliEnv, args []string) int {
	if len(args) == 0 {
		printUsage(env.Stderr)
		return 2
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			if c, ok := lookupCommand(args[1]); ok {
				return runMain(ctx, env, []string{c.name, "-h"})
			}
		}
		printUsage(env.Stdout)
		return 0
	case "--version", "-version":
		name = "version"
	}
	c, ok := lookupCommand(name)
	if !ok {
		fmt.Fprintf(env.Stderr, "sbir-kernel: unknown command %q%s\n", name, suggestCommand(name))
		fmt.Fprintf(env.Stderr, "Run 'sbir-kernel help' for the list of commands.\n")
		return 2
	}
	err := c.run(ctx, env, args[1:])
	return exitCode(env.Stderr, c.name, err)
}

// exitCode prints err (if it has anything to say) and returns the status.
func exitCode(stderr io.Writer, name string, err error) int {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	var ue usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(stderr, "sbir-kernel %s: %s\n", name, ue.msg)
		fmt.Fprintf(stderr, "Run 'sbir-kernel %s -h' for usage.\n", name)
		return 2
	}
	var ee exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintf(stderr, "sbir-kernel %s: %v\n", name, ee.err)
		}
		return ee.code
	}
	fmt.Fprintf(stderr, "sbir-kernel %s: %v\n", name, err)
	return 1
}

func lookupCommand(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// suggestCommand returns ` (did you mean "x"?)` for a near miss, or "".
func suggestCommand(name string) string {
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	for _, c := range commands {
		cs = append(cs, cand{c.name, textdist.Levenshtein(name, c.name)})
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
	if len(cs) > 0 && cs[0].d <= 3 {
		return fmt.Sprintf(" (did you mean %q?)", cs[0].name)
	}
	return ""
}

func printUsage(w io.Writer) {
	fmt.Fprintf(w, "sbir-kernel %s: a Jupyter kernel for the SBIR/STTR awards dataset, in Go.\n\n", version)
	fmt.Fprintf(w, "Usage:\n  sbir-kernel <command> [flags] [args]\n\nCommands:\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-14s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun 'sbir-kernel <command> -h' for the flags of one command.\n")
	fmt.Fprintf(w, "Quick start: sbir-kernel run -c 'award_data.Head(5)'\n")
}

// newFlagSet returns a flag set for a command that prints usage to
// env.Stderr and accepts --log-level. After fs.Parse, call the returned
// function to apply the chosen level to env.Logger.
func newFlagSet(env *cliEnv, name, argsSynopsis, description string) (*flag.FlagSet, func() error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	level := fs.String("log-level", "warn", "log level for the kernel's own logs on stderr: debug, info, warn or error")
	fs.Usage = func() {
		fmt.Fprintf(env.Stderr, "Usage: sbir-kernel %s [flags] %s\n\n%s\n\nFlags:\n", name, argsSynopsis, strings.TrimSpace(description))
		fs.PrintDefaults()
	}
	apply := func() error {
		var l slog.Level
		if err := l.UnmarshalText([]byte(*level)); err != nil {
			return usageError{fmt.Sprintf("invalid --log-level %q: use debug, info, warn or error", *level)}
		}
		env.Logger = newLogger(env.Stderr, l)
		return nil
	}
	return fs, apply
}

// parseFlags parses args with fs, applies --log-level, and converts flag
// errors to usage errors (help requests stay flag.ErrHelp).
func parseFlags(fs *flag.FlagSet, apply func() error, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		// The flag package already printed the problem and the usage.
		return exitError{code: 2}
	}
	return apply()
}

func newLogger(w io.Writer, level slog.Level) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
}
