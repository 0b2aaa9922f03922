package columnar

import "regexp/syntax"

// SelectRows returns the rows of f (in order) for which keep is true.
func SelectRows(s Sel, keep func(i int) bool) []int32 {
	n := s.Len()
	out := make([]int32, 0, min(n, 1024))
	if s.All {
		for i := 0; i < n; i++ {
			if keep(i) {
				out = append(out, int32(i))
			}
		}
		return out
	}
	for _, i := range s.Rows() {
		if keep(int(i)) {
			out = append(out, i)
		}
	}
	return out
}

// MatchRows keeps the rows whose text satisfies pred (a compiled
// regexp's Match, safe for concurrent use), splitting large inputs
// across processors: a regular expression costs microseconds per row.
func MatchRows(s Sel, c *Vector, pred func([]byte) bool) []int32 {
	rows := s.Rows()
	parts := make([][]int32, MaxParts())
	used := Parts(len(rows), func(part, lo, hi int) {
		var out []int32
		for _, i := range rows[lo:hi] {
			if !c.IsNull(int(i)) && pred(c.TextBytes(int(i))) {
				out = append(out, i)
			}
		}
		parts[part] = out
	})
	out := make([]int32, 0)
	for p := 0; p < used; p++ {
		out = append(out, parts[p]...)
	}
	return out
}

// RequiredLiteral returns a literal that every match of the regular
// expression contains (the longest one found), and whether it is to be
// matched ignoring case; "" when there is none (e.g. an alternation).
func RequiredLiteral(pattern string) (string, bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", false
	}
	var walk func(re *syntax.Regexp) (string, bool)
	walk = func(re *syntax.Regexp) (string, bool) {
		switch re.Op {
		case syntax.OpLiteral:
			return string(re.Rune), re.Flags&syntax.FoldCase != 0
		case syntax.OpCapture, syntax.OpPlus:
			return walk(re.Sub[0])
		case syntax.OpRepeat:
			if re.Min >= 1 {
				return walk(re.Sub[0])
			}
		case syntax.OpConcat:
			best, bestFold := "", false
			for _, sub := range re.Sub {
				if lit, fold := walk(sub); len(lit) > len(best) {
					best, bestFold = lit, fold
				}
			}
			return best, bestFold
		}
		return "", false
	}
	return walk(re)
}

// SubtractRows returns the rows of a that are not in b; both are in the
// same order (b is a subsequence of a).
func SubtractRows(a, b []int32) []int32 {
	out := make([]int32, 0, len(a)-len(b))
	j := 0
	for _, r := range a {
		if j < len(b) && b[j] == r {
			j++
			continue
		}
		out = append(out, r)
	}
	return out
}

// FilterCodes keeps the non-null rows whose dictionary code is marked.
// The loops are branch-free: every row is written and the output index
// advances only on a match.
func FilterCodes(s Sel, c *Vector, match []bool) []int32 {
	if c.Valid != nil {
		codes := c.Codes
		return SelectRows(s, func(i int) bool { return !c.IsNull(i) && match[codes[i]] })
	}
	hit := make([]int32, len(match))
	for k, m := range match {
		if m {
			hit[k] = 1
		}
	}
	codes := c.Codes
	// Count, then fill a result of the exact size (less garbage).
	n := 0
	if s.All {
		codes = codes[:s.N]
		for _, k := range codes {
			n += int(hit[k])
		}
		out := make([]int32, n+1) // +1: the fill loop writes one past the last match
		j := 0
		for i, k := range codes {
			out[j] = int32(i)
			j += int(hit[k])
			if j == n {
				break
			}
		}
		return out[:n:n]
	}
	rows := s.Rows()
	for _, i := range rows {
		n += int(hit[codes[i]])
	}
	out := make([]int32, n+1)
	j := 0
	for _, i := range rows {
		out[j] = i
		j += int(hit[codes[i]])
		if j == n {
			break
		}
	}
	return out[:n:n]
}

// IntRange keeps the non-null rows with lo ≤ value ≤ hi (the hot path of
// year filters), branch-free like filterCodes.
func IntRange(s Sel, c *Vector, lo, hi int64) []int32 {
	vals := c.Ints
	if c.Valid != nil {
		return SelectRows(s, func(i int) bool { x := vals[i]; return x >= lo && x <= hi && !c.IsNull(i) })
	}
	// x in [lo, hi] ⇔ uint64(x-lo) ≤ uint64(hi-lo), one comparison.
	span := uint64(hi) - uint64(lo)
	if s.All {
		// Count first so that the result is allocated at its size: a
		// year filter keeps a fraction of 219,500 rows, and a smaller
		// allocation is less garbage to collect.
		vals = vals[:s.N]
		n := 0
		for _, x := range vals {
			n += B2I(uint64(x)-uint64(lo) <= span)
		}
		out := make([]int32, n+1) // +1: the branch-free loop writes one past the last match
		j := 0
		for i, x := range vals {
			out[j] = int32(i)
			j += B2I(uint64(x)-uint64(lo) <= span)
			if j == n {
				break
			}
		}
		return out[:n:n]
	}
	n := 0
	rows := s.Rows()
	for _, i := range rows {
		n += B2I(uint64(vals[i])-uint64(lo) <= span)
	}
	out := make([]int32, n+1)
	j := 0
	for _, i := range rows {
		out[j] = i
		j += B2I(uint64(vals[i])-uint64(lo) <= span)
		if j == n {
			break
		}
	}
	return out[:n:n]
}
