package assist

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// maxValueMatches bounds the category values one completion offers.
const maxValueMatches = 50

// whereValue matches the value string being typed in a Where call on a
// column: .Where("Agency", "==", "Nat, or an element of a list for "in":
// .Where("State", "in", []string{"CA", "M.
var whereValue = regexp.MustCompile(`\.Where\(\s*"([^"\n]+)"\s*,\s*"[^"\n]*"\s*,\s*(?:\[\]string\{(?:\s*"[^"\n]*"\s*,)*\s*)?"([^"\n]*)$`)

// completeValue answers a completion inside the value string of a Where
// on a category column: the column's values that start with the typed
// text, then those that contain it or whose initials it is (NASA), each
// with its closing quote.
func (a *Assistant) completeValue(code, before string) (wire.Completion, bool) {
	m := whereValue.FindStringSubmatch(before)
	if m == nil {
		return wire.Completion{}, false
	}
	values, ok := a.categoryValues(m[1])
	if !ok {
		return wire.Completion{}, false
	}
	typed := m[2]
	low := strings.ToLower(typed)
	var first, then []string
	for _, v := range values {
		lv := strings.ToLower(v)
		switch {
		case strings.HasPrefix(lv, low):
			first = append(first, v)
		case len(low) >= 3 && strings.Contains(lv, low), len(typed) >= 2 && strings.EqualFold(initials(v), typed):
			then = append(then, v)
		}
	}
	slices.Sort(first)
	slices.Sort(then)
	out := append(first, then...)
	if len(out) > maxValueMatches {
		out = out[:maxValueMatches]
	}
	for i, v := range out {
		out[i] = strconv.Quote(v)[1:] // escaped, with the closing quote
	}
	cur := utf8.RuneCountInString(before)
	end := cur
	if strings.HasPrefix(code[len(before):], `"`) {
		end++ // the quote an editor closed already is replaced
	}
	return wire.Completion{Matches: out, Start: cur - utf8.RuneCountInString(typed), End: end}, true
}

// initials returns the first letters of the capitalised words of s:
// "National Aeronautics and Space Administration" gives "NASA".
func initials(s string) string {
	var b strings.Builder
	for _, f := range strings.Fields(s) {
		if r, _ := utf8.DecodeRuneInString(f); unicode.IsUpper(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// categoryValues returns the distinct values of a dictionary-encoded
// column of the data, or false for any other column.
func (a *Assistant) categoryValues(column string) ([]string, bool) {
	if vs, ok := a.categories[column]; ok {
		return vs, vs != nil
	}
	if a.data == nil {
		return nil, false
	}
	if a.categories == nil {
		a.categories = map[string][]string{}
	}
	rec := a.data.Record()
	idx := rec.Schema().FieldIndices(column)
	var values []string
	if len(idx) == 1 {
		if d, ok := rec.Column(idx[0]).(*array.Dictionary); ok {
			if s, ok := d.Dictionary().(*array.String); ok {
				values = make([]string, 0, s.Len())
				for i := 0; i < s.Len(); i++ {
					if s.IsValid(i) && s.Value(i) != "" {
						values = append(values, s.Value(i))
					}
				}
			}
		}
	}
	a.categories[column] = values
	return values, values != nil
}
