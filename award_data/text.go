package award_data

import (
	"errors"
	"regexp"
	"strings"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// textColumn looks up a text or category column for op.
func (f Frame) textColumn(op, column string) (*columnar.Vector, error) {
	c, err := f.lookup(op, column)
	if err != nil {
		return nil, err
	}
	if !c.Textual() {
		return nil, wrongType(op, c, "text or category", "")
	}
	return c, nil
}

// WordCounts counts the words of a text column over f's rows: one row
// per word ("Word", "Count"), most frequent first (ties alphabetically).
// A word is a run of letters and digits, lower-cased, as pandas'
// df[column].str.lower().str.findall(r"[^\W_]+").explode().value_counts()
// finds them; punctuation separates words. It runs in compiled code over
// the column's bytes, split across processors.
//
// Example:
//
//	award_data.Where("Agency", "==", "Department of Defense").WordCounts("Abstract").Head(10)
func (f Frame) WordCounts(column string) Frame {
	if f.err != nil {
		return f
	}
	c, err := f.textColumn("WordCounts", column)
	if err != nil {
		return errFrame(err)
	}
	counts := columnar.CountWords(f.sel(), c)
	words := make([]string, len(counts))
	n := make([]int64, len(counts))
	for i, wc := range counts {
		words[i], n[i] = wc.Word, wc.Count
	}
	return frameOf(columnar.NewTable([]*columnar.Vector{
		columnar.TextVector("Word", words),
		{Name: "Count", Kind: columnar.KindInt, N: len(n), Ints: n, AggName: "Count"},
	}, false))
}

// WordCounts counts the words of a text column over all awards. See
// Frame.WordCounts.
//
// Example:
//
//	award_data.WordCounts("Award Title").Head(10)
func WordCounts(column string) Frame { return All().WordCounts(column) }

// mapText replaces a text column with fn of its values.
func (f Frame) mapText(op, column string, fn func(string) string) Frame {
	if f.err != nil {
		return f
	}
	c, err := f.textColumn(op, column)
	if err != nil {
		return errFrame(err)
	}
	rows := f.rowList()
	return f.withColumn(columnar.MapText(c, rows, fn), rows)
}

// Lower returns f with a text or category column in lower case, as
// pandas' str.lower() (the column keeps its name and place).
//
// Example:
//
//	award_data.Lower("Company").Where("Company", "prefix", "quantum").Count()
func (f Frame) Lower(column string) Frame { return f.mapText("Lower", column, strings.ToLower) }

// Upper returns f with a text or category column in upper case, as
// pandas' str.upper().
//
// Example:
//
//	award_data.Head(3).Upper("City").Select("City")
func (f Frame) Upper(column string) Frame { return f.mapText("Upper", column, strings.ToUpper) }

// Extract adds the first match of a Go regular expression in a text
// column (its first parenthesised group when it has one, else the whole
// match; null without a match), as pandas' str.extract(pattern). Add
// (?i) to ignore case. The column is named "<column> (extract)".
//
// Example:
//
//	award_data.Extract("Contact Email", `@(.+)$`).ValueCounts("Contact Email (extract)").Head(5)
func (f Frame) Extract(column, pattern string) Frame {
	const op = "Extract"
	if f.err != nil {
		return f
	}
	c, err := f.textColumn(op, column)
	if err != nil {
		return errFrame(err)
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return errFrame(errorf(op, "bad regular expression %q: %v", pattern, err))
	}
	rows := f.rowList()
	return f.withColumn(columnar.Extract(derivedName(c.Name, "extract"), c, rows, re), rows)
}

// Explode returns one row per piece of a text column split at sep (at
// runs of white space when sep is ""), the other columns repeated, as
// pandas' df.assign(c=df[c].str.split(sep)).explode(c). A null gives one
// row with a null. The result is a new frame of at most 4,194,304 rows:
// Select the columns you need first (to count words over many rows,
// WordCounts needs no rows at all).
//
// Example:
//
//	award_data.Head(2).Select("Company", "Award Title").Explode("Award Title", " ").Head(5)
func (f Frame) Explode(column, sep string) Frame {
	const op = "Explode"
	if f.err != nil {
		return f
	}
	c, err := f.textColumn(op, column)
	if err != nil {
		return errFrame(err)
	}
	rows := f.rowList()
	from, pieces, err := columnar.SplitText(c.Name, c, rows, sep, maxBuildRows)
	if errors.Is(err, columnar.ErrTooManyPieces) {
		return errFrame(errorf(op, "the pieces make more than %d rows; filter rows first, or count words with WordCounts(%q)", maxBuildRows, c.Name))
	}
	src := make([]int32, len(from))
	for k, p := range from {
		src[k] = rows[p]
	}
	if err := f.gatherFits(op, len(src)); err != nil {
		return errFrame(err)
	}
	cols := make([]*columnar.Vector, 0, len(f.cols))
	for _, ci := range f.cols {
		if v := f.t.Cols[ci]; v == c {
			cols = append(cols, pieces)
		} else {
			cols = append(cols, columnar.Gather(v, src))
		}
	}
	return frameOf(columnar.NewTable(cols, false))
}

// gatherFits refuses to copy f's columns to n rows when they would take
// more than half the session's memory (see joinFits).
func (f Frame) gatherFits(op string, n int) error {
	return joinFits(op, f, Frame{}, nil, n, false)
}

// Lower returns all awards with a text column in lower case. See
// Frame.Lower.
//
// Example:
//
//	award_data.Lower("Company").ValueCounts("Company").Head(5)
func Lower(column string) Frame { return All().Lower(column) }

// Upper returns all awards with a text column in upper case. See
// Frame.Upper.
//
// Example:
//
//	award_data.Upper("City").ValueCounts("City").Head(5)
func Upper(column string) Frame { return All().Upper(column) }

// Extract adds the first match of a regular expression in a text column
// over all awards. See Frame.Extract.
//
// Example:
//
//	award_data.Extract("Contact Email", `@(.+)$`).ValueCounts("Contact Email (extract)").Head(5)
func Extract(column, pattern string) Frame { return All().Extract(column, pattern) }
