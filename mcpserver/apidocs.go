package mcpserver

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
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

// search ranks the entries of pkg ("" for all) against query: an exact
// name ("Where", "Frame.Where", "award_data.Where") first, then names
// containing every word, then docs containing every word.
func (d *apiDocs) search(pkg, query string, limit int) []docEntry {
	q := strings.ToLower(strings.TrimSpace(query))
	words := strings.Fields(q)
	type hit struct {
		e     docEntry
		score int
	}
	var hits []hit
	for _, p := range d.pkgs {
		if pkg != "" && p.Name != pkg {
			continue
		}
		for _, e := range p.Entries {
			name := strings.ToLower(e.Name)
			full := strings.ToLower(p.Name + "." + e.Name)
			method := name
			if _, m, ok := strings.Cut(name, "."); ok {
				method = m
			}
			score := 0
			switch {
			case q == name || q == full:
				score = 100
			case q == method:
				score = 90
			case allIn(words, full):
				score = 50
			case allIn(words, strings.ToLower(e.Signature+" "+e.Doc)):
				score = 10
			}
			if score > 0 {
				hits = append(hits, hit{e, score})
			}
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
	var out []docEntry
	for _, h := range hits {
		if len(out) == limit {
			break
		}
		out = append(out, h.e)
	}
	return out
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
	for _, ex := range e.Examples {
		fmt.Fprintf(&b, "\n%s:\n\n```go\n%s\n```\n", ex.Name, strings.TrimSpace(ex.Code))
		if ex.Output != "" {
			fmt.Fprintf(&b, "\nOutput:\n\n```\n%s```\n", ex.Output)
		}
	}
	return b.String()
}
