package mcpserver

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/sbirtools/sbir-kernel/internal/textdist"
)

// apidocsJSON is the documentation of award_data and display, generated
// from their sources by internal/apidocgen (go generate).
//
//go:embed apidocs.json
var apidocsJSON []byte

// docPackage and docEntry mirror internal/apidocgen's output.
type docPackage struct {
	Name    string     `json:"name"`
	Doc     string     `json:"doc"`
	Entries []docEntry `json:"entries"`
}

type docEntry struct {
	Package   string       `json:"package"`
	Name      string       `json:"name"`
	Kind      string       `json:"kind"`
	Signature string       `json:"signature"`
	Doc       string       `json:"doc"`
	Examples  []docExample `json:"examples,omitempty"`
	Pandas    []string     `json:"pandas,omitempty"`
	Aliases   []string     `json:"aliases,omitempty"`
	Words     []string     `json:"words,omitempty"`
}

type docExample struct {
	Name   string `json:"name"`
	Code   string `json:"code"`
	Output string `json:"output,omitempty"`
}

// apiDocs is the parsed index.
type apiDocs struct {
	pkgs []docPackage
}

func loadAPIDocs() (*apiDocs, error) {
	var d apiDocs
	if err := json.Unmarshal(apidocsJSON, &d.pkgs); err != nil {
		return nil, fmt.Errorf("mcpserver: the embedded API documentation is corrupt (run go generate ./mcpserver): %w", err)
	}
	for i := range d.pkgs {
		for j := range d.pkgs[i].Entries {
			d.pkgs[i].Entries[j].Package = d.pkgs[i].Name
		}
	}
	return &d, nil
}

func (d *apiDocs) pkg(name string) *docPackage {
	for i := range d.pkgs {
		if d.pkgs[i].Name == name {
			return &d.pkgs[i]
		}
	}
	return nil
}

// packageNames lists the documented packages.
func (d *apiDocs) packageNames() []string {
	var names []string
	for _, p := range d.pkgs {
		names = append(names, p.Name)
	}
	return names
}

// search ranks the entries of pkg ("" for all) against query. Scores
// add up: an exact name ("Where", "Frame.Where", "award_data.Where") or
// method name ("where"), each pandas name of the query among the entry's
// aliases (from docs/pandas.md's idioms: "merge"), each of the entry's
// plain words in the query (pandas.md's other words: "frequency"; a
// longer phrase more), every
// word in the name, every word in the docs. A query that looks like a
// name and matches none gets the nearest names instead, and note says
// so: "no entry named X; did you mean ...".
func (d *apiDocs) search(pkg, query string, limit int) (hits []docEntry, note string) {
	q := strings.ToLower(strings.TrimSpace(query))
	words := strings.Fields(strings.Map(wordRune, q))
	terms := pandasTerms(words)
	type hit struct {
		e     docEntry
		score int
	}
	var found []hit
	named := false // an exact name or a pandas name matched
	for _, e := range d.entries(pkg) {
		name := strings.ToLower(e.Name)
		full := strings.ToLower(e.Package + "." + e.Name)
		_, method, _ := strings.Cut(name, ".")
		score := 0
		switch {
		case q == name || q == full:
			score += 100
		case q == method:
			score += 90
		}
		for _, a := range e.Aliases {
			if terms[a] {
				score += 20
			}
		}
		for _, w := range e.Words {
			if hasPhrase(words, w) {
				// A longer phrase says more: "percent change" is
				// PctChange before "change" is Diff.
				score += 15 + 5*len(strings.Fields(w))
			}
		}
		named = named || score >= 20
		if allIn(words, full) {
			score += 50
		}
		if allIn(words, strings.ToLower(e.Signature+" "+e.Doc+" "+strings.Join(e.Pandas, " "))) {
			score += 10
		}
		if score > 0 {
			found = append(found, hit{e, score})
		}
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].score > found[j].score })
	if nameRE.MatchString(query) && !named {
		if near := d.nearest(pkg, query); len(near) > 0 {
			var names []string
			for _, e := range near {
				names = append(names, e.Package+"."+e.Name)
			}
			note = fmt.Sprintf("no entry named %s; did you mean %s?", query, strings.Join(names[:min(3, len(names))], ", "))
			for _, e := range near {
				hits = append(hits, e)
			}
		}
	}
	for _, h := range found {
		if len(hits) >= limit {
			break
		}
		if !slices.ContainsFunc(hits, func(e docEntry) bool { return e.Package == h.e.Package && e.Name == h.e.Name }) {
			hits = append(hits, h.e)
		}
	}
	return hits[:min(len(hits), limit)], note
}

