package mcpserver

import (
	"encoding/json"
	"errors"
	"html"
	"math"
	"math/big"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/sbirtools/sbir-kernel/internal/textcut"

	"github.com/sbirtools/sbir-kernel/sandbox"
)

// RunSchema names the version of the CellResult shape. It changes when a
// field changes meaning or disappears; new optional fields keep it.
const RunSchema = "sbir-kernel.run/1"

// DefaultMaxRows is how many frame rows a result carries when the caller
// does not say.
const DefaultMaxRows = 20

// maxValueBytes bounds the text of a value and of each display in a
// result; the sandbox already bounds stdout and stderr.
const maxValueBytes = 64 << 10

// CellResult is the outcome of one run of code, as run_go returns it and
// `sbir-kernel run --json` prints it.
type CellResult struct {
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
	Value string `json:"value,omitempty" jsonschema:"the value of the last expression, as text (a frame as a text table)"`
	// ValueTruncated reports that Value was cut.
	ValueTruncated bool `json:"value_truncated,omitempty" jsonschema:"true when value was cut"`
	// Frame holds the value as columns and records when it is an
	// award_data.Frame.
	Frame *Frame `json:"frame,omitempty" jsonschema:"the value as columns and records when it is an award_data.Frame"`
	// Displays are the display.* outputs, in order.
	Displays []DisplayOutput `json:"displays,omitempty" jsonschema:"outputs of display.* calls, in order"`
	// Error describes a failure.
	Error *CellError `json:"error,omitempty" jsonschema:"why the code failed"`
	// Restarted reports that the worker died (memory, stack, crash,
	// timeout kill) and was replaced: the session's variables are gone.
	Restarted bool `json:"restarted,omitempty" jsonschema:"true when the session's worker died and was replaced: every variable of the session is gone"`
}

