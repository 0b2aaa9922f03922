package mcpserver

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sbirtools/sbir-kernel/cellresult"
	"github.com/sbirtools/sbir-kernel/sandbox"
)

// RunGoInput is run_go's arguments.
type RunGoInput struct {
	Code    string `json:"code" jsonschema:"Go code: statements, declarations and expressions mixed (REPL style), or a whole program (package main with func main, which runs once, as go run does); award_data, display and the allowed standard packages need no import; the value of the last expression is returned"`
	Session string `json:"session,omitempty" jsonschema:"the session to run in (1-64 letters, digits, _ - .); it is created on first use and keeps its variables across calls; default: \"default\""`
	MaxRows int    `json:"max_rows,omitempty" jsonschema:"most rows of a frame value (and of each displayed frame) returned as exact records in frame.records: 1 to 1000; default 20"`
	Offset  int    `json:"offset,omitempty" jsonschema:"position (0-based) of the first frame row returned; to page through a large frame, run the same expression again (the variable holding it) with offset set to the last result's frame.next_offset; default 0"`
}

// ResetInput is reset_session's arguments.
type ResetInput struct {
	Session string `json:"session,omitempty" jsonschema:"the session to close; default: \"default\""`
}

// ResetOutput is reset_session's result.
type ResetOutput struct {
	Session string `json:"session" jsonschema:"the session that was closed"`
	// Existed is false when there was no such session.
	Existed bool `json:"existed" jsonschema:"false when no session of that name was open"`
	// Open lists the sessions still open on this connection.
	Open []string `json:"open" jsonschema:"the sessions still open on this connection"`
}

// DescribeInput is describe_data's (empty) arguments.
type DescribeInput struct{}

// ReferenceInput is api_reference's arguments.
type ReferenceInput struct {
	Query   string `json:"query,omitempty" jsonschema:"a name (Where, Frame.GroupBy, display.Markdown) or words to find in names and docs (\"group sum\", \"chart\"); empty: the package overview and the list of names"`
	Package string `json:"package,omitempty" jsonschema:"award_data or display; empty: both"`
	Limit   int    `json:"limit,omitempty" jsonschema:"most entries to return (default 5, at most 50)"`
}

// ReferenceOutput is api_reference's result.
type ReferenceOutput struct {
	// Overview is the package documentation (when Query is empty).
	Overview string `json:"overview,omitempty" jsonschema:"the package documentation, when no query was given"`
	// Names lists every documented name (when Query is empty).
	Names []string `json:"names,omitempty" jsonschema:"every documented name, when no query was given"`
	// Entries are the matches, best first.
	Entries []ReferenceEntry `json:"entries" jsonschema:"the matching names, best first"`
	// Note says when the query named nothing and entries are the nearest
	// names instead.
	Note string `json:"note,omitempty" jsonschema:"set when the query is a name that does not exist: \"no entry named X; did you mean ...\", the nearest names being the entries"`
}

// ReferenceEntry is one documented name.
type ReferenceEntry struct {
	Package   string   `json:"package" jsonschema:"award_data or display"`
	Name      string   `json:"name" jsonschema:"the name: Where, Frame, Frame.Where"`
	Kind      string   `json:"kind" jsonschema:"func, method, type, const or var"`
	Signature string   `json:"signature" jsonschema:"the Go declaration"`
	Doc       string   `json:"doc" jsonschema:"the documentation, with examples"`
	Examples  []string `json:"examples,omitempty" jsonschema:"runnable examples (Go source; the expected output follows as // Output: comments)"`
	Pandas    []string `json:"pandas,omitempty" jsonschema:"pandas idioms this name answers, as pandas → award_data"`
}

