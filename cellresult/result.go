// Package cellresult is the outcome of running Go code in a sandbox
// session, shaped for programs: what the MCP server's run_go tool returns
// and what `sbir-kernel run --json` prints (there inside a wrapper with the
// [Schema] version, docs/agents.md). Both build it with [New] from a
// [sandbox.Result] and the displays the code made.
//
// A frame value's rows come from the table representation award_data
// produces next to its text and HTML tables (application/vnd.dataresource+json,
// the Table Schema JSON pandas writes): exact values with their column
// types. That representation has already been decoded by the sandbox's
// pipe, whose frames are bounded; this package only walks it, within
// fixed bounds on rows and cells, and never parses a number's digits or a
// table's HTML, so that a cell that fakes one cannot make the server work.
package cellresult

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/sbirtools/sbir-kernel/internal/textcut"
	"github.com/sbirtools/sbir-kernel/sandbox"
)

// Schema names the version of the shape, as `run --json` prints it. It
// changes when a field changes meaning or disappears; new optional fields
// keep it. Version 2: frame records hold exact values of a window of rows
// (offset, next_offset) with every column and its type, where version 1
// held the notebook table's rounded text of the first and last 10 rows.
const Schema = "sbir-kernel.run/2"

// Bounds on frame records.
const (
	// DefaultMaxRows is how many rows of a frame a result carries when
	// the caller does not say.
	DefaultMaxRows = 20
	// MaxRows is the most rows a caller may ask for; a larger frame is
	// read a page at a time (Frame.NextOffset).
	MaxRows = 1000
)

// maxValueBytes bounds the text of a value and of each display in a
// result; the sandbox already bounds stdout and stderr.
const maxValueBytes = 64 << 10

// Result is the outcome of one run of code.
type Result struct {
	// Session is the session the code ran in (run_go only).
	Session string `json:"session,omitempty" jsonschema:"the session the code ran in; pass it again to keep its variables"`
	// Success is false when the code failed; Error says why.
	Success bool `json:"success" jsonschema:"false when the code failed to compile or run; error says why"`
	// Stdout and Stderr hold what the code wrote.
	Stdout string `json:"stdout" jsonschema:"what the code wrote to standard output"`
	Stderr string `json:"stderr" jsonschema:"what the code wrote to standard error"`
	// OutputTruncated reports that output beyond the limit was dropped.
	OutputTruncated bool `json:"output_truncated,omitempty" jsonschema:"true when stdout/stderr exceeded the output limit and the rest was dropped"`
	// Value is the text of the last expression, when the code ends in one
	// that has a value.
	Value string `json:"value,omitempty" jsonschema:"the value of the last expression, as text (a frame as a text table, numbers rounded for reading; frame holds the exact values)"`
	// ValueTruncated reports that Value was cut.
	ValueTruncated bool `json:"value_truncated,omitempty" jsonschema:"true when value was cut"`
	// Frame holds the value's rows as exact records when it is an
	// award_data.Frame.
	Frame *Frame `json:"frame,omitempty" jsonschema:"the value's rows as exact typed records when it is an award_data.Frame"`
	// Displays are the display.* outputs, in order.
	Displays []Display `json:"displays,omitempty" jsonschema:"outputs of display.* calls, in order"`
	// Error describes a failure.
	Error *Error `json:"error,omitempty" jsonschema:"why the code failed"`
	// Restarted reports that the worker died (memory, stack, crash,
	// timeout kill) and was replaced: the session's variables are gone.
	Restarted bool `json:"restarted,omitempty" jsonschema:"true when the session's worker died and was replaced: every variable of the session is gone"`
	// Notice is something the caller should know about the environment,
	// such as the data being the synthetic sample (run_go says it on a
	// session's first call).
	Notice string `json:"notice,omitempty" jsonschema:"something to know about the environment, e.g. that the data is the synthetic sample and how to point the server at the real data"`
}

// Error describes why code failed.
type Error struct {
	// Name is the class: SyntaxError, NotAllowed, CompileError, Panic,
	// RuntimeError, Timeout, MemoryError, CodeTooLarge, ... (see
	// sandbox.Result.ErrorName), or award_data.Error.
	Name string `json:"name" jsonschema:"the error class: SyntaxError, NotAllowed, CompileError, Panic, RuntimeError, Timeout, MemoryError, StackOverflow, WorkerCrashed, CodeTooLarge, PackageError, award_data.Error, ..."`
	// Message is the error without its position.
	Message string `json:"message" jsonschema:"what went wrong"`
	// Line and Column locate the error in the code (1-based; 0 when
	// unknown).
	Line   int `json:"line,omitempty" jsonschema:"1-based line of the error in the code, when known"`
	Column int `json:"column,omitempty" jsonschema:"1-based column of the error, when known"`
	// Suggestion is what to write instead, when the message says.
	Suggestion string `json:"suggestion,omitempty" jsonschema:"what to write instead, when known"`
	// Traceback is the sandbox's traceback, one line per entry.
	Traceback []string `json:"traceback,omitempty" jsonschema:"the traceback, one line per entry"`
}

// Display is one display.* output.
type Display struct {
	// Text is its text/plain form.
	Text string `json:"text" jsonschema:"the text form of the output"`
	// MIMETypes lists every form the output has (text/html,
	// application/vnd.vegalite.v5+json, image/png, ...).
	MIMETypes []string `json:"mime_types" jsonschema:"every MIME type the output has"`
	// Data holds the JSON forms (application/json, Vega-Lite) under the
	// size limit, keyed by MIME type; a frame's table representation is
	// in Frame instead.
	Data map[string]any `json:"data,omitempty" jsonschema:"the JSON forms of the output (application/json, Vega-Lite), keyed by MIME type"`
	// Frame holds the rows of a displayed award_data.Frame.
	Frame *Frame `json:"frame,omitempty" jsonschema:"the rows as exact typed records when the output is an award_data.Frame (display.Show(f))"`
	// Truncated reports that Text was cut or a JSON form left out.
	Truncated bool `json:"truncated,omitempty" jsonschema:"true when text was cut or a JSON form was left out for size"`
}