// CellError describes why code failed.
type CellError struct {
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

// Frame is a frame value as columns and records. Its cells are the frame's
// rendered values (as the notebook table shows them: numbers grouped and
// rounded for display, text cut at 100 characters), converted to JSON
// numbers where the column is numeric.
type Frame struct {
	// Columns are the column names, in order.
	Columns []string `json:"columns" jsonschema:"column names, in order"`
	// Numeric marks the columns whose cells are JSON numbers.
	Numeric []bool `json:"numeric" jsonschema:"per column: true when its cells are numbers"`
	// Index holds the row number of each record in the frame.
	Index []int `json:"index" jsonschema:"the row number of each record in the frame (rows between shown ones are left out)"`
	// Records are the rows, one object per row keyed by column name; a
	// null cell is JSON null.
	Records []map[string]any `json:"records" jsonschema:"the rows, one object per row keyed by column name"`
	// Rows and TotalColumns are the frame's full size.
	Rows         int `json:"rows" jsonschema:"rows in the whole frame"`
	TotalColumns int `json:"total_columns" jsonschema:"columns in the whole frame"`
	// Truncated reports that records hold fewer rows or columns than the
	// frame.
	Truncated bool `json:"truncated,omitempty" jsonschema:"true when records hold fewer rows or columns than the frame; narrow it with Where, Select, Head or Tail"`
}

// DisplayOutput is one display.* output.
type DisplayOutput struct {
	// Text is its text/plain form.
	Text string `json:"text" jsonschema:"the text form of the output"`
	// MIMETypes lists every form the output has (text/html,
	// application/vnd.vegalite.v5+json, image/png, ...).
	MIMETypes []string `json:"mime_types" jsonschema:"every MIME type the output has"`
	// Data holds the JSON forms (application/json, Vega-Lite) under the
	// size limit, keyed by MIME type.
	Data map[string]any `json:"data,omitempty" jsonschema:"the JSON forms of the output (application/json, Vega-Lite), keyed by MIME type"`
	// Truncated reports that Text was cut or a JSON form left out.
	Truncated bool `json:"truncated,omitempty" jsonschema:"true when text was cut or a JSON form was left out for size"`
}

// NewCellResult converts a sandbox result and the displays the code
// produced, with at most maxRows frame rows (DefaultMaxRows when <= 0).
func NewCellResult(res *sandbox.Result, displays []sandbox.Display, maxRows int) *CellResult {
	if maxRows <= 0 {
		maxRows = DefaultMaxRows
	}
	out := &CellResult{
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
		if h, ok := res.Value["text/html"].(string); ok {
			out.Frame = parseFrame(h, maxRows)
		}
	}
	for _, d := range displays {
		out.Displays = append(out.Displays, newDisplayOutput(d))
	}
	if !res.Success {
		out.Error = newCellError(res)
	}
	return out
}

func clip(s string, limit int) (string, bool) {
	if len(s) <= limit {
		return s, false
	}
	return textcut.Prefix(s, limit) + " …", true
}

func newDisplayOutput(d sandbox.Display) DisplayOutput {
	o := DisplayOutput{}
	if t, ok := d.Data["text/plain"].(string); ok {
		o.Text, o.Truncated = clip(t, maxValueBytes)
	}
	for k, v := range d.Data {
		o.MIMETypes = append(o.MIMETypes, k)
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

// newCellError derives the structured error from the sandbox's message
// and traceback: the sandbox writes positions as "line N, column M" and
// its refusals as "X is not allowed: why; what to do".
func newCellError(res *sandbox.Result) *CellError {
	var ce *sandbox.CellError
	if !errors.As(res.Err(), &ce) {
		return nil
	}
	e := &CellError{Name: ce.Class, Message: ce.Message, Traceback: ce.Traceback}
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

var sizeRE = regexp.MustCompile(`^<p>([\d,]+) rows × ([\d,]+) columns</p>$`)

// parseFrame reads the HTML table award_data.Frame renders (its text/html
// form, written by award_data/render.go: one tag per line) into columns
// and records. It returns nil for any other HTML. The table holds at most
// the first and last 10 rows and 20 columns of a frame; Truncated says
// when the frame has more than the records, or more than maxRows.
func parseFrame(h string, maxRows int) *Frame {
	const head = "<div>\n<table class=\"dataframe\""
	if !strings.HasPrefix(h, head) {
		return nil
	}
	f := &Frame{Index: []int{}, Records: []map[string]any{}}
	var (
		rows     [][]string
		cells    []string
		inHead   = true
		headCols = 0 // <th> cells seen in the header, the index's included
		gap      = -1
		label    = ""
		inRow    = false
		sawGap   = false
	)
	for line := range strings.Lines(h) {
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "</thead>":
			inHead = false
		case inHead:
			if v, ok := cut(line, "<th>", "</th>"); ok {
				headCols++
				switch {
				case headCols == 1: // the index column
				case v == "...":
					gap = len(f.Columns)
				default:
					f.Columns = append(f.Columns, html.UnescapeString(v))
				}
			}
		case line == "<tr>":
			inRow, label, cells, sawGap = true, "", cells[:0], false
		case line == "</tr>":
			inRow = false
			idx, err := strconv.Atoi(strings.ReplaceAll(label, ",", ""))
			if err != nil {
				continue // the "…" row between the head and the tail
			}
			if len(cells) != len(f.Columns) {
				return nil
			}
			if len(rows) < maxRows {
				f.Index = append(f.Index, idx)
				rows = append(rows, append([]string(nil), cells...))
			}
		case inRow && strings.HasPrefix(line, "<th>"):
			label, _ = cut(line, "<th>", "</th>")
			label = html.UnescapeString(label)
		case inRow && strings.HasPrefix(line, "<td"):
			left := strings.HasPrefix(line, `<td style="text-align: left;">`)
			v, ok := cut(line[strings.IndexByte(line, '>')+1:], "", "</td>")
			if !ok {
				return nil
			}
			if gap >= 0 && !sawGap && len(cells) == gap {
				sawGap = true // the elided columns' "..." cell
				continue
			}
			if f.Numeric == nil {
				f.Numeric = make([]bool, len(f.Columns))
				for j := range f.Numeric {
					f.Numeric[j] = true
				}
			}
			if j := len(cells); j < len(f.Numeric) && left {
				f.Numeric[j] = false
			}
			cells = append(cells, html.UnescapeString(v))
		default:
			if m := sizeRE.FindStringSubmatch(line); m != nil {
				f.Rows, f.TotalColumns = atoiGrouped(m[1]), atoiGrouped(m[2])
			}
		}
	}
	if f.TotalColumns == 0 && len(f.Columns) > 0 {
		return nil
	}
	if f.Numeric == nil {
		f.Numeric = make([]bool, len(f.Columns))
	}
	for _, cells := range rows {
		rec := make(map[string]any, len(cells))
		for j, c := range cells {
			rec[f.Columns[j]] = cellValue(c, f.Numeric[j])
		}
		f.Records = append(f.Records, rec)
	}
	f.Truncated = len(f.Records) < f.Rows || len(f.Columns) < f.TotalColumns
	return f
}

// cut returns the text between prefix and suffix of s.
func cut(s, prefix, suffix string) (string, bool) {
	if !strings.HasPrefix(s, prefix) || !strings.HasSuffix(s, suffix) || len(s) < len(prefix)+len(suffix) {
		return "", false
	}
	return s[len(prefix) : len(s)-len(suffix)], true
}

// cellValue converts one rendered cell: an empty cell is a null (frames
// render nulls empty, and empty CSV fields are stored as nulls); numeric
// cells become JSON numbers, and NaN or an infinity, which JSON cannot
// hold, become null.
func cellValue(c string, numeric bool) any {
	if c == "" {
		return nil
	}
	if !numeric {
		return c
	}
	c = strings.ReplaceAll(c, ",", "")
	percent := false
	if p, ok := strings.CutSuffix(c, "%"); ok {
		c, percent = p, true // award_data shows shares as percentages
	}
	n, err := strconv.ParseFloat(c, 64)
	if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
		return nil
	}
	if percent {
		// Divide in decimal: 19.2% is 0.192, not 0.19199999999999998.
		r, ok := new(big.Rat).SetString(c)
		if !ok {
			return nil
		}
		f, _ := r.Quo(r, big.NewRat(100, 1)).Float64()
		return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
	}
	return json.Number(strconv.FormatFloat(n, 'f', -1, 64))
}

func atoiGrouped(s string) int {
	n, _ := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
	return n
}
