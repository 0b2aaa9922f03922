package dataset

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Formatting helpers for progress lines, reports and errors.

// progressPrinter returns a ConvertOptions.Progress function printing a
// line to w at most every interval (and at the end).
func progressPrinter(w io.Writer, what string, interval time.Duration) func(read, total int64) {
	start := time.Now()
	last := start
	return func(read, total int64) {
		now := time.Now()
		done := total > 0 && read >= total
		if !done && now.Sub(last) < interval {
			return
		}
		last = now
		if total > 0 {
			fmt.Fprintf(w, "%s: %d%% (%s of %s)\n", what, read*100/total, formatBytes(read), formatBytes(total))
		} else {
			fmt.Fprintf(w, "%s: %s\n", what, formatBytes(read))
		}
	}
}

// formatBytes formats n as "394.1 MB".
func formatBytes(n int64) string {
	switch {
	case n >= 1e9:
		return strconv.FormatFloat(float64(n)/1e9, 'f', 2, 64) + " GB"
	case n >= 1e6:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + " MB"
	case n >= 1e3:
		return strconv.FormatFloat(float64(n)/1e3, 'f', 1, 64) + " kB"
	}
	return strconv.FormatInt(n, 10) + " B"
}

// groupDigits formats n with thousands separators: 219500 → "219,500".
func groupDigits(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// truncate shortens valid UTF-8 text to at most n runes, marking the cut.
func truncate(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i] + "…"
		}
		n--
	}
	return s
}
