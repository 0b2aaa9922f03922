// Package outcap holds a cell's output caps and the notes that say what a
// cap dropped, so that an interpreted cell (whose worker enforces them)
// and a compiled one (whose supervisor does) are bounded and told alike.
package outcap

import (
	"strconv"
	"unicode/utf8"

	"github.com/sbirtools/sbir-kernel/internal/bytesize"
)

// Display budget: every display a cell makes is charged the JSON size of
// its data and metadata, its display id (which the kernel sends in every
// display and update message) and DisplayOverhead (the Jupyter message
// the kernel wraps it in), so that many tiny displays are bounded too. A
// clear is a display without data: each becomes a clear_output message.
const (
	MaxDisplayBytes = 16 << 20
	DisplayOverhead = 512
)

// TruncationLine is added once when a cell's output exceeds the cap: it
// says how much was dropped.
func TruncationLine(limit, dropped, writes int) string {
	s := "... [output truncated at " + bytesize.Exact(int64(limit)) + "; dropped " + count(dropped, "byte")
	if writes > 1 {
		s += " from " + count(writes, "write")
	}
	return s + "]\n"
}

// DisplayDropLine says which displays the budget refused.
func DisplayDropLine(n, size int) string {
	return "... [" + count(n, "display") + " dropped (about " + bytesize.Approx(int64(size)) + "): the cell's displays exceeded " + bytesize.Exact(MaxDisplayBytes) + "]\n"
}

// count formats n with thousands separators and the noun, pluralised.
func count(n int, noun string) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if n != 1 {
		noun += "s"
	}
	return s + " " + noun
}

// A Budget charges one cell's output against the caps: Limit bytes of
// stdout and stderr together, MaxDisplayBytes of displays. Not safe for
// concurrent use.
type Budget struct {
	Limit int

	total     int
	truncated bool
	overflow  string // the stream that hit the cap
	dropped   int
	writes    int // writes that lost bytes

	displayed    int
	dispDropped  int
	dispDropSize int
}

// Text charges a write to stream name and returns what of it may be
// shown: all of it, a prefix ending on a character boundary, or nothing.
func (b *Budget) Text(name string, p []byte) []byte {
	if !b.truncated && b.total+len(p) <= b.Limit {
		b.total += len(p)
		return p
	}
	keep := 0
	if !b.truncated {
		keep = b.Limit - b.total
		for keep > 0 && keep < len(p) && !utf8.RuneStart(p[keep]) {
			keep-- // never split a character
		}
		b.truncated, b.overflow = true, name
	}
	b.dropped += len(p) - keep
	b.writes++
	b.total += keep
	return p[:keep]
}

// Display charges a display of size bytes (DisplayOverhead included) and
// reports whether it may be shown. Once one is refused, all later ones
// are.
func (b *Budget) Display(size int) bool {
	if b.dispDropped > 0 || b.displayed+size > MaxDisplayBytes {
		b.dispDropped++
		b.dispDropSize += size
		return false
	}
	b.displayed += size
	return true
}

// A Note is a line to add to a stream at the cell's end.
type Note struct{ Stream, Text string }

// Notes returns what the cell's end adds to say what was dropped, and
// whether anything was.
func (b *Budget) Notes() (notes []Note, truncated bool) {
	if b.truncated {
		notes = append(notes, Note{b.overflow, TruncationLine(b.Limit, b.dropped, b.writes)})
	}
	if b.dispDropped > 0 {
		notes = append(notes, Note{"stderr", DisplayDropLine(b.dispDropped, b.dispDropSize)})
	}
	return notes, b.truncated || b.dispDropped > 0
}