const runGoDescription = `Run Go code against the SBIR/STTR awards table (one row per award: Company, Agency, Phase, Program, State, Award Year, Award Amount, Abstract, ...) in a sandboxed, persistent session, and get back what it printed, the value of its last expression, a frame value's rows as exact records, displays, and structured errors.

Code is Go as you write it: statements, declarations (func, type, var) and expressions mixed, REPL style, or a whole program (package main with func main, which runs once, as go run does). The packages award_data (the data, already loaded) and display need no import; the allowed standard packages (fmt, strings, strconv, sort, slices, maps, math, time, regexp, encoding/json, ...) are imported on use or with an import line. Variables, functions and types persist across calls to the same session: define data once, reuse it in later calls. Several sessions (the "session" argument) run in parallel and keep separate state.

A frame value comes back as frame: columns, types (integer, number, string, category, datetime) and records with exact values (integers whole, floats to the last digit, text whole, dates as "2006-01-02T00:00:00.000", null as null), max_rows of them (default 20, at most 1000) from position offset. When frame.truncated is true the frame has more rows: run the same expression (e.g. the variable holding it) with offset set to frame.next_offset for the next page. value holds the frame as a text table, numbers rounded for reading. display.Show(f) adds a frame to displays, with its records too.

award_data in brief (f is a Frame; other, a and b are frames):
%s

The sandbox refuses, with the line, column and what to write instead: imports outside the allow-list (no os/exec, net, syscall, unsafe, files, environment), cgo, compiler and line directives, huge arrays. Limits per call: %s of code, %s of output (the rest is dropped and output_truncated is set), %s wall clock (then error Timeout; the session keeps its variables if the code stops when interrupted), %s of heap per session (MemoryError: the worker restarts and every variable of the session is lost, restarted is true). Third-party modules: a //sbir:require <module> <version> line in the first call of a session; %s.

Examples:
  {"code": "award_data.Count()"}
  {"code": "byAgency := award_data.GroupBy(\"Agency\").Sum(\"Award Amount\").Sort(\"-Award Amount\")\nbyAgency", "session": "analysis"}
  {"code": "byAgency", "session": "analysis", "offset": 20, "max_rows": 50}
  {"code": "award_data.Where(\"Abstract\", \"contains\", \"lidar\").Where(\"Award Year\", \">=\", 2015).Select(\"Company\", \"Award Year\", \"Award Amount\")", "session": "analysis", "max_rows": 5}

On failure success is false and error holds {name, message, line, column, suggestion}; fix the code and call again in the same session (earlier variables are still there unless restarted is true). The first call of a session says in notice when the data is the synthetic sample. api_reference has every award_data and display name (pandas names and plain words find them too: "merge", "frequency"); describe_data lists the columns and their types.`

const resetDescription = `Close a session of run_go: its worker stops and every variable it held is gone; the next run_go with that name starts afresh. Use it to free a session you no longer need (sessions are capped in number and memory, and close by themselves after %s without calls) or to start over after a mistake. Example: {"session": "analysis"}`

const describeDescription = `Describe the awards table the sessions see: each column's name and type (text, category, int, float, date) with its null count, the number of rows, whether the data is real (downloaded from sbir.gov or supplied by the operator) or the small synthetic sample, and the load report (records skipped, fields that could not be parsed). Call it before writing queries: column names are case-sensitive strings such as "Award Amount". Example: {}`

const referenceDescription = `Search the documentation of the packages cells use: award_data (frames over the awards: Where, Filter, Select, Sort, GroupBy with Count/Sum/Mean/Median/Quantile/Min/Max/Share/Agg, Pivot, Join, Compute, Head, Tail, Sample, column extraction, Bar/Line/Scatter/Histogram charts) and display (Markdown, HTML, JSON, Vega-Lite, images, updatable outputs). A query is a name ("Where", "Frame.Sort"), a pandas name ("merge", "value_counts", "pivot_table") or plain words ("frequency", "group sum", "chart"); a name that does not exist gets the nearest ones. Generated from the packages' doc comments, with their examples. Examples: {"query": "Where"}, {"query": "merge"}, {"query": "group sum"}, {"package": "display"}`

func (s *Server) instructions() string {
	text := `sbir-kernel runs Go code over the public SBIR/STTR awards dataset in sandboxed sessions. run_go's description has what most questions need (the award_data calls with examples); describe_data lists the columns and their types; api_reference has every name. Keep related calls in one named session so that variables persist. Example: run_go {"code": "award_data.GroupBy(\"Agency\").Count().Sort(\"-Count\").Head(10)"}.`
	if d := s.opts.Data; d != nil && d.Synthetic {
		text += " " + cellresult.SyntheticNotice(d.Rows)
	}
	return text
}

