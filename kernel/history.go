package kernel

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/textcut"
)

// historySession is the session number of this kernel's history entries.
// The kernel keeps no history across processes, so it is the only one.
const historySession = 1

// historyEntry is one cell run with store_history.
type historyEntry struct {
	line      int // execution count
	input     string
	output    string
	hasOutput bool
}

// History bounds: the kernel keeps the newest maxHistoryEntries cells (up
// to an eighth more between trims) that fit in maxHistoryBytes, each
// cell's output cut to maxHistoryOutputBytes, so a history_reply is
// bounded too. Cells refused as too large never enter. The count bounds
// what the byte bound misses: an entry costs ~64 bytes besides its text,
// so 100,000 cells of `1` held 6 MB for 200 bytes of text. Consoles ask
// for the last 1,000 (jupyter console's up-arrow).
const (
	maxHistoryEntries     = 10000
	maxHistoryBytes       = 16 << 20
	maxHistoryOutputBytes = 64 << 10
	// maxHistoryPattern bounds a search pattern: matching costs the
	// history's size times the pattern's (a 4 KiB "*a*a…" took 9 s per
	// 100 KiB cell), and patterns people type are a few words.
	maxHistoryPattern = 256
	// historySearchTime bounds the matching of one search; the pattern's
	// bound leaves up to 16 MiB × 256 steps, about a minute and a half.
	historySearchTime = 2 * time.Second
)

// history holds the cells of this kernel process, in order.
type history struct {
	mu      sync.Mutex
	entries []historyEntry
	bytes   int // of inputs and outputs held
}

func (h *history) add(line int, input, output string, hasOutput bool) {
	if len(output) > maxHistoryOutputBytes {
		output = textcut.Prefix(output, maxHistoryOutputBytes) + "…"
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.entries = append(h.entries, historyEntry{line, input, output, hasOutput})
	h.bytes += len(input) + len(output)
	if h.bytes <= maxHistoryBytes && len(h.entries) <= maxHistoryEntries+maxHistoryEntries/8 {
		return
	}
	// Past the count, an eighth is dropped at once: dropping one entry
	// per cell would move all the others every time.
	drop := 0
	for (h.bytes > maxHistoryBytes || len(h.entries)-drop > maxHistoryEntries) && drop < len(h.entries)-1 {
		h.bytes -= len(h.entries[drop].input) + len(h.entries[drop].output)
		drop++
	}
	if drop > 0 {
		h.entries = slices.Delete(h.entries, 0, drop)
	}
}

// historyRequest is the content of history_request.
type historyRequest struct {
	Output         bool   `json:"output"`
	Raw            bool   `json:"raw"`
	HistAccessType string `json:"hist_access_type"`
	Session        int    `json:"session"`
	Start          int    `json:"start"`
	Stop           int    `json:"stop"`
	N              int    `json:"n"`
	Pattern        string `json:"pattern"`
	Unique         bool   `json:"unique"`
}

// query returns the entries selected by req, oldest first.
//   - tail: the last n entries.
//   - range: entries of a session (0 or 1 for this one) with
//     start <= line < stop (stop 0: to the end).
//   - search: entries whose input matches the glob pattern (* ? [...],
//     case-sensitive, whole input), the last n when n > 0, only the last
//     of equal inputs when unique.
func (h *history) query(req historyRequest) ([]historyEntry, error) {
	h.mu.Lock()
	all := append([]historyEntry(nil), h.entries...)
	h.mu.Unlock()
	var sel []historyEntry
	switch req.HistAccessType {
	case "tail", "":
		if req.N <= 0 {
			return nil, nil
		}
		sel = all[max(len(all)-req.N, 0):]
	case "range":
		if req.Session != 0 && req.Session != historySession {
			return nil, nil
		}
		for _, e := range all {
			if e.line >= req.Start && (req.Stop <= 0 || e.line < req.Stop) {
				sel = append(sel, e)
			}
		}
	case "search":
		if len(req.Pattern) > maxHistoryPattern {
			return nil, fmt.Errorf("history: search pattern of %d bytes; the limit is %d: search with a shorter pattern", len(req.Pattern), maxHistoryPattern)
		}
		re, err := globRegexp(req.Pattern)
		if err != nil {
			return nil, err
		}
		if sel, err = searchEntries(all, re, time.Now().Add(historySearchTime)); err != nil {
			return nil, err
		}
		if req.Unique {
			sel = lastOfEachInput(sel)
		}
		if req.N > 0 && len(sel) > req.N {
			sel = sel[len(sel)-req.N:]
		}
	default:
		return nil, &unknownAccessTypeError{req.HistAccessType}
	}
	return sel, nil
}

// searchEntries returns the entries whose input re matches, failing once
// deadline passes (checked between entries: one costs at most 100 KiB
// times the pattern's bound).
func searchEntries(all []historyEntry, re *regexp.Regexp, deadline time.Time) ([]historyEntry, error) {
	var sel []historyEntry
	for i, e := range all {
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("history: search stopped after %d of %d cells: over its time limit of %s: search with a simpler pattern (fewer * and ?)", i, len(all), historySearchTime)
		}
		if re.MatchString(e.input) {
			sel = append(sel, e)
		}
	}
	return sel, nil
}

