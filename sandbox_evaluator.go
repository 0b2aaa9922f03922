package main

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/sbirtools/sbir-kernel/kernel"
	"github.com/sbirtools/sbir-kernel/sandbox"
)

// sandboxEvaluator adapts a sandbox.Session to kernel.Evaluator. The session
// (a worker process) starts in the background so that kernel_info is answered
// at once; the first request that needs it waits for it.
type sandboxEvaluator struct {
	ready chan struct{} // closed when sess/err are set
	sess  *sandbox.Session
	err   error
}

var _ kernel.Evaluator = (*sandboxEvaluator)(nil)

// probeIsolation starts sandbox.DetectIsolation at once and returns what
// waits for its answer. Started before the data is located, its probe
// process is forked while this process is small and runs alongside a
// conversion; forked after one, it copied the page tables of ~400 MB of
// freed column memory.
func probeIsolation() (wait func() *sandbox.Isolation) {
	ch := make(chan sandbox.Isolation, 1)
	go func() { ch <- sandbox.DetectIsolation() }()
	return sync.OnceValue(func() *sandbox.Isolation {
		iso := <-ch
		return &iso
	})
}

// startSandboxEvaluator starts the session in the background, with the
// isolation the probe started by probeIsolation finds and the compiler
// startCompiler sets up.
func startSandboxEvaluator(ctx context.Context, isolation func() *sandbox.Isolation, compiler func() (*sandbox.Compiler, string), opts sandbox.Options) *sandboxEvaluator {
	e := &sandboxEvaluator{ready: make(chan struct{})}
	go func() {
		defer close(e.ready)
		// Waited for here, not by the caller: the kernel serves its
		// sockets while the probe and the worker start.
		opts.Isolation = isolation()
		opts.Compiler, opts.CompileOff = compiler()
		e.sess, e.err = sandbox.NewSession(context.WithoutCancel(ctx), opts)
		if e.err != nil {
			opts.Logger.Error("sandbox did not start", "err", e.err)
		}
	}()
	return e
}

func (e *sandboxEvaluator) session(ctx context.Context) (*sandbox.Session, error) {
	select {
	case <-e.ready:
		if e.err != nil {
			return nil, fmt.Errorf("the sandbox could not start: %w", e.err)
		}
		return e.sess, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (e *sandboxEvaluator) Execute(ctx context.Context, code string, out kernel.Output) kernel.ExecuteResult {
	sess, err := e.session(ctx)
	if err != nil {
		return sandboxFailure(err)
	}
	res, err := sess.Run(ctx, code, &sandbox.Handlers{
		Stream:     out.Stream,
		StreamOnly: true,
		Display: func(d sandbox.Display) {
			out.Display(kernel.DisplayData{Data: d.Data, Metadata: d.Metadata, DisplayID: d.DisplayID, Update: d.Update})
		},
		Clear: out.ClearOutput,
		Input: func(prompt string, password bool) (string, error) {
			s, err := out.Input(ctx, prompt, password)
			if errors.Is(err, kernel.ErrStdinNotAllowed) {
				return "", fmt.Errorf("%w; pass values to the notebook as variables instead", err)
			}
			return s, err
		},
	})
	if err != nil {
		return sandboxFailure(err)
	}
	var r kernel.ExecuteResult
	if res.Value != nil {
		r.Value = &kernel.DisplayData{Data: res.Value}
	}
	var ce *sandbox.CellError
	if errors.As(res.Err(), &ce) {
		r.Err = &kernel.ExecError{Name: ce.Class, Value: ce.Message, Traceback: ce.Traceback}
	}
	return r
}

// sandboxFailure is the result of a cell the sandbox could not run at all
// (it did not start, or no worker can be started).
func sandboxFailure(err error) kernel.ExecuteResult {
	msg := err.Error()
	return kernel.ExecuteResult{Err: &kernel.ExecError{
		Name: sandbox.ClassSandboxError, Value: msg, Traceback: sandbox.Traceback(sandbox.ClassSandboxError, msg),
	}}
}

func (e *sandboxEvaluator) Complete(ctx context.Context, code string, cursor int) (kernel.Completion, error) {
	sess, err := e.session(ctx)
	if err != nil {
		return kernel.Completion{}, err
	}
	c, err := sess.Complete(ctx, code, cursor)
	if err != nil {
		return kernel.Completion{}, err
	}
	return kernel.Completion{Matches: c.Matches, CursorStart: c.Start, CursorEnd: c.End}, nil
}

func (e *sandboxEvaluator) Inspect(ctx context.Context, code string, cursor, detailLevel int) (kernel.Inspection, error) {
	sess, err := e.session(ctx)
	if err != nil {
		return kernel.Inspection{}, err
	}
	in, err := sess.Inspect(ctx, code, cursor, detailLevel)
	if err != nil {
		return kernel.Inspection{}, err
	}
	return kernel.Inspection{Found: in.Found, Data: in.Data}, nil
}

func (e *sandboxEvaluator) IsComplete(code string) (status, indent string) {
	return sandbox.IsComplete(code)
}

func (e *sandboxEvaluator) Close() error {
	<-e.ready
	if e.sess == nil {
		return nil
	}
	return e.sess.Close()
}
