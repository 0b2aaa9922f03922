package kernel

import (
	"fmt"
	"time"
)

// Error class names (ename) of the errors the kernel itself reports. An
// evaluator reports its own (CompileError, Timeout, ...); one that refuses
// a cell as too large should use ErrorCodeTooLarge so that the kernel
// leaves the cell out of its history.
const (
	ErrorKernel       = "KernelError"  // a request the kernel could not handle
	ErrorCodeTooLarge = "CodeTooLarge" // code over Config.MaxCodeBytes
	ErrorTimeout      = "Timeout"      // user_expressions past their shared deadline
	ErrorInterrupted  = "Interrupted"  // user_expressions stopped by an interrupt
)

// Defaults of the Config limits.
const (
	// DefaultMaxCodeBytes is the largest code accepted when
	// Config.MaxCodeBytes is zero; it matches the sandbox's default.
	DefaultMaxCodeBytes = 100 << 10
	// DefaultUserExpressionsTimeout bounds all the user_expressions of
	// one execute_request together when Config.UserExpressionsTimeout is
	// zero.
	DefaultUserExpressionsTimeout = 10 * time.Second
	// DefaultReplayWindow is Config.ReplayWindow's default.
	DefaultReplayWindow = 10 * time.Minute
)

// maxUserExpressions bounds the number of user_expressions of a request.
const maxUserExpressions = 64

func (c Config) maxCodeBytes() int {
	if c.MaxCodeBytes <= 0 {
		return DefaultMaxCodeBytes
	}
	return c.MaxCodeBytes
}

func (c Config) userExpressionsTimeout() time.Duration {
	if c.UserExpressionsTimeout <= 0 {
		return DefaultUserExpressionsTimeout
	}
	return c.UserExpressionsTimeout
}

func (c Config) replayWindow() time.Duration {
	if c.ReplayWindow <= 0 {
		return DefaultReplayWindow
	}
	return c.ReplayWindow
}

// codeTooLarge returns the error for code of n bytes (what names the
// code, e.g. "the cell") over limit, or nil when it fits.
func codeTooLarge(what string, n, limit int) *ExecError {
	if n <= limit {
		return nil
	}
	v := fmt.Sprintf("%s is %d bytes; the limit is %d bytes (the kernel's --max-code-bytes): split it into smaller cells, and load data with award_data rather than pasting it", what, n, limit)
	return newExecError(ErrorCodeTooLarge, v)
}
