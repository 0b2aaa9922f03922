package sandbox

import (
	"flag"
	"fmt"
	"strconv"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/bytesize"
)

// Limits bounds what one cell, and one session, may consume.
type Limits struct {
	// MaxCodeBytes is the largest cell accepted, in bytes.
	MaxCodeBytes int
	// MaxOutputBytes caps stdout+stderr per cell; later output is dropped
	// and one truncation line is added.
	MaxOutputBytes int
	// CellTimeout is the wall-clock budget of one cell.
	CellTimeout time.Duration
	// KillGrace is how long an interrupted cell may take to stop before the
	// worker is killed.
	KillGrace time.Duration
	// HeapBytes is the session's heap budget, enforced by a watchdog in the
	// worker; RLIMIT_AS and RLIMIT_CPU backstops are derived from it and
	// from CellTimeout.
	HeapBytes int64
}

// DefaultLimits returns the limits used when none are configured: 100 KiB of
// code, 1 MiB of output, 30 s per cell, 2 s of grace and a 1 GiB heap.
func DefaultLimits() Limits {
	return Limits{
		MaxCodeBytes:   100 << 10,
		MaxOutputBytes: 1 << 20,
		CellTimeout:    30 * time.Second,
		KillGrace:      2 * time.Second,
		HeapBytes:      1 << 30,
	}
}

// RegisterFlags defines --max-code-bytes, --max-output-bytes, --cell-timeout,
// --kill-grace and --heap-limit on fs, with l's current values as defaults.
// Sizes are read by bytesize.Parse: a byte count, or KB (1000), KiB (1024), ...
func (l *Limits) RegisterFlags(fs *flag.FlagSet) {
	fs.Var((*bytesize.IntValue)(&l.MaxCodeBytes), "max-code-bytes", "largest cell accepted (bytes, or with a unit: KB = 1000 bytes, KiB = 1024 bytes, MB, MiB, ...)")
	fs.Var((*bytesize.IntValue)(&l.MaxOutputBytes), "max-output-bytes", "stdout+stderr kept per cell; later output is dropped")
	fs.DurationVar(&l.CellTimeout, "cell-timeout", l.CellTimeout, "wall-clock limit per cell")
	fs.DurationVar(&l.KillGrace, "kill-grace", l.KillGrace, "time an interrupted cell gets to stop before its worker is killed")
	fs.Var((*bytesize.Value)(&l.HeapBytes), "heap-limit", "heap budget of a session (bytes, or with a unit: GB = 10^9 bytes, GiB = 2^30 bytes, ...)")
}

// Args returns the flags that reproduce l, for a kernel.json argv.
func (l Limits) Args() []string {
	return []string{
		"--max-code-bytes=" + strconv.Itoa(l.MaxCodeBytes),
		"--max-output-bytes=" + strconv.Itoa(l.MaxOutputBytes),
		"--cell-timeout=" + l.CellTimeout.String(),
		"--kill-grace=" + l.KillGrace.String(),
		"--heap-limit=" + strconv.FormatInt(l.HeapBytes, 10),
	}
}

// validate reports the first limit that cannot work.
func (l Limits) validate() error {
	switch {
	case l.MaxCodeBytes <= 0:
		return fmt.Errorf("sandbox: MaxCodeBytes must be positive, got %d", l.MaxCodeBytes)
	case l.MaxOutputBytes <= 0:
		return fmt.Errorf("sandbox: MaxOutputBytes must be positive, got %d", l.MaxOutputBytes)
	case l.CellTimeout <= 0:
		return fmt.Errorf("sandbox: CellTimeout must be positive, got %v", l.CellTimeout)
	case l.KillGrace <= 0:
		return fmt.Errorf("sandbox: KillGrace must be positive, got %v", l.KillGrace)
	case l.HeapBytes < 16<<20:
		return fmt.Errorf("sandbox: HeapBytes must be at least 16 MiB, got %d", l.HeapBytes)
	}
	return nil
}
