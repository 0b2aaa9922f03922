package e2e

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/testenv"
)

// helpRequest is one request of testdata/scripts/help_client.py.
type helpRequest struct {
	Op     string `json:"op"` // complete, inspect or execute
	Code   string `json:"code"`
	Cursor *int   `json:"cursor,omitempty"` // code points; nil: the end
	Detail int    `json:"detail,omitempty"`
}

// helpReply is the content of its reply.
type helpReply struct {
	Status      string         `json:"status"`
	Matches     []string       `json:"matches"`
	CursorStart int            `json:"cursor_start"`
	CursorEnd   int            `json:"cursor_end"`
	Found       bool           `json:"found"`
	Data        map[string]any `json:"data"`
	Outputs     []struct {
		Type    string `json:"type"`
		Content struct {
			Data map[string]any `json:"data"`
		} `json:"content"`
	} `json:"outputs"`
}

// TestE2EHelp drives completion, inspection and help cells through
// jupyter_client, as JupyterLab's completer and tooltip do: members of
// what a method chain returns, Where's category values, inspection of a
// method in a chain, and "award_data.Where?" as a cell.
func TestE2EHelp(t *testing.T) {
	requirePython(t, map[string]string{"jupyter_client": "python3-jupyter-client"})
	j := newJupyterEnv(t)
	j.install()
	at := func(n int) *int { return &n }
	type check struct {
		req     helpRequest
		want    []string // complete: among the matches; inspect and execute: in text/plain
		exact   []string // complete: the matches exactly
		absent  []string // complete: not among the matches
		start   int      // complete: cursor_start, when not -1
		mime    string   // execute: a MIME type the result must carry
		comment string
	}
	checks := []check{
		{req: helpRequest{Op: "execute", Code: "df := award_data.Where(\"Agency\", \"==\", \"Department of Energy\")"}, start: -1, comment: "a session variable"},
		{req: helpRequest{Op: "complete", Code: `award_data.GroupBy("Agency").`}, want: []string{"Sum", "Count", "Mean", "Agg"}, absent: []string{"award_data", "Where", "fmt"}, start: 29},
		{req: helpRequest{Op: "complete", Code: `award_data.Where("Agency", "==", "NASA").So`}, exact: []string{"Sort"}, start: 41},
		{req: helpRequest{Op: "complete", Code: `df.GroupBy("State").Me`}, exact: []string{"Mean", "Median"}, start: 20},
		{req: helpRequest{Op: "complete", Code: "x := award_data.Head(9)\nx.NLar"}, exact: []string{"NLargest"}, start: -1},
		{req: helpRequest{Op: "complete", Code: `award_data.Where("Agency", "==", "Nat`}, want: []string{`National Science Foundation"`, `National Aeronautics and Space Administration"`}, absent: []string{`Department of Energy"`}, start: 34},
		{req: helpRequest{Op: "complete", Code: `award_data.Where("Agency", "==", "Nat")`, Cursor: at(37)}, want: []string{`National Science Foundation"`}, start: 34, comment: "the closing quote the editor added is replaced"},
		{req: helpRequest{Op: "inspect", Code: `award_data.Frame.Where`}, want: []string{"func (f Frame) Where(column, op string, value any) Frame"}},
		{req: helpRequest{Op: "inspect", Code: `award_data.GroupBy("Agency").Sum("Award Amount")`, Cursor: at(31)}, want: []string{"func (g Grouped) Sum(columns ...string) Frame"}},
		{req: helpRequest{Op: "inspect", Code: `df.Sort("Award Amount", award_data.Descending).Head(3)`, Cursor: at(5)}, want: []string{"func (f Frame) Sort("}},
		{req: helpRequest{Op: "inspect", Code: `award_data.GroupBy("Agency").Mean(`}, want: []string{"func (g Grouped) Mean("}, comment: "the tooltip just after the parenthesis"},
		{req: helpRequest{Op: "execute", Code: "award_data.Where?"}, want: []string{"func Where(column, op string, value any) Frame"}, mime: "text/markdown"},
		{req: helpRequest{Op: "execute", Code: `award_data.GroupBy("Agency").Sum?`}, want: []string{"func (g Grouped) Sum("}, mime: "text/markdown"},
		{req: helpRequest{Op: "execute", Code: "strings.Split?"}, want: []string{"func Split(s, sep string) []string"}, mime: "text/markdown"},
		{req: helpRequest{Op: "execute", Code: "df??"}, want: []string{"df award_data.Frame"}, mime: "text/plain"},
	}
	reqs := make([]helpRequest, len(checks))
	for i, c := range checks {
		reqs[i] = c.req
	}
	in, _ := json.Marshal(reqs)
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Scale(3*time.Minute))
	defer cancel()
	cmd := j.command(ctx, j.pythonExe, "help_client.py", "sbir")
	cmd.Dir, _ = filepath.Abs(filepath.Join("testdata", "scripts"))
	cmd.Stdin = strings.NewReader(string(in))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var replies []helpReply
	if jerr := json.Unmarshal(out, &replies); jerr != nil || len(replies) != len(checks) {
		t.Fatalf("help_client.py (%v) printed %d replies (%v), want %d:\n%s\nstderr:\n%s", err, len(replies), jerr, len(checks), out, lastLines(stderr.String(), 40))
	}
	for i, c := range checks {
		r := replies[i]
		name := c.req.Op + " " + c.req.Code
		if r.Status != "ok" {
			t.Errorf("%s: status %q", name, r.Status)
			continue
		}
		switch c.req.Op {
		case "complete":
			cur := len([]rune(c.req.Code))
			if c.req.Cursor != nil {
				cur = *c.req.Cursor
			}
			if c.exact != nil && !slices.Equal(r.Matches, c.exact) {
				t.Errorf("%s: matches %q, want %q", name, r.Matches, c.exact)
			}
			for _, w := range c.want {
				if !slices.Contains(r.Matches, w) {
					t.Errorf("%s: matches %q lack %q", name, r.Matches, w)
				}
			}
			for _, a := range c.absent {
				if slices.Contains(r.Matches, a) {
					t.Errorf("%s: matches offer %q", name, a)
				}
			}
			if c.start >= 0 && r.CursorStart != c.start || r.CursorEnd < cur {
				t.Errorf("%s: replaces %d..%d, want from %d to at least %d", name, r.CursorStart, r.CursorEnd, c.start, cur)
			}
			t.Logf("complete %q -> %q", c.req.Code[:cur], r.Matches)
		case "inspect":
			text, _ := r.Data["text/plain"].(string)
			for _, w := range c.want {
				if !r.Found || !strings.Contains(text, w) {
					t.Errorf("%s: found %v, text %q, want %q", name, r.Found, text, w)
				}
			}
		case "execute":
			if len(c.want) == 0 {
				continue
			}
			var data map[string]any
			for _, o := range r.Outputs {
				if o.Type == "execute_result" {
					data = o.Content.Data
				}
			}
			text, _ := data["text/plain"].(string)
			for _, w := range c.want {
				if !strings.Contains(text, w) {
					t.Errorf("%s: execute_result text/plain %q, want %q (outputs %+v)", name, text, w, r.Outputs)
				}
			}
			if _, ok := data[c.mime]; !ok {
				t.Errorf("%s: the execute_result has no %s", name, c.mime)
			}
		}
	}
}
