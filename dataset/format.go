package dataset

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/bytesize"
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
			fmt.Fprintf(w, "%s: %d%% (%s of %s)\n", what, read*100/total, bytesize.Approx(read), bytesize.Approx(total))
		} else {
			fmt.Fprintf(w, "%s: %s\n", what, bytesize.Approx(read))
		}
	}
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
