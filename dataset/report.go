package dataset

import (
	"fmt"
	"sort"
	"strings"
)

// FormatVersion is the version of the Arrow file layout written by Convert.
// It changes whenever the schema or the parsing rules change, so that
// cached Arrow files from older versions are rebuilt. Version 2 added the
// stored indexes (indexes.go) after the data columns, which are unchanged;
// version 3 stores the distinct values of the text dictionaries with them.
const FormatVersion = 3

// maxIssueExamples bounds how many skipped records a LoadReport keeps in
// detail; all of them are counted.
const maxIssueExamples = 100

// HeaderShape names the header layout a CSV used.
type HeaderShape string

// Header shapes recognised by Convert.
const (
	ShapeBulk42   HeaderShape = "bulk-42"   // the current bulk file: 42 columns, UEI, "Woman Owned"
	ShapeLegacy41 HeaderShape = "legacy-41" // older exports: 41 columns, no UEI, "Women Owned"
	ShapeOther    HeaderShape = "other"     // any other set of columns that includes the core ones
)

// LoadReport says what Convert did with a CSV and everything it could not
// represent exactly. It is stored as JSON in the Arrow file's schema
// metadata (see Dataset.Report).
type LoadReport struct {
	FormatVersion int         `json:"format_version"`
	HeaderShape   HeaderShape `json:"header_shape"`
	BOM           bool        `json:"bom"`         // the header started with a UTF-8 byte order mark
	CSVColumns    int         `json:"csv_columns"` // columns in the CSV header
	Columns       int         `json:"columns"`     // columns in the Arrow schema
	Bytes         int64       `json:"bytes"`       // bytes of CSV read
	Lines         int64       `json:"lines"`       // physical lines (a record may span several)
	Records       int64       `json:"records"`     // data records read, skipped ones included
	Rows          int64       `json:"rows"`        // rows in the Arrow file
	BlankLines    int64       `json:"blank_lines"` // empty lines between records, ignored
	Skipped       int64       `json:"skipped"`     // records skipped (see SkippedRecords)
	// SkippedRecords details the first skipped records.
	SkippedRecords []SkippedRecord `json:"skipped_records,omitempty"`
	// TruncatedLine is non-zero if the input ended in the middle of a
	// record: the last record, starting on this line, has too few fields and
	// no line end. It is skipped like any short record; for a download it
	// means the file was cut off.
	TruncatedLine int64 `json:"truncated_line,omitempty"`
	// InvalidUTF8Fields counts text fields in which invalid UTF-8 was
	// replaced; InvalidUTF8Bytes counts the bytes replaced by U+FFFD.
	InvalidUTF8Fields int64 `json:"invalid_utf8_fields"`
	InvalidUTF8Bytes  int64 `json:"invalid_utf8_bytes"`
	// MissingColumns are canonical columns absent from the CSV (all null).
	MissingColumns []string `json:"missing_columns,omitempty"`
	// RenamedColumns maps CSV header names to the canonical names they were
	// stored under, when they differ (e.g. "Women Owned" → "Woman Owned").
	RenamedColumns map[string]string `json:"renamed_columns,omitempty"`
	// ExtraColumns are CSV columns with unknown names, kept as utf8.
	ExtraColumns []string `json:"extra_columns,omitempty"`
	// ColumnIssues holds, per column, values that could not be stored as
	// read: unparseable numbers and dates (stored as null) and replaced
	// invalid UTF-8 (stored with U+FFFD).
	ColumnIssues map[string]*ColumnIssue `json:"column_issues,omitempty"`
}

// SkippedRecord is a record Convert left out of the Arrow file.
type SkippedRecord struct {
	Line   int64  `json:"line"`   // physical line where the record starts (1-based)
	Reason string `json:"reason"` // e.g. "41 fields, want 42"
}

// ColumnIssue counts the values of one column that could not be stored as
// read.
type ColumnIssue struct {
	Unparseable int64  `json:"unparseable,omitempty"`  // values stored as null
	InvalidUTF8 int64  `json:"invalid_utf8,omitempty"` // values with bytes replaced by U+FFFD
	FirstLine   int64  `json:"first_line"`             // line of the first occurrence
	FirstValue  string `json:"first_value"`            // the first offending value (as stored text)
}

func (r *LoadReport) skip(line int64, reason string) {
	r.Skipped++
	if len(r.SkippedRecords) < maxIssueExamples {
		r.SkippedRecords = append(r.SkippedRecords, SkippedRecord{Line: line, Reason: reason})
	}
}

// mergeColumn adds what one column's builder counted in a report of its
// own (see Convert) to r.
func (r *LoadReport) mergeColumn(c *LoadReport) {
	r.InvalidUTF8Fields += c.InvalidUTF8Fields
	r.InvalidUTF8Bytes += c.InvalidUTF8Bytes
	for name, ci := range c.ColumnIssues {
		if r.ColumnIssues == nil {
			r.ColumnIssues = make(map[string]*ColumnIssue)
		}
		r.ColumnIssues[name] = ci
	}
}

func (r *LoadReport) issue(col string, line int64, value []byte) *ColumnIssue {
	if r.ColumnIssues == nil {
		r.ColumnIssues = make(map[string]*ColumnIssue)
	}
	ci := r.ColumnIssues[col]
	if ci == nil {
		v := value
		if len(v) > 80 {
			v = v[:80]
		}
		ci = &ColumnIssue{FirstLine: line, FirstValue: strings.ToValidUTF8(string(v), "\uFFFD")}
		r.ColumnIssues[col] = ci
	}
	return ci
}

// Unparseable returns the total number of values stored as null because
// they could not be parsed, over all columns.
func (r *LoadReport) Unparseable() int64 {
	var n int64
	for _, ci := range r.ColumnIssues {
		n += ci.Unparseable
	}
	return n
}

// Summary returns a one-paragraph, human-readable account of the load:
// rows, skipped records, replaced bytes and unparseable values per column.
func (r *LoadReport) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s rows from %s records (%s header", groupDigits(r.Rows), groupDigits(r.Records), r.HeaderShape)
	if r.BOM {
		b.WriteString(", BOM")
	}
	b.WriteString(")")
	if r.Skipped > 0 {
		fmt.Fprintf(&b, "; %s records skipped", groupDigits(r.Skipped))
		if len(r.SkippedRecords) > 0 {
			s := r.SkippedRecords[0]
			fmt.Fprintf(&b, " (first at line %d: %s)", s.Line, s.Reason)
		}
	}
	if r.InvalidUTF8Bytes > 0 {
		fmt.Fprintf(&b, "; %s invalid UTF-8 bytes replaced in %s fields", groupDigits(r.InvalidUTF8Bytes), groupDigits(r.InvalidUTF8Fields))
	}
	if len(r.MissingColumns) > 0 {
		fmt.Fprintf(&b, "; missing columns (all null): %s", strings.Join(r.MissingColumns, ", "))
	}
	if len(r.ExtraColumns) > 0 {
		fmt.Fprintf(&b, "; extra columns kept as text: %s", strings.Join(r.ExtraColumns, ", "))
	}
	var cols []string
	for name, ci := range r.ColumnIssues {
		if ci.Unparseable > 0 {
			cols = append(cols, name)
		}
	}
	sort.Strings(cols)
	if len(cols) > 0 {
		b.WriteString("; unparseable values stored as null:")
		for i, name := range cols {
			ci := r.ColumnIssues[name]
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, " %s %s (first %q at line %d)", name, groupDigits(ci.Unparseable), ci.FirstValue, ci.FirstLine)
		}
	}
	return b.String()
}
