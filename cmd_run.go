package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/sbirtools/sbir-kernel/cellresult"
	"github.com/sbirtools/sbir-kernel/dataset"
	"github.com/sbirtools/sbir-kernel/pkgenv"
	"github.com/sbirtools/sbir-kernel/sandbox"
)

const runDescription = `
Runs Go code in a fresh sandboxed session against the awards data and prints
what it writes, then the value of its last expression. The code comes from -c,
from FILE, or from standard input ("-"). It is Go as you write it: a whole
program (package main, imports, func main, which runs once as with go run) or
statements, declarations and expressions mixed; award_data and the allowed
standard packages need no import. Goroutines belong to the run: whatever still
runs when it ends is stopped.

Modules beyond the standard library are declared in the code with
//sbir:require <module> <version>; installing a set that is not cached yet
needs --allow-packages (see 'sbir-kernel packages').

With --json the result is one JSON object on standard output, also for usage
and setup errors (see docs/agents.md for the shape, schema
"sbir-kernel.run/2"): stdout, stderr, the last value as text, a frame value's
rows as exact typed records (--max-rows of them from --offset), displays, and
errors as {name, message, line, column, suggestion}. -c may be given once: put several statements in one -c
(separated by newlines or ;) or use a FILE.

Exit status: 0 when the code ran, 1 when it failed (compile error, panic,
limit) or could not start, 2 for a usage error.

Example:
  sbir-kernel run -c 'award_data.Head(5)'
  echo 'fmt.Println(award_data.Count())' | sbir-kernel run --json -`

// runOutput is the --json shape of `run` (docs/agents.md): the result of
// the code as run_go returns it over MCP, plus what only a whole run has.
type runOutput struct {
	// Schema versions the shape: cellresult.Schema.
	Schema string `json:"schema"`
	*cellresult.Result
	// ValueBundle is the value's full MIME bundle (text/plain, text/html,
	// the table representation, Vega-Lite, ...), for callers that render it.
	ValueBundle map[string]any `json:"value_bundle,omitempty"`
	// Data describes the awards data the code ran against.
	Data *runData `json:"data,omitempty"`
}

// runData is the data part of runOutput.
type runData struct {
	Description string `json:"description"`
	Synthetic   bool   `json:"synthetic"`
	Rows        int64  `json:"rows"`
}

// Error names of failures before any code ran (runOutput.Error.Name).
const (
	errUsage = "UsageError" // bad flags or arguments; exit status 2
	errSetup = "SetupError" // the data or the sandbox could not be prepared; exit status 1
)

// runCommand is one `run`: its flags and the code.
type runCommand struct {
	env        *cliEnv
	jsonMode   bool // --json: every outcome, usage errors included, is JSON on stdout
	code       string
	maxRows    int
	offset     int
	requireIso bool
	limits     sandbox.Limits
	pkgs       pkgenv.Options
	compile    sandbox.CompileSettings
}

func cmdRun(ctx context.Context, env *cliEnv, args []string) error {
	r, err := parseRun(env, args)
	if err != nil {
		return err
	}
	isolation := probeIsolation()
	compiler := startCompiler(ctx, env, r.compile)
	data, err := locateData(ctx, env)
	if err != nil {
		return r.fail(errSetup, exitError{code: 1, err: fmt.Errorf("locating the awards data: %w", err)})
	}
	// The answer is printed first; then the run waits for a new Arrow file
	// to be durable, so that the next run finds it cached.
	defer data.WaitDurable(ctx)
	opts := sandbox.Options{
		Limits:           r.limits,
		DataPath:         data.ArrowPath,
		RequireIsolation: r.requireIso,
		Isolation:        isolation(),
		Logger:           env.Logger,
		Packages:         packageOptions(env, r.pkgs),
	}
	if sandbox.MayCompile(r.code) {
		// Code that cannot run compiled does not wait for the go command.
		opts.Compiler, opts.CompileOff = compiler()
		// A whole program runs compiled without the interpreter's
		// worker: it starts only if the code turns out to need it.
		opts.DeferStart = opts.Compiler != nil
	}
	sess, err := sandbox.NewSession(ctx, opts)
	if err != nil {
		return r.fail(errSetup, exitError{code: 1, err: err})
	}
	defer sess.Close()
	// The worker is up: the sync's writeback no longer slows its start.
	data.StartSync()
	if data.Synthetic && !r.jsonMode {
		// Said once, before any output: the numbers that follow are made up.
		fmt.Fprintf(env.Stderr, "note: the data is %s\n", data.Describe())
	}
	res, displays, err := r.execute(ctx, sess)
	if err != nil {
		return r.fail(errSetup, exitError{code: 1, err: err})
	}
	oneShot(res)
	if err := r.report(res, displays, data); err != nil {
		return err
	}
	if !res.Success {
		return exitError{code: 1}
	}
	return nil
}

