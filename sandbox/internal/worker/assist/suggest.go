package assist

import (
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/sbirtools/sbir-kernel/internal/textdist"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/symbols"
)

// yaegi's messages for a missing member of a compiled package and of a
// source package.
var (
	noSymbolRE  = regexp.MustCompile(`package (\w+) "([^"]+)" has no symbol (\w+)`)
	noSelectRE  = regexp.MustCompile(`undefined selector:? ([\w/.]+)\.(\w+)`)
	memberAlias = map[string][]string{
		// What people coming from other languages call the members.
		"len": {"Len", "Count", "Size"}, "length": {"Len", "Count"}, "size": {"Size", "Len", "Count"},
		"count": {"Count", "Len"}, "nrows": {"Count", "Len"}, "numrows": {"Count", "Len"}, "rows": {"Count", "Rows"},
		"print": {"Println", "Print"}, "printline": {"Println"}, "format": {"Sprintf"}, "tostring": {"String", "Sprint", "Itoa"},
		"toupper": {"ToUpper"}, "tolower": {"ToLower"}, "strip": {"TrimSpace"}, "trim": {"TrimSpace", "Trim"},
		"sort": {"Sort", "Slice", "Strings", "Ints"}, "contains": {"Contains"}, "push": {"PushBack"}, "append": {"Append"},
		"parseint": {"Atoi", "ParseInt"}, "tointeger": {"Atoi"}, "split": {"Split", "Fields"}, "join": {"Join"},
		// pandas' names of award_data's methods (keys without underscores:
		// sort_values and sortvalues alike; names that differ only in case
		// or underscores, such as pct_change, need no entry).
		"merge": {"Join"}, "query": {"Where"}, "isin": {"Where"}, "loc": {"Where", "Row"}, "iloc": {"Slice", "Row"},
		"assign": {"Compute", "Apply"}, "aggregate": {"Agg"}, "hist": {"Histogram"}, "plot": {"Line", "Bar"},
		"todict": {"Records"}, "tolist": {"Floats", "Strings"}, "values": {"Floats", "Strings"},
		"fillna": {"FillNull"}, "dropna": {"DropNull"}, "nunique": {"CountDistinct"}, "sortvalues": {"Sort"},
		"sortindex": {"Sort"}, "pivottable": {"Pivot"}, "crosstab": {"Pivot"}, "first": {"First", "Head"},
		"last": {"Last", "Tail"}, "std": {"Agg"}, "var": {"Agg"}, "shape": {"Len"}, "dtypes": {"Describe"},
		"info": {"Describe"}, "cummax": {"Rolling"}, "str": {"Lower", "Extract", "WordCounts"},
		"splitwords": {"WordCounts", "Explode"}, "wordcount": {"WordCounts"}, "words": {"WordCounts"},
		"mode": {"ValueCounts"},
		"dt":   {"DatePart", "Year", "Month"}, "pctchange": {"PctChange"}, "groupby": {"GroupBy"},
	}
)

// SuggestMembers adds "did you mean" to yaegi's message for a member that
// an allowed package does not have: `package award_data "award_data" has
// no symbol Len` becomes `award_data.Len is not defined: package
// award_data has no symbol Len; did you mean Count?`. Other messages are
// returned unchanged.
func SuggestMembers(msg string) string {
	if m := noSymbolRE.FindStringSubmatchIndex(msg); m != nil {
		name, path, sym := msg[m[2]:m[3]], msg[m[4]:m[5]], msg[m[6]:m[7]]
		return msg[:m[0]] + missingMember(name, path, sym) + msg[m[1]:]
	}
	if m := noSelectRE.FindStringSubmatchIndex(msg); m != nil {
		path, sym := msg[m[2]:m[3]], msg[m[4]:m[5]]
		if symbols.Members(path) != nil {
			return msg[:m[0]] + missingMember(path[strings.LastIndexByte(path, '/')+1:], path, sym) + msg[m[1]:]
		}
	}
	return msg
}

// missingMember says that package name (import path path) has no member
// sym, with the closest members.
func missingMember(name, path, sym string) string {
	members := symbols.Members(path)
	if slices.Contains(members, sym) {
		// The package has it, and the worker withheld it: a cell could
		// reach a refused API through it (json.MarshalerError's Type is
		// a reflect.Type, atomic.LoadPointer takes an unsafe.Pointer).
		return name + "." + sym + " is not available in cells: through it a cell could reach reflect or unsafe, which cells may not use; use another member of the package (for an error, its text: err.Error())"
	}
	s := name + "." + sym + " is not defined: package " + name + " has no symbol " + sym
	if c := closest(sym, members); len(c) > 0 {
		s += "; did you mean " + strings.Join(c, " or ") + "?"
	}
	return s
}

// closest returns up to two of names that sym was probably meant to be:
// the same name in another case, a known synonym, or the nearest by edit
// distance (at most a third of the name's length).
func closest(sym string, names []string) []string {
	have := map[string]bool{}
	for _, n := range names {
		have[n] = true
	}
	low := strings.ToLower(sym)
	key := aliasKey(sym)
	for _, n := range names {
		if aliasKey(n) == key {
			return []string{n}
		}
	}
	for _, a := range memberAlias[key] {
		if have[a] && a != sym {
			return []string{a}
		}
	}
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	limit := max(1, len(sym)/3)
	for _, n := range names {
		d := textdist.Levenshtein(low, strings.ToLower(n))
		if d <= limit || len(low) >= 4 && strings.HasPrefix(strings.ToLower(n), low) {
			cs = append(cs, cand{n, d})
		}
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].d < cs[j].d || cs[i].d == cs[j].d && cs[i].name < cs[j].name })
	var out []string
	for i := 0; i < len(cs) && i < 2; i++ {
		out = append(out, cs[i].name)
	}
	return out
}