func (s *Server) addTools() error {
	l := s.opts.Session.Limits
	packages := "installing a module set that is not in the server's cache is off (the operator enables it with --allow-packages)"
	if s.opts.Session.Packages.AllowInstall {
		packages = "the server installs missing module sets from the Go module proxy"
	}
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true}
	// run_go's records must reach clients as the engine wrote them.
	err := addExactTool(s.mcp, &mcp.Tool{
		Name:        "run_go",
		Title:       "Run Go over the SBIR awards",
		Description: fmt.Sprintf(runGoDescription, cheatSheet, sizeText(int64(l.MaxCodeBytes)), sizeText(int64(l.MaxOutputBytes)), l.CellTimeout, sizeText(l.HeapBytes), packages),
		Annotations: &mcp.ToolAnnotations{OpenWorldHint: ptr(false)},
	}, s.runGo)
	if err != nil {
		return err
	}
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        "reset_session",
		Title:       "Reset a Go session",
		Description: fmt.Sprintf(resetDescription, s.pool.idle),
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, s.resetSession)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        "describe_data",
		Title:       "Describe the awards table",
		Description: describeDescription,
		Annotations: readOnly,
	}, s.describeTool)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        "api_reference",
		Title:       "award_data and display reference",
		Description: referenceDescription,
		Annotations: readOnly,
	}, s.reference)
	return nil
}

func ptr[T any](v T) *T { return &v }

func (s *Server) runGo(ctx context.Context, req *mcp.CallToolRequest, in RunGoInput) (*mcp.CallToolResult, *cellresult.Result, error) {
	name := in.Session
	if name == "" {
		name = DefaultSession
	}
	if in.MaxRows < 0 || in.MaxRows > cellresult.MaxRows {
		return nil, nil, fmt.Errorf("max_rows is %d: give 1 to %d, or leave it out for %d; page through a larger frame with offset", in.MaxRows, cellresult.MaxRows, cellresult.DefaultMaxRows)
	}
	if in.Offset < 0 {
		return nil, nil, fmt.Errorf("offset is %d: give the position of the first row to return, 0 or more", in.Offset)
	}
	rows := in.MaxRows
	if rows == 0 {
		rows = cellresult.DefaultMaxRows
	}
	e, created, err := s.pool.acquire(ctx, s.connOf(req.Session), name)
	if err != nil {
		return nil, nil, err
	}
	defer s.pool.release(e)
	// A reset, an expiry or the end of the connection interrupts the call.
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	defer context.AfterFunc(e.ctx, stop)()

	var displays []sandbox.Display
	h := &sandbox.Handlers{
		Display: func(d sandbox.Display) {
			if d.Update {
				for i := range displays {
					if displays[i].DisplayID == d.DisplayID {
						displays[i] = d
						return
					}
				}
			}
			displays = append(displays, d)
		},
		Clear: func(bool) { displays = nil },
		Rows:  sandbox.RowWindow{Offset: in.Offset, Limit: rows},
	}
	t0 := time.Now()
	res, err := e.sess.Run(ctx, in.Code, h)
	if s.runTimed != nil {
		s.runTimed(time.Since(t0))
	}
	if err != nil {
		if e.ctx.Err() != nil {
			return nil, nil, fmt.Errorf("session %q was reset or expired while the code ran", name)
		}
		return nil, nil, fmt.Errorf("session %q cannot run code: %v; call reset_session to start it afresh", name, err)
	}
	out := cellresult.New(res, displays, rows)
	out.Session = name
	if created && s.opts.Data != nil && s.opts.Data.Synthetic {
		out.Notice = cellresult.SyntheticNotice(s.opts.Data.Rows)
	}
	return &mcp.CallToolResult{IsError: !res.Success}, out, nil
}

