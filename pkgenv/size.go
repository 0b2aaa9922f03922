package pkgenv

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseSize parses a size such as "2GB", "500 MB", "1.5G", "64KiB" or
// "1048576". Units are powers of 1024 whether or not they are spelled
// with an i (KB = KiB = 1024 bytes), matching FormatSize; a bare number
// is bytes.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	num, unit := t[:i], strings.ToUpper(strings.TrimSpace(t[i:]))
	if num == "" {
		return 0, fmt.Errorf("invalid size %q: want a number with an optional unit, e.g. 2GB or 500MB", s)
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, fmt.Errorf("invalid size %q: want a number with an optional unit, e.g. 2GB or 500MB", s)
	}
	unit = strings.TrimSuffix(strings.TrimSuffix(unit, "B"), "I")
	shift := map[string]uint{"": 0, "K": 10, "M": 20, "G": 30, "T": 40}
	sh, ok := shift[unit]
	if !ok || (unit == "" && strings.HasSuffix(strings.ToUpper(t), "IB")) {
		return 0, fmt.Errorf("invalid size %q: unknown unit; use B, KB, MB, GB or TB", s)
	}
	v := f * float64(uint64(1)<<sh)
	if v >= math.MaxInt64 {
		return 0, fmt.Errorf("invalid size %q: too large", s)
	}
	return int64(v), nil
}

// FormatSize formats a byte count the way the cache reports sizes:
// "512 B", "1.5 KB", "200.0 MB", "2.0 GB" (powers of 1024).
func FormatSize(n int64) string { return formatSize(n) }

func formatSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %cB", float64(n)/float64(div), "KMGTP"[exp])
}
