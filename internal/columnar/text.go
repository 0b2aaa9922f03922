package columnar

import (
	"cmp"
	"errors"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// WordFreq is a word and how often it occurs.
type WordFreq struct {
	Word  string
	Count int64
}

// CountWords counts the words of a text or category column over the
// selected rows: a word is a run of letters and digits (Unicode), lower
// cased, as pandas' str.lower().str.findall(r"[^\W_]+") finds them. The
// result is most frequent first, ties alphabetically. Large selections
// are split across processors, each counting into a map of its own.
func CountWords(s Sel, c *Vector) []WordFreq {
	rows := s.Rows()
	parts := make([]map[string]int64, MaxParts())
	used := Parts(len(rows), func(part, lo, hi int) {
		m := make(map[string]int64)
		var buf []byte
		for _, r := range rows[lo:hi] {
			if c.IsNull(int(r)) {
				continue
			}
			buf = countWordsIn(m, textOf(c, int(r)), buf)
		}
		parts[part] = m
	})
	total := parts[0]
	for p := 1; p < used; p++ {
		for w, n := range parts[p] {
			total[w] += n
		}
	}
	out := make([]WordFreq, 0, len(total))
	for w, n := range total {
		out = append(out, WordFreq{w, n})
	}
	slices.SortFunc(out, func(a, b WordFreq) int {
		if a.Count != b.Count {
			return cmp.Compare(b.Count, a.Count)
		}
		return strings.Compare(a.Word, b.Word)
	})
	return out
}

// textOf is the bytes of a text or category value (not null), shared.
func textOf(c *Vector, i int) []byte {
	if c.Kind == KindCategory {
		return []byte(c.Dict[c.Codes[i]])
	}
	return c.TextBytes(i)
}

// countWordsIn adds the words of text to m; buf is scratch space.
func countWordsIn(m map[string]int64, text, buf []byte) []byte {
	buf = buf[:0]
	flush := func() {
		if len(buf) > 0 {
			m[string(buf)]++ // the key is copied only when new
			buf = buf[:0]
		}
	}
	for i := 0; i < len(text); {
		b := text[i]
		if b < utf8.RuneSelf {
			switch {
			case 'a' <= b && b <= 'z', '0' <= b && b <= '9':
				buf = append(buf, b)
			case 'A' <= b && b <= 'Z':
				buf = append(buf, b+'a'-'A')
			default:
				flush()
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		if unicode.IsLetter(r) || unicode.IsNumber(r) {
			buf = utf8.AppendRune(buf, unicode.ToLower(r))
		} else {
			flush()
		}
		i += size
	}
	flush()
	return buf
}

// MapText applies fn to the text of a text or category column at rows
// (a null stays null). A category column stays one, its dictionary
// mapped (values that map alike merge).
func MapText(c *Vector, rows []int32, fn func(string) string) *Vector {
	n := len(rows)
	if c.Kind == KindCategory {
		out := &Vector{Name: c.Name, Kind: KindCategory, N: n, Codes: make([]int16, n)}
		remap := make([]int16, len(c.Dict))
		index := map[string]int16{}
		for k, v := range c.Dict {
			m := fn(v)
			code, ok := index[m]
			if !ok {
				code = int16(len(out.Dict))
				index[m] = code
				out.Dict = append(out.Dict, m)
			}
			remap[k] = code
		}
		for k, r := range rows {
			if c.IsNull(int(r)) {
				out.SetNull(k)
				continue
			}
			out.Codes[k] = remap[c.Codes[r]]
		}
		return out
	}
	if out, ok := MapDistinct(c.Name, c, rows, func(s string) (string, bool) { return fn(s), true }); ok {
		return out
	}
	vals := make([]string, n)
	nulls := make([]bool, n)
	for k, r := range rows {
		if c.IsNull(int(r)) {
			nulls[k] = true
			continue
		}
		vals[k] = fn(c.View(int(r)))
	}
	return textWithNulls(c.Name, vals, nulls)
}

// textWithNulls builds a text column; nulls[k] marks a null ("" is null
// too, as everywhere in a text column).
func textWithNulls(name string, vals []string, nulls []bool) *Vector {
	out := TextVector(name, vals)
	for k, null := range nulls {
		if null {
			out.SetNull(k)
		}
	}
	return out
}

// Extract returns, for each row, the first match of re in the text of a
// text or category column: its first group when re has groups, else the
// whole match; null when there is no match (pandas' str.extract). Large
// selections are split across processors.
func Extract(name string, c *Vector, rows []int32, re *regexp.Regexp) *Vector {
	group := min(re.NumSubexp(), 1)
	match := func(s string) (string, bool) {
		m := re.FindStringSubmatchIndex(s)
		if m == nil || m[2*group] < 0 {
			return "", false
		}
		return s[m[2*group]:m[2*group+1]], true
	}
	if out, ok := MapDistinct(name, c, rows, match); ok {
		return out
	}
	vals := make([]string, len(rows))
	nulls := make([]bool, len(rows))
	Parts(len(rows), func(_, lo, hi int) {
		for k := lo; k < hi; k++ {
			r := int(rows[k])
			if c.IsNull(r) {
				nulls[k] = true
				continue
			}
			m := re.FindSubmatchIndex(textOf(c, r))
			if m == nil || m[2*group] < 0 {
				nulls[k] = true
				continue
			}
			vals[k] = string(textOf(c, r)[m[2*group]:m[2*group+1]])
		}
	})
	return textWithNulls(name, vals, nulls)
}

// ErrTooManyPieces reports a SplitText that would make more rows than
// its limit.
var ErrTooManyPieces = errors.New("too many pieces")

// SplitText splits the text of each row into pieces at sep (at runs of
// white space when sep is "", as Python's str.split()), for Explode: from
// says which position of rows each piece comes from, in order. A null, or
// a text with no pieces, gives one null piece. More than limit pieces is
// ErrTooManyPieces.
func SplitText(name string, c *Vector, rows []int32, sep string, limit int) (from []int32, pieces *Vector, err error) {
	var vals []string
	var nulls []bool
	for k, r := range rows {
		var parts []string
		if !c.IsNull(int(r)) {
			s := string(textOf(c, int(r)))
			if sep == "" {
				parts = strings.Fields(s)
			} else {
				parts = strings.Split(s, sep)
			}
		}
		if len(parts) == 0 {
			parts, nulls = []string{""}, append(nulls, true)
		} else {
			for range parts {
				nulls = append(nulls, false)
			}
		}
		if len(vals)+len(parts) > limit {
			return nil, nil, ErrTooManyPieces
		}
		for range parts {
			from = append(from, int32(k))
		}
		vals = append(vals, parts...)
	}
	return from, textWithNulls(name, vals, nulls), nil
}

// MapDistinct is MapText and Extract for a text column with a dictionary
// (built under KeyIDs' rule: when rows cover a large part of the column):
// fn runs once per distinct value instead of once per row (37,728 e-mail
// addresses for 219,500 awards), and the result carries a dictionary of
// its own, so that grouping or counting it next hashes no strings. fn
// returns false for a null. ok is false when c has no dictionary; the
// caller then maps row by row.
func MapDistinct(name string, c *Vector, rows []int32, fn func(string) (string, bool)) (out *Vector, ok bool) {
	if c.Kind != KindText {
		return nil, false
	}
	d := c.CachedTextDictionary()
	if d == nil && len(rows) >= c.N/16 {
		d = c.TextDictionary()
	}
	if d == nil {
		return nil, false
	}
	vals := distinctValues(c, d)
	mapped := make([]string, len(vals))
	valid := make([]bool, len(vals))
	Parts(len(vals), func(_, lo, hi int) {
		for k := lo; k < hi; k++ {
			mapped[k], valid[k] = fn(vals[k])
			valid[k] = valid[k] && mapped[k] != "" // "" is null in a text column
		}
	})
	// The results' own dictionary: their distinct values (deduplicated
	// first: many values map to one), ranked alphabetically.
	index := map[string]int32{}
	var uniq []string
	for k, v := range mapped {
		if _, seen := index[v]; valid[k] && !seen {
			index[v] = 0
			uniq = append(uniq, v)
		}
	}
	slices.Sort(uniq)
	for r, v := range uniq {
		index[v] = int32(r)
	}
	rank := make([]int32, len(vals))
	for k, v := range mapped {
		rank[k] = -1
		if valid[k] {
			rank[k] = index[v]
		}
	}
	n := len(rows)
	codes := make([]int32, n)
	size := 0
	for p, r := range rows {
		codes[p] = -1
		if code := d.codes[r]; code >= 0 && rank[code] >= 0 {
			codes[p] = rank[code]
			size += len(uniq[rank[code]])
		}
	}
	out = &Vector{Name: name, Kind: KindText, N: n, Offs: make([]int32, n+1), Data: make([]byte, 0, size)}
	for p, code := range codes {
		if code < 0 {
			out.SetNull(p)
		} else {
			out.Data = append(out.Data, uniq[code]...)
		}
		out.Offs[p+1] = int32(len(out.Data))
	}
	out.tdict.d.Store(&TextDict{codes: codes, distinct: len(uniq)})
	return out, true
}

// distinctValues lists the distinct values of c in code order: from the
// packed copy when there is one, else from each code's first row.
func distinctValues(c *Vector, d *TextDict) []string {
	vals := make([]string, d.distinct)
	if offs, data := d.PackedValues(c); offs != nil {
		for k := range vals {
			vals[k] = string(data[offs[k]:offs[k+1]])
		}
		return vals
	}
	seen := make([]bool, d.distinct)
	left := d.distinct
	for i, code := range d.codes {
		if code >= 0 && !seen[code] {
			seen[code] = true
			vals[code] = string(c.TextBytes(i))
			if left--; left == 0 {
				break
			}
		}
	}
	return vals
}
