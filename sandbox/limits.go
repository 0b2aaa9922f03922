package sandbox

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"
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

// DefaultLimits returns the limits used when none are configured: 100 KB of
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
// Sizes accept a plain byte count or a KB/KiB/MB/MiB/GB/GiB suffix.
func (l *Limits) RegisterFlags(fs *flag.FlagSet) {
	fs.Var((*sizeFlag)(&l.MaxCodeBytes), "max-code-bytes", "largest cell accepted (bytes, or with a KB/KiB/MB/MiB suffix)")
	fs.Var((*sizeFlag)(&l.MaxOutputBytes), "max-output-bytes", "stdout+stderr kept per cell; later output is dropped")
	fs.DurationVar(&l.CellTimeout, "cell-timeout", l.CellTimeout, "wall-clock limit per cell")
	fs.DurationVar(&l.KillGrace, "kill-grace", l.KillGrace, "time an interrupted cell gets to stop before its worker is killed")
	fs.Var((*size64Flag)(&l.HeapBytes), "heap-limit", "heap budget of a session (bytes, or with a MiB/GiB suffix)")
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

// cpuSeconds is the worker's lifetime CPU-time backstop (RLIMIT_CPU); the
// supervisor's wall-clock timeout is the real per-cell limit.
const cpuSeconds = 3600

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

// formatBytes renders n the way limits are quoted to users: "1 MiB",
// "100 KB", "1536 bytes".
func formatBytes(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	case n >= 1000 && n%1000 == 0:
		return fmt.Sprintf("%d KB", n/1000)
	}
	return fmt.Sprintf("%d bytes", n)
}

// parseSize parses "1048576", "100KB", "1MiB", "2 GiB".
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	units := []struct {
		suffix string
		mult   int64
	}{
		{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30},
		{"KB", 1000}, {"MB", 1000 * 1000}, {"GB", 1000 * 1000 * 1000},
		{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"B", 1},
	}
	mult := int64(1)
	for _, u := range units {
		if strings.HasSuffix(strings.ToUpper(t), strings.ToUpper(u.suffix)) {
			t = strings.TrimSpace(t[:len(t)-len(u.suffix)])
			mult = u.mult
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("invalid size %q: use a byte count such as 1048576 or 1MiB", s)
	}
	if n > (1<<62)/mult {
		return 0, fmt.Errorf("invalid size %q: too large", s)
	}
	return n * mult, nil
}

type sizeFlag int

func (f *sizeFlag) String() string { return strconv.Itoa(int(*f)) }
func (f *sizeFlag) Set(s string) error {
	n, err := parseSize(s)
	if err != nil {
		return err
	}
	if int64(int(n)) != n {
		return fmt.Errorf("invalid size %q: too large", s)
	}
	*f = sizeFlag(n)
	return nil
}

type size64Flag int64

func (f *size64Flag) String() string { return strconv.FormatInt(int64(*f), 10) }
func (f *size64Flag) Set(s string) error {
	n, err := parseSize(s)
	if err != nil {
		return err
	}
	*f = size64Flag(n)
	return nil
}
