package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/sbirtools/sbir-kernel/dataset"
	"github.com/sbirtools/sbir-kernel/pkgenv"
	"github.com/sbirtools/sbir-kernel/sandbox"
)

const runDescription = `
Runs Go code in a fresh sandboxed session against the awards data and prints
what it writes, then the value of its last expression. The code comes from -c,
from FILE, or from standard input ("-"). Cells are REPL-style Go: statements,
declarations and expressions mixed; award_data and the allowed standard
packages need no import.

Modules beyond the standard library are declared in the code with
//sbir:require <module> <version>; installing a set that is not cached yet
needs --allow-packages (see 'sbir-kernel packages').

Exit status: 0 when the code ran, 1 when it failed (compile error, panic,
limit), 2 for a usage error.

Example:
  sbir-kernel run -c 'award_data.Head(5)'
  echo 'fmt.Println(award_data.Count())' | sbir-kernel run --json -`

// runOutput is the --json shape of `run`: the sandbox's result (stdout,
// stderr, success, error_name, error_message, traceback, value, truncated,
// restarted) plus what only a whole run has.
type runOutput struct {
	*sandbox.Result
	// ValueText is value["text/plain"], for callers that want a string.
	ValueText string `json:"value_text,omitempty"`
	// Displays are the display.* outputs of the code, in order.
	Displays []sandbox.Display `json:"displays,omitempty"`
	// Data describes the awards data the code ran against.
	Data string `json:"data,omitempty"`
}

func cmdRun(ctx context.Context, env *cliEnv, args []string) error {
	fs, apply := newFlagSet(env, "run", "[-c CODE | FILE | -]", runDescription)
	code := fs.String("c", "", "the code to run")
	asJSON := fs.Bool("json", false, "print the result as one JSON object instead of plain output")
	requireIso := fs.Bool("require-isolation", false, "refuse to run unless every sandbox isolation layer is active")
	limits := sandbox.DefaultLimits()
	limits.RegisterFlags(fs)
	pkgs := pkgenv.Options{KernelVersion: version}
	pkgs.RegisterFlags(fs)
	if err := parseFlags(fs, apply, args); err != nil {
		return err
	}
	src, err := runSource(env, fs.Args(), *code, isFlagSet(args, "c"))
	if err != nil {
		return err
	}
	data, err := dataset.Locate(ctx, dataset.ConfigFromEnv(env.Getenv))
	if err != nil {
		return exitError{code: 1, err: fmt.Errorf("locating the awards data: %w", err)}
	}
	sess, err := sandbox.NewSession(ctx, sandbox.Options{
		Limits:           limits,
		DataPath:         data.ArrowPath,
		RequireIsolation: *requireIso,
		Logger:           env.Logger,
		Packages:         packageOptions(env, pkgs),
	})
	if err != nil {
		return exitError{code: 1, err: err}
	}
	defer sess.Close()

	var displays []sandbox.Display
	h := &sandbox.Handlers{Display: func(d sandbox.Display) { displays = append(displays, d) }}
	if !*asJSON {
		h.Stream = func(name, text string) {
			if name == "stderr" {
				io.WriteString(env.Stderr, text)
			} else {
				io.WriteString(env.Stdout, text)
			}
		}
		h.Display = func(d sandbox.Display) {
			if t, ok := d.Data["text/plain"].(string); ok {
				io.WriteString(env.Stdout, strings.TrimSuffix(t, "\n")+"\n")
			}
		}
	}
	res, err := sess.Run(ctx, src, h)
	if err != nil {
		return exitError{code: 1, err: err}
	}
	if *asJSON {
		out := runOutput{Result: res, Displays: displays, Data: data.Describe()}
		if t, ok := res.Value["text/plain"].(string); ok {
			out.ValueText = t
		}
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(out); err != nil {
			return err
		}
	} else {
		if t, ok := res.Value["text/plain"].(string); ok {
			fmt.Fprintln(env.Stdout, t)
		}
		if !res.Success {
			fmt.Fprintf(env.Stderr, "%s: %s\n", res.ErrorName, res.ErrorMessage)
		}
	}
	if !res.Success {
		return exitError{code: 1}
	}
	return nil
}

// packageOptions completes the package options of a session from the
// command's environment: the cache directory and the logger. Without a
// cache directory, cells that declare packages report why.
func packageOptions(env *cliEnv, o pkgenv.Options) pkgenv.Options {
	o.Dir = sandbox.PackagesDir(env.Getenv)
	o.Logger = env.Logger
	return o
}

// isFlagSet reports whether flag name appears in args (so that -c "" is
// distinguishable from no -c).
func isFlagSet(args []string, name string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		t := strings.TrimLeft(a, "-")
		if a != t && (t == name || strings.HasPrefix(t, name+"=")) {
			return true
		}
	}
	return false
}

// runSource picks the code from -c, a file or standard input.
func runSource(env *cliEnv, rest []string, code string, haveC bool) (string, error) {
	switch {
	case haveC && len(rest) > 0:
		return "", usageError{"give the code either with -c or as FILE, not both"}
	case haveC:
		return code, nil
	case len(rest) > 1:
		return "", usageError{fmt.Sprintf("expected one FILE, got %d arguments", len(rest))}
	case len(rest) == 0:
		return "", usageError{"no code: use -c CODE, a FILE, or - for standard input"}
	case rest[0] == "-":
		b, err := io.ReadAll(env.Stdin)
		if err != nil {
			return "", fmt.Errorf("reading the code from standard input: %w", err)
		}
		return string(b), nil
	}
	b, err := os.ReadFile(rest[0])
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", usageError{fmt.Sprintf("%s: no such file", rest[0])}
		}
		return "", fmt.Errorf("reading the code: %w", err)
	}
	return string(b), nil
}