// parseRun reads run's flags and code. Under --json, flag errors become
// JSON on stdout: the flag package's own messages and the usage text are
// held back. The error returned is the command's.
func parseRun(env *cliEnv, args []string) (*runCommand, error) {
	r := &runCommand{env: env, jsonMode: wantsJSON(args), limits: sandbox.DefaultLimits(), pkgs: pkgenv.Options{KernelVersion: version}, compile: sandbox.DefaultCompileSettings()}
	fs, apply := newFlagSet(env, "run", "[-c CODE | FILE | -]", runDescription)
	haveC := false
	fs.Func("c", "the code to run (once; use newlines or ; for several statements)", func(v string) error {
		if haveC {
			return errors.New("-c given more than once: put all the code in one -c (statements separated by newlines or ;) or in a FILE")
		}
		r.code, haveC = v, true
		return nil
	})
	fs.Bool("json", false, "print the result as one JSON object (docs/agents.md), errors included")
	fs.IntVar(&r.maxRows, "max-rows", cellresult.DefaultMaxRows, fmt.Sprintf("with --json: most rows of a frame value given as exact records (1 to %d)", cellresult.MaxRows))
	fs.IntVar(&r.offset, "offset", 0, "with --json: position (0-based) of the first frame row given as records, to page through a large frame")
	fs.BoolVar(&r.requireIso, "require-isolation", false, "refuse to run unless every sandbox isolation layer is active")
	r.limits.RegisterFlags(fs)
	r.pkgs.RegisterFlags(fs)
	r.compile.RegisterFlags(fs)
	usage := fs.Usage
	if r.jsonMode {
		fs.SetOutput(io.Discard)
		fs.Usage = func() {}
	}
	if err := fs.Parse(args); err != nil {
		switch {
		case errors.Is(err, flag.ErrHelp):
			if r.jsonMode {
				fs.SetOutput(env.Stderr)
				usage()
			}
			return nil, err
		case !r.jsonMode:
			return nil, exitError{code: 2} // the flag package printed the problem and the usage
		}
		return nil, r.fail(errUsage, usageError{err.Error()})
	}
	if err := apply(); err != nil {
		return nil, r.fail(errUsage, err)
	}
	if r.maxRows < 1 || r.maxRows > cellresult.MaxRows {
		return nil, r.fail(errUsage, usageError{fmt.Sprintf("--max-rows %d: give 1 to %d, and page through a larger frame with --offset", r.maxRows, cellresult.MaxRows)})
	}
	if r.offset < 0 {
		return nil, r.fail(errUsage, usageError{fmt.Sprintf("--offset %d: give the position of the first row, 0 or more", r.offset)})
	}
	code, err := runSource(env, fs.Args(), r.code, haveC)
	if err != nil {
		return nil, r.fail(errUsage, err)
	}
	r.code = code
	return r, nil
}

// fail reports an error that stopped the run before or instead of the
// code: as JSON under --json (the exit status 2 for usage errors, else 1),
// else as the command's error.
func (r *runCommand) fail(name string, err error) error {
	if !r.jsonMode {
		return err
	}
	status := 1
	var ue usageError
	if errors.As(err, &ue) {
		status = 2
	}
	out := &runOutput{Schema: cellresult.Schema, Result: &cellresult.Result{Error: &cellresult.Error{Name: name, Message: err.Error()}}}
	if werr := writeRunJSON(r.env, out); werr != nil {
		return werr
	}
	return exitError{code: status}
}

// execute runs the code: without --json its output streams to the
// command's stdout and stderr as it comes; with --json it is collected.
func (r *runCommand) execute(ctx context.Context, sess *sandbox.Session) (*sandbox.Result, []sandbox.Display, error) {
	var displays []sandbox.Display
	h := &sandbox.Handlers{
		Display: func(d sandbox.Display) { displays = append(displays, d) },
		Rows:    sandbox.RowWindow{Offset: r.offset, Limit: r.maxRows},
	}
	if !r.jsonMode {
		h.Stream = func(name, text string) {
			if name == "stderr" {
				io.WriteString(r.env.Stderr, text)
			} else {
				io.WriteString(r.env.Stdout, text)
			}
		}
		h.Display = func(d sandbox.Display) {
			if t, ok := d.Data["text/plain"].(string); ok {
				printWithNotes(r.env, t)
			}
		}
	}
	res, err := sess.Run(ctx, r.code, h)
	return res, displays, err
}