func (s *Server) resetSession(ctx context.Context, req *mcp.CallToolRequest, in ResetInput) (*mcp.CallToolResult, *ResetOutput, error) {
	name := in.Session
	if name == "" {
		name = DefaultSession
	}
	conn := s.connOf(req.Session)
	out := &ResetOutput{Session: name, Existed: s.pool.reset(conn, name)}
	out.Open = s.pool.names(conn)
	if out.Open == nil {
		out.Open = []string{}
	}
	return nil, out, nil
}

func (s *Server) describeTool(ctx context.Context, req *mcp.CallToolRequest, _ DescribeInput) (*mcp.CallToolResult, *DataDescription, error) {
	d, err := s.describeData()
	if err != nil {
		return nil, nil, err
	}
	return nil, d, nil
}

func (s *Server) reference(ctx context.Context, req *mcp.CallToolRequest, in ReferenceInput) (*mcp.CallToolResult, *ReferenceOutput, error) {
	if in.Package != "" && s.docs.pkg(in.Package) == nil {
		return nil, nil, fmt.Errorf("unknown package %q: use %s", in.Package, strings.Join(s.docs.packageNames(), " or "))
	}
	limit := in.Limit
	switch {
	case limit == 0:
		limit = 5
	case limit < 0 || limit > 50:
		return nil, nil, fmt.Errorf("limit is %d: give 1 to 50", limit)
	}
	out := &ReferenceOutput{Entries: []ReferenceEntry{}}
	if strings.TrimSpace(in.Query) == "" {
		for _, p := range s.docs.pkgs {
			if in.Package != "" && p.Name != in.Package {
				continue
			}
			out.Overview += "# package " + p.Name + "\n\n" + p.Doc + "\n\n"
			for _, e := range p.Entries {
				out.Names = append(out.Names, p.Name+"."+e.Name)
			}
		}
		return nil, out, nil
	}
	hits, note := s.docs.search(in.Package, in.Query, limit)
	if len(hits) == 0 {
		return nil, nil, fmt.Errorf("nothing in %s matches %q: try one word (\"sum\", \"chart\"), a pandas name (\"merge\", \"value_counts\"), or call api_reference without a query for the list of names", orBoth(in.Package), in.Query)
	}
	out.Note = note
	for _, e := range hits {
		r := ReferenceEntry{Package: e.Package, Name: e.Name, Kind: e.Kind, Signature: e.Signature, Doc: e.Doc, Pandas: e.Pandas}
		for _, ex := range e.Examples {
			code := strings.TrimSpace(ex.Code)
			if ex.Output != "" {
				code += "\n// Output:\n// " + strings.ReplaceAll(strings.TrimSpace(ex.Output), "\n", "\n// ")
			}
			r.Examples = append(r.Examples, code)
		}
		out.Entries = append(out.Entries, r)
	}
	return nil, out, nil
}

func orBoth(pkg string) string {
	if pkg == "" {
		return "award_data or display"
	}
	return pkg
}

// Resource URIs.
const (
	SchemaURI     = "sbir://schema"
	docsURIPrefix = "sbir://docs/"
)

func (s *Server) addResources() {
	s.mcp.AddResource(&mcp.Resource{
		URI:         SchemaURI,
		Name:        "schema",
		Title:       "Awards table schema",
		Description: "The awards table: columns with types and null counts, rows, real or synthetic, load report (the describe_data result).",
		MIMEType:    "application/json",
	}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		d, err := s.describeData()
		if err != nil {
			return nil, err
		}
		text, err := jsonText(d)
		if err != nil {
			return nil, err
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: SchemaURI, MIMEType: "application/json", Text: text}}}, nil
	})
	for _, p := range s.docs.pkgs {
		uri := docsURIPrefix + p.Name
		text := p.markdown()
		s.mcp.AddResource(&mcp.Resource{
			URI:         uri,
			Name:        p.Name + " docs",
			Title:       "package " + p.Name,
			Description: "The documentation of package " + p.Name + " (every exported name with signature, doc comment and examples), as Markdown.",
			MIMEType:    "text/markdown",
			Size:        int64(len(text)),
		}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: text}}}, nil
		})
	}
}
