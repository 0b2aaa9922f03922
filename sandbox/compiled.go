package sandbox

import (
	"context"
	"errors"
	"fmt"
	"regexp"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/cellprep"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/gobuild"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// A cell runs compiled when it asks to (CompileDirective) or is a whole
// program (it declares func main), and the session has a Compiler. It is
// rendered as a program with the session's declarations it uses
// (cellprep.Compile), built outside the sandbox (package gobuild), and run
// in a process of its own under the worker's isolation layers
// (compiled_run.go); the interpreter and its variables are not involved.

// compiled runs a prepared cell compiled when it should be. ok is false
// when the interpreter runs it instead; note is then what the cell's
// stderr should say about that (a directive that could not be honoured).
func (s *Session) compiled(ctx context.Context, code string, prep *cellprep.Prepared, h *Handlers) (res *Result, note string, ok bool) {
	explicit := cellprep.WantsCompile(code)
	if !explicit && !prep.IsProgram() {
		return nil, "", false
	}
	if s.opts.Compiler == nil {
		if explicit {
			why := s.opts.CompileOff
			if why == "" {
				why = "this session has no compiler"
			}
			note = fmt.Sprintf("note: %s ignored, the cell ran interpreted: %s\n", CompileDirective, why)
		}
		return nil, note, false
	}
	prog, err := cellprep.Compile(prep, s.st)
	var nc *cellprep.NotCompilableError
	var ce *cellprep.CompileError
	switch {
	case errors.As(err, &nc):
		if !explicit {
			return nil, "", false // a program only the interpreter can run
		}
		return failed(wire.ClassNotAllowed, fmt.Sprintf("%s: %s; remove %s to run the cell interpreted", CompileDirective, nc.Reason, CompileDirective)), "", true
	case errors.As(err, &ce):
		return failed(wire.ClassCompileError, ce.Error()), "", true
	case err != nil:
		return failed(wire.ClassSandboxError, "rendering the compiled cell: "+err.Error()), "", true
	}
	res = s.buildAndRun(ctx, prog, h)
	if res.Success {
		s.st.CommitCompiled(prog)
	}
	return res, "", true
}

// buildAndRun builds prog and runs it. The launcher starts beside the
// build: its start and its isolation layers take place while the program
// is built.
func (s *Session) buildAndRun(ctx context.Context, prog *cellprep.Program, h *Handlers) *Result {
	var budget gobuild.Budget
	if c := s.opts.Compiler; c.budget > 0 {
		if s.builds == nil {
			s.builds = newBuildAccount(c.budget, c.window)
		}
		budget = s.builds
	}
	type started struct {
		l   *launched
		err error
	}
	sc := make(chan started, 1)
	go func() {
		// Starting a process waits for its exec: not on the build's path.
		l, err := s.launch(prog.UsesData)
		sc <- started{l, err}
	}()
	bin, err := s.opts.Compiler.build(ctx, prog, budget)
	st := <-sc
	if err != nil {
		if st.l != nil {
			st.l.abandon()
		}
		return buildFailure(ctx, err)
	}
	if st.err != nil {
		return failed(wire.ClassSandboxError, st.err.Error())
	}
	return s.runLaunched(ctx, st.l, bin.Path, h)
}

// buildFailure words a failed build as the cell's result.
func buildFailure(ctx context.Context, err error) *Result {
	var ce *gobuild.CompileError
	var le *gobuild.LimitError
	var be *BuildBudgetError
	switch {
	case ctx.Err() != nil:
		return failed(wire.ClassInterrupted, "the cell was interrupted while it was being built")
	case errors.As(err, &ce):
		return failed(wire.ClassCompileError, ce.Error())
	case errors.As(err, &le):
		return failed(wire.ClassBuildError, le.Error())
	case errors.As(err, &be):
		return failed(wire.ClassBuildError, be.Error())
	}
	return failed(wire.ClassBuildError, "the compiled cell could not be built: "+err.Error())
}

// undefinedRE finds the interpreter's "undefined: name".
var undefinedRE = regexp.MustCompile(`undefined: ([\pL_][\pL\pN_]*)`)

// explainCompiledOnly adds, to an interpreted cell that failed on a name
// only a compiled cell declared, why the interpreter does not know it.
func (s *Session) explainCompiledOnly(res *Result) {
	if res.Success || res.ErrorName != wire.ClassCompileError {
		return
	}
	m := undefinedRE.FindStringSubmatch(res.ErrorMessage)
	if m == nil || !s.st.CompiledOnly(m[1]) {
		return
	}
	res.ErrorMessage += fmt.Sprintf(" (%s was declared by a compiled cell, and what compiled cells declare is carried into later compiled cells only: add %s to this cell, or declare %s in an interpreted one)", m[1], CompileDirective, m[1])
	res.Traceback = Traceback(res.ErrorName, res.ErrorMessage)
}