type unknownAccessTypeError struct{ typ string }

func (e *unknownAccessTypeError) Error() string {
	return "history: unknown hist_access_type " + `"` + e.typ + `"` + " (use tail, range or search)"
}

// lastOfEachInput keeps, for each distinct input, only its last entry.
func lastOfEachInput(es []historyEntry) []historyEntry {
	last := make(map[string]int, len(es))
	for i, e := range es {
		last[e.input] = i
	}
	out := es[:0:0]
	for i, e := range es {
		if last[e.input] == i {
			out = append(out, e)
		}
	}
	return out
}

// globRegexp compiles a SQLite GLOB pattern (what IPython's history
// search uses): * any run, ? one character, [abc], [a-z], [^abc]; the
// whole input must match. An empty pattern matches everything.
func globRegexp(pattern string) (*regexp.Regexp, error) {
	if pattern == "" {
		pattern = "*"
	}
	var b strings.Builder
	b.WriteString(`(?s)\A`)
	rs := []rune(pattern)
	for i := 0; i < len(rs); i++ {
		switch c := rs[i]; c {
		case '*':
			b.WriteString(`.*`)
		case '?':
			b.WriteString(`.`)
		case '[':
			j := i + 1
			if j < len(rs) && rs[j] == '^' {
				j++
			}
			if j < len(rs) && rs[j] == ']' {
				j++
			}
			for j < len(rs) && rs[j] != ']' {
				j++
			}
			if j >= len(rs) {
				b.WriteString(`\[`)
				continue
			}
			class := rs[i+1 : j]
			b.WriteByte('[')
			for k, cr := range class {
				if k == 0 && cr == '^' {
					b.WriteByte('^')
					continue
				}
				if cr == '\\' || cr == '[' || (cr == ']' && k > 0) {
					b.WriteByte('\\')
				}
				b.WriteRune(cr)
			}
			b.WriteByte(']')
			i = j
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString(`\z`)
	return regexp.Compile(b.String())
}

// handleHistory answers history_request. Entries are [session, line,
// input], or [session, line, [input, output]] with output (null when the
// cell had no value).
func (s *server) handleHistory(r *request) error {
	var c historyRequest
	if err := decodeContent(r, &c); err != nil {
		return err
	}
	sel, err := s.hist.query(c)
	if err != nil {
		return err
	}
	items := make([]any, 0, len(sel))
	for _, e := range sel {
		if c.Output {
			var out any
			if e.hasOutput {
				out = e.output
			}
			items = append(items, []any{historySession, e.line, []any{e.input, out}})
		} else {
			items = append(items, []any{historySession, e.line, e.input})
		}
	}
	s.reply(r, msgHistoryReply, map[string]any{"status": "ok", "history": items})
	return nil
}