// entries lists the entries of pkg ("" for all).
func (d *apiDocs) entries(pkg string) []docEntry {
	var out []docEntry
	for _, p := range d.pkgs {
		if pkg == "" || p.Name == pkg {
			out = append(out, p.Entries...)
		}
	}
	return out
}

// nameRE matches a query that looks like a Go name: "GroupBuy",
// "Frame.Summ", "award_data.Merge".
var nameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*){0,2}$`)

// nearest returns the entries whose name or method name is within a
// small edit distance of name, or starts with it, nearest first.
func (d *apiDocs) nearest(pkg, name string) []docEntry {
	n := strings.ToLower(name)
	for _, p := range []string{"award_data.", "display."} {
		n = strings.TrimPrefix(n, p)
	}
	_, method, isMethod := strings.Cut(n, ".")
	if !isMethod {
		method = n
	}
	limit := max(1, len(method)/4)
	type cand struct {
		e    docEntry
		dist int
	}
	var cands []cand
	for _, e := range d.entries(pkg) {
		full := strings.ToLower(e.Name)
		_, m, _ := strings.Cut(full, ".")
		if m == "" {
			m = full
		}
		dist := min(textdist.Levenshtein(n, full), textdist.Levenshtein(method, m))
		if isMethod { // Frame.Summ: Frame.Sum before Grouped.Sum
			dist = min(textdist.Levenshtein(n, full), textdist.Levenshtein(method, m)+1)
		}
		if dist > limit && !(len(method) >= 3 && strings.HasPrefix(m, method)) {
			continue
		}
		cands = append(cands, cand{e, dist})
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].dist != cands[j].dist {
			return cands[i].dist < cands[j].dist
		}
		return len(cands[i].e.Name) < len(cands[j].e.Name) // a function before the methods of its name
	})
	var out []docEntry
	for _, c := range cands {
		out = append(out, c.e)
	}
	return out
}

// wordRune keeps letters, digits and underscores of a query and makes the
// rest spaces.
func wordRune(r rune) rune {
	if r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) {
		return r
	}
	return ' '
}

// pandasTerms is the set of pandas names a query's words may be: the
// words themselves and the words joined by underscores ("value counts" →
// value_counts).
func pandasTerms(words []string) map[string]bool {
	terms := map[string]bool{strings.Join(words, "_"): true}
	for _, w := range words {
		terms[w] = true
	}
	return terms
}

// hasPhrase reports whether the query's words contain phrase's words in a
// row ("percent change" in "percent change by year").
func hasPhrase(words []string, phrase string) bool {
	p := strings.Fields(phrase)
	for i := 0; i+len(p) <= len(words); i++ {
		if slices.Equal(words[i:i+len(p)], p) {
			return true
		}
	}
	return false
}

func allIn(words []string, s string) bool {
	if len(words) == 0 {
		return false
	}
	for _, w := range words {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}

// markdown renders a package's documentation: its overview and every
// entry with signature, doc and examples (the docs resources).
func (p *docPackage) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# package %s\n\n%s\n", p.Name, p.Doc)
	for _, e := range p.Entries {
		b.WriteString("\n" + e.markdown())
	}
	return b.String()
}

func (e docEntry) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s.%s (%s)\n\n```go\n%s\n```\n\n%s\n", e.Package, e.Name, e.Kind, e.Signature, e.Doc)
	if len(e.Pandas) > 0 {
		b.WriteString("\nIn pandas:\n\n")
		for _, p := range e.Pandas {
			fmt.Fprintf(&b, "- `` %s ``\n", p)
		}
	}
	for _, ex := range e.Examples {
		fmt.Fprintf(&b, "\n%s:\n\n```go\n%s\n```\n", ex.Name, strings.TrimSpace(ex.Code))
		if ex.Output != "" {
			fmt.Fprintf(&b, "\nOutput:\n\n```\n%s```\n", ex.Output)
		}
	}
	return b.String()
}