// report prints the outcome: the JSON object, or the value and the error.
func (r *runCommand) report(res *sandbox.Result, displays []sandbox.Display, data *dataset.Source) error {
	if r.jsonMode {
		out := &runOutput{
			Schema:      cellresult.Schema,
			Result:      cellresult.New(res, displays, r.maxRows),
			ValueBundle: res.Value,
			Data:        &runData{Description: data.Describe(), Synthetic: data.Synthetic, Rows: data.Rows},
		}
		if data.Synthetic {
			out.Notice = cellresult.SyntheticNotice(data.Rows)
		}
		return writeRunJSON(r.env, out)
	}
	if t, ok := res.Value["text/plain"].(string); ok {
		printWithNotes(r.env, t)
	}
	if !res.Success {
		fmt.Fprintf(r.env.Stderr, "%s: %s\n", res.ErrorName, res.ErrorMessage)
	}
	return nil
}

// locateData locates the awards data for a command that runs code. A
// conversion's sync to disk is deferred (dataset.Config.DeferSync): the
// caller starts it with StartSync once its worker is up, answers while it
// runs, and calls WaitDurable before it exits. A failed sync is logged by
// Locate and costs only a conversion next time.
func locateData(ctx context.Context, env *cliEnv) (*dataset.Source, error) {
	cfg := dataset.ConfigFromEnv(env.Getenv)
	cfg.Logger = env.Logger
	cfg.DeferSync = true
	return dataset.Locate(ctx, cfg)
}

// releaseConversion lets a long-lived process (the kernel, the MCP
// server) give back what a conversion it just did left in the Go heap
// (input buffers, dictionaries, the columns' first buffers; ~29 MB for a
// 53 MB file in TestReleaseConversion), garbage once the Arrow file is
// written, that it kept for good
// otherwise (the collector does not run again until the heap grows past
// twice its peak). The columns themselves are mapped outside the heap and
// unmapped by the conversion. Called once the worker is up, off the path
// to the first answer.
func releaseConversion(src *dataset.Source) {
	if src.Converted {
		debug.FreeOSMemory()
	}
}

// oneShot rewords a result for a run that has no session to keep: a
// worker that died lost nothing worth mentioning.
func oneShot(res *sandbox.Result) {
	res.Restarted = false
}

func writeRunJSON(env *cliEnv, out *runOutput) error {
	enc := json.NewEncoder(env.Stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// wantsJSON reports whether args ask for --json (so that even flag errors
// come out as JSON). It reads the flag as the flag package will.
func wantsJSON(args []string) bool {
	on := false
	for _, a := range args {
		if a == "--" {
			break
		}
		t := strings.TrimLeft(a, "-")
		if a == t || len(a)-len(t) > 2 {
			continue
		}
		switch {
		case t == "json":
			on = true
		case strings.HasPrefix(t, "json="):
			v, err := strconv.ParseBool(strings.TrimPrefix(t, "json="))
			on = err == nil && v
		}
	}
	return on
}

// packageOptions completes the package options of a session from the
// command's environment: the cache directory and the logger. Without a
// cache directory, cells that declare packages report why.
func packageOptions(env *cliEnv, o pkgenv.Options) pkgenv.Options {
	o.Dir = packagesDir(env.Getenv)
	o.Logger = env.Logger
	return o
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

// printWithNotes prints a value or display's text on standard output,
// except its hints (lines starting "note: ", which award_data adds to a
// frame, e.g. for a category value no row has), which go to standard
// error: $(sbir-kernel run -c '...Count()') captures the answer alone.
func printWithNotes(env *cliEnv, text string) {
	var out, notes strings.Builder
	for line := range strings.Lines(strings.TrimSuffix(text, "\n") + "\n") {
		if strings.HasPrefix(line, "note: ") {
			notes.WriteString(line)
		} else {
			out.WriteString(line)
		}
	}
	io.WriteString(env.Stdout, out.String())
	io.WriteString(env.Stderr, notes.String())
}
