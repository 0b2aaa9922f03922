// Package bytesize parses and formats byte counts for every flag and
// message of sbir-kernel, so that a limit reads the same wherever it is
// shown. SI units are powers of 1000 (KB, MB, GB, TB) and IEC units powers
// of 1024 (KiB, MiB, GiB, TiB), as the flag documentation says; a bare
// number is bytes. The one-letter forms (K, M, G) are refused because
// people mean either.
package bytesize

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ErrSyntax is wrapped by every error Parse returns.
var ErrSyntax = errors.New("invalid size")

var units = []struct {
	name string
	size int64
}{
	{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10},
	{"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3},
	{"B", 1}, {"bytes", 1}, {"byte", 1},
}

// Parse reads a size such as "1048576", "64KiB", "1.5 GB" or "500MB".
// Unit names are case-insensitive ("kb" is KB).
func Parse(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	num, unit := t[:i], strings.TrimSpace(t[i:])
	if num == "" {
		return 0, fmt.Errorf("%w %q: want a number with an optional unit, such as 1048576, 64KiB or 2GB", ErrSyntax, s)
	}
	mult := int64(1)
	if unit != "" {
		found := false
		for _, u := range units {
			if strings.EqualFold(unit, u.name) {
				mult, found = u.size, true
				break
			}
		}
		if !found {
			switch strings.ToUpper(unit) {
			case "K", "M", "G", "T":
				up := strings.ToUpper(unit)
				return 0, fmt.Errorf("%w %q: the unit %s is ambiguous; write %sB (powers of 1000) or %siB (powers of 1024)", ErrSyntax, s, unit, up, up)
			}
			return 0, fmt.Errorf("%w %q: unknown unit %q; use B, KB, MB, GB, TB, KiB, MiB, GiB or TiB", ErrSyntax, s, unit)
		}
	}
	if !strings.Contains(num, ".") {
		n, err := strconv.ParseInt(num, 10, 64)
		if err != nil || n > math.MaxInt64/mult {
			return 0, fmt.Errorf("%w %q: too large", ErrSyntax, s)
		}
		return n * mult, nil
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, fmt.Errorf("%w %q: %q is not a number", ErrSyntax, s, num)
	}
	v := math.Round(f * float64(mult))
	if v >= math.MaxInt64 {
		return 0, fmt.Errorf("%w %q: too large", ErrSyntax, s)
	}
	return int64(v), nil
}

// Exact formats n with the largest unit that divides it, IEC units first,
// so that Parse(Exact(n)) == n: 1048576 → "1 MiB", 100000 → "100 KB",
// 1500 → "1500 bytes".
func Exact(n int64) string {
	if n > 0 {
		for _, u := range units {
			if u.size == 1 {
				break
			}
			if n >= u.size && n%u.size == 0 {
				return strconv.FormatInt(n/u.size, 10) + " " + u.name
			}
		}
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// Approx formats n for people, in SI units with one decimal: "394.1 MB".
// Use it for sizes of files and downloads, Exact for limits.
func Approx(n int64) string {
	switch {
	case n >= 1e12:
		return strconv.FormatFloat(float64(n)/1e12, 'f', 2, 64) + " TB"
	case n >= 1e9:
		return strconv.FormatFloat(float64(n)/1e9, 'f', 2, 64) + " GB"
	case n >= 1e6:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + " MB"
	case n >= 1e3:
		return strconv.FormatFloat(float64(n)/1e3, 'f', 1, 64) + " KB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// ApproxIEC formats n for people in IEC units with one decimal, "270.3
// MiB": for a size shown next to a limit written in IEC units (Exact of
// a power of two), so that the two compare at a glance.
func ApproxIEC(n int64) string {
	for _, u := range units[:4] {
		if n >= u.size {
			return strconv.FormatFloat(float64(n)/float64(u.size), 'f', 1, 64) + " " + u.name
		}
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// Value is a flag.Value holding a byte count written as Parse reads it.
type Value int64

// String returns the value as Exact formats it.
func (v *Value) String() string {
	if v == nil {
		return ""
	}
	return Exact(int64(*v))
}

// Set parses s with Parse.
func (v *Value) Set(s string) error {
	n, err := Parse(s)
	if err != nil {
		return err
	}
	*v = Value(n)
	return nil
}

// IntValue is a flag.Value for an int limit, written as Parse reads it.
type IntValue int

// String returns the value as Exact formats it.
func (v *IntValue) String() string {
	if v == nil {
		return ""
	}
	return Exact(int64(*v))
}

// Set parses s with Parse and refuses sizes that do not fit an int.
func (v *IntValue) Set(s string) error {
	n, err := Parse(s)
	if err != nil {
		return err
	}
	if int64(int(n)) != n {
		return fmt.Errorf("%w %q: too large", ErrSyntax, s)
	}
	*v = IntValue(n)
	return nil
}
