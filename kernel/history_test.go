package kernel

import "testing"

func TestGlobRegexp(t *testing.T) {
	tests := []struct {
		pattern, input string
		want           bool
	}{
		{"", "anything", true},
		{"*", "", true},
		{"a*", "abc", true},
		{"a*", "xabc", false},
		{"*b*", "a\nb\nc", true},
		{"a?c", "abc", true},
		{"a?c", "ac", false},
		{"[ab]x", "bx", true},
		{"[ab]x", "cx", false},
		{"[^ab]x", "cx", true},
		{"[a-c]", "b", true},
		{"[]]", "]", true},
		{"a.b", "a.b", true},
		{"a.b", "axb", false},
		{"(x)+", "(x)+", true},
		{"[unclosed", "[unclosed", true},
		{"A*", "abc", false},
		{"é?", "éa", true},
	}
	for _, tt := range tests {
		re, err := globRegexp(tt.pattern)
		if err != nil {
			t.Errorf("globRegexp(%q): %v", tt.pattern, err)
			continue
		}
		if got := re.MatchString(tt.input); got != tt.want {
			t.Errorf("glob %q on %q = %v, want %v", tt.pattern, tt.input, got, tt.want)
		}
	}
}

func TestHistoryQuery(t *testing.T) {
	var h history
	for i, in := range []string{"a", "b", "a", "c"} {
		h.add(i+1, in, "", false)
	}
	lines := func(es []historyEntry) (out []int) {
		for _, e := range es {
			out = append(out, e.line)
		}
		return out
	}
	tests := []struct {
		name string
		req  historyRequest
		want []int
	}{
		{"tail", historyRequest{HistAccessType: "tail", N: 2}, []int{3, 4}},
		{"tail more than all", historyRequest{HistAccessType: "tail", N: 100}, []int{1, 2, 3, 4}},
		{"tail zero", historyRequest{HistAccessType: "tail"}, nil},
		{"range", historyRequest{HistAccessType: "range", Start: 2, Stop: 4}, []int{2, 3}},
		{"range to end", historyRequest{HistAccessType: "range", Start: 3}, []int{3, 4}},
		{"range session 1", historyRequest{HistAccessType: "range", Session: 1, Start: 1}, []int{1, 2, 3, 4}},
		{"range previous session", historyRequest{HistAccessType: "range", Session: -1, Start: 1}, nil},
		{"search", historyRequest{HistAccessType: "search", Pattern: "a"}, []int{1, 3}},
		{"search unique", historyRequest{HistAccessType: "search", Pattern: "*", Unique: true}, []int{2, 3, 4}},
		{"search n", historyRequest{HistAccessType: "search", Pattern: "*", N: 3}, []int{2, 3, 4}},
	}
	for _, tt := range tests {
		got, err := h.query(tt.req)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if g := lines(got); len(g) != len(tt.want) || (len(g) > 0 && !equalInts(g, tt.want)) {
			t.Errorf("%s: lines %v, want %v", tt.name, g, tt.want)
		}
	}
	if _, err := h.query(historyRequest{HistAccessType: "everything"}); err == nil {
		t.Error("unknown hist_access_type accepted")
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestHistoryBounds: the count bound holds for tiny cells, whose text
// never reaches the byte bound, and the newest entries are the ones kept.
func TestHistoryBounds(t *testing.T) {
	var h history
	const n = 3*maxHistoryEntries + 17
	for i := 1; i <= n; i++ {
		h.add(i, "1", "1", true)
		if len(h.entries) > maxHistoryEntries+maxHistoryEntries/8 {
			t.Fatalf("after %d cells: %d entries held, bound %d", i, len(h.entries), maxHistoryEntries+maxHistoryEntries/8)
		}
	}
	if len(h.entries) < maxHistoryEntries {
		t.Errorf("%d entries kept, want at least %d", len(h.entries), maxHistoryEntries)
	}
	last := h.entries[len(h.entries)-1]
	if last.line != n || h.entries[0].line != n-len(h.entries)+1 {
		t.Errorf("kept lines %d..%d, want the newest ending at %d", h.entries[0].line, last.line, n)
	}
	if h.bytes != 2*len(h.entries) {
		t.Errorf("bytes %d for %d entries of 2 bytes", h.bytes, len(h.entries))
	}

	// The byte bound still drops exactly what it must.
	var big history
	cell := string(make([]byte, 1<<20))
	for i := 1; i <= 20; i++ {
		big.add(i, cell, "", false)
	}
	if big.bytes > maxHistoryBytes || len(big.entries) != maxHistoryBytes>>20 {
		t.Errorf("1 MiB cells: %d held in %d bytes, want %d within %d", len(big.entries), big.bytes, maxHistoryBytes>>20, maxHistoryBytes)
	}
}