// New converts a sandbox result and the displays the code produced. A
// frame carries at most maxRows records (DefaultMaxRows when <= 0, never
// more than MaxRows): the rows the sandbox was asked for (sandbox.Handlers.Rows).
func New(res *sandbox.Result, displays []sandbox.Display, maxRows int) *Result {
	if maxRows <= 0 {
		maxRows = DefaultMaxRows
	}
	maxRows = min(maxRows, MaxRows)
	out := &Result{
		Success:         res.Success,
		Stdout:          res.Stdout,
		Stderr:          res.Stderr,
		OutputTruncated: res.Truncated,
		Restarted:       res.Restarted,
	}
	if t, ok := res.Value["text/plain"].(string); ok {
		out.Value, out.ValueTruncated = clip(t, maxValueBytes)
		if strings.HasSuffix(t, " …") && len(t) >= 64<<10 {
			out.ValueTruncated = true
		}
		out.Frame = frameOf(res.Value[ResourceMIME], maxRows)
	}
	for _, d := range displays {
		out.Displays = append(out.Displays, newDisplay(d, maxRows))
	}
	if !res.Success {
		out.Error = newError(res)
	}
	return out
}

// clip cuts s to at most limit bytes on a character boundary, marking
// the cut with " …"; the bool reports a cut.
func clip(s string, limit int) (string, bool) {
	if len(s) <= limit {
		return s, false
	}
	return textcut.Prefix(s, limit) + " …", true
}

func newDisplay(d sandbox.Display, maxRows int) Display {
	o := Display{}
	if t, ok := d.Data["text/plain"].(string); ok {
		o.Text, o.Truncated = clip(t, maxValueBytes)
	}
	for k, v := range d.Data {
		o.MIMETypes = append(o.MIMETypes, k)
		if k == ResourceMIME {
			o.Frame = frameOf(v, maxRows)
			continue
		}
		if k != "application/json" && !strings.HasSuffix(k, "+json") {
			continue
		}
		b, err := json.Marshal(v)
		if err != nil || len(b) > maxValueBytes {
			o.Truncated = true
			continue
		}
		if o.Data == nil {
			o.Data = map[string]any{}
		}
		o.Data[k] = json.RawMessage(b)
	}
	sort.Strings(o.MIMETypes)
	return o
}

var (
	// positionRE finds "line N, column M" in sandbox messages and
	// tracebacks ("line 3, column 5: ..." or "at line 3, column 5, in
	// ..."), and "line N," alone in a compiled cell's traceback ("at line
	// 3, in fib"; a frame in an earlier cell, "at line 2 of an earlier
	// cell", is not this cell's).
	positionRE = regexp.MustCompile(`line (\d+)(?:, column (\d+)|,)`)
	// leadingPositionRE is the position prefix of a message.
	leadingPositionRE = regexp.MustCompile(`^line \d+, column \d+: `)
	// didYouMeanRE finds award_data's and the sandbox's suggestions.
	didYouMeanRE = regexp.MustCompile(`\(?(did you mean [^)?]*\??)\)?`)
)

// newError derives the structured error from the sandbox's message and
// traceback: the sandbox writes positions as "line N, column M" and its
// refusals as "X is not allowed: why; what to do".
func newError(res *sandbox.Result) *Error {
	var ce *sandbox.CellError
	if !errors.As(res.Err(), &ce) {
		return nil
	}
	e := &Error{Name: ce.Class, Message: ce.Message, Traceback: ce.Traceback}
	if e.Name == "" {
		e.Name = "Error"
	}
	where := e.Message
	if m := positionRE.FindStringSubmatch(where); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		e.Column, _ = strconv.Atoi(m[2])
	} else {
		for _, l := range e.Traceback {
			if m := positionRE.FindStringSubmatch(l); m != nil {
				e.Line, _ = strconv.Atoi(m[1])
				e.Column, _ = strconv.Atoi(m[2])
				break
			}
		}
	}
	e.Message = leadingPositionRE.ReplaceAllString(e.Message, "")
	switch {
	case didYouMeanRE.MatchString(e.Message):
		e.Suggestion = didYouMeanRE.FindStringSubmatch(e.Message)[1]
	case e.Name == "NotAllowed":
		if _, why, ok := strings.Cut(e.Message, " is not allowed: "); ok {
			e.Suggestion = why
		}
	default:
		for _, marker := range []string{"; use ", "; call ", "; declare ", "; restart ", " — use "} {
			if i := strings.Index(e.Message, marker); i >= 0 {
				e.Suggestion = strings.TrimLeft(e.Message[i+1:], " —")
				break
			}
		}
	}
	return e
}

// SyntheticNotice says that the data is the embedded synthetic sample of
// rows awards, and how to serve the real data: the MCP server says it on a
// session's first run_go, in describe_data and in its instructions, and
// `run --json` in its notice.
func SyntheticNotice(rows int64) string {
	return fmt.Sprintf("The data is the embedded synthetic sample: %s made-up awards, so answers about real companies, agencies or amounts mean nothing. "+
		"For the real awards, start the server with SBIR_CSV_PATH=/path/to/award_data.csv in its environment "+
		"(in an MCP client's configuration, the \"env\" of the server's entry: clients such as the Python SDK pass a server only HOME, PATH and a few more) "+
		"or run `sbir-kernel download-data` once on its machine.", groupThousands(rows))
}

// groupThousands writes n with commas: 219500 → 219,500.
func groupThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
