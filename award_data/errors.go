package award_data

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/sbirtools/sbir-kernel/internal/textdist"
)

func quote(s string) string { return strconv.Quote(s) }

// An Error describes a bad request: an unknown column, a value of the wrong
// type for a column, an unknown operator. A Frame that carries an Error
// prints it instead of a table; methods that return plain Go values (Count,
// Sum, Strings, ...) panic with it, which a cell shows as its error.
//
// Example:
//
//	f := award_data.Where("Agncy", "==", "NASA")
//	if err := f.Err(); err != nil {
//		fmt.Println(err) // award_data: Where: unknown column "Agncy" (did you mean "Agency"?)
//	}
type Error struct {
	Op  string // the method that failed, e.g. "Where"
	Msg string // what was wrong and what to do
	Arg string // the argument that was wrong as given (e.g. "Agncy"), when one was; the kernel points at it
}

// Error returns the message prefixed with "award_data: " and the operation.
//
// Example:
//
//	err := award_data.Select("Nope").Err()
//	fmt.Println(err.Error())
func (e *Error) Error() string { return "award_data: " + e.Op + ": " + e.Msg }

func errorf(op, format string, args ...any) *Error {
	return &Error{Op: op, Msg: fmt.Sprintf(format, args...)}
}

// at records the argument the error is about.
func (e *Error) at(arg string) *Error {
	e.Arg = arg
	return e
}

// unknownColumn builds the error for a name that is not a column, with the
// closest names as suggestions.
func unknownColumn(op, name string, names []string) *Error {
	s := suggest(name, names, 3)
	msg := fmt.Sprintf("unknown column %q", name)
	if len(s) > 0 {
		msg += " (did you mean " + quoteList(s, " or ") + "?)"
	} else {
		msg += "; the columns are " + quoteList(names, ", ")
	}
	return &Error{Op: op, Msg: msg, Arg: name}
}

func quoteList(xs []string, sep string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, sep)
}

// suggest returns up to max names close to name: case-insensitive
// substring matches first, then small edit distances.
func suggest(name string, names []string, max int) []string {
	type cand struct {
		s string
		d int
	}
	low := strings.ToLower(strings.TrimSpace(name))
	var cs []cand
	for _, n := range names {
		ln := strings.ToLower(n)
		d := textdist.Levenshtein(low, ln)
		if low != "" && (strings.Contains(ln, low) || strings.Contains(low, ln)) {
			d = 0
		}
		limit := len(low)/3 + 1
		if d <= limit {
			cs = append(cs, cand{n, d})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
	var out []string
	for i := 0; i < len(cs) && i < max; i++ {
		out = append(out, cs[i].s)
	}
	return out
}

// stopWords are left out of acronyms: "National Aeronautics and Space
// Administration" is NASA.
var stopWords = map[string]bool{"and": true, "of": true, "the": true, "for": true, "on": true, "in": true, "&": true}

// acronyms returns the initials of s's words with and without stop words,
// lower case.
func acronyms(s string) []string {
	var all, some strings.Builder
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '-' || r == ',' || r == '/' }) {
		r := []rune(strings.ToLower(w))
		if len(r) == 0 {
			continue
		}
		all.WriteRune(r[0])
		if !stopWords[string(r)] {
			some.WriteRune(r[0])
		}
	}
	return []string{all.String(), some.String()}
}

// suggestValues returns up to max values close to v: equal ignoring case
// or spaces, an acronym of the value (NASA), then what suggest finds.
func suggestValues(v string, values []string, max int) []string {
	low := strings.ToLower(strings.Join(strings.Fields(v), " "))
	var out []string
	add := func(s string) {
		if len(out) < max && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	for _, s := range values {
		if strings.ToLower(strings.Join(strings.Fields(s), " ")) == low {
			add(s)
		}
	}
	if low != "" {
		for _, s := range values {
			if slices.Contains(acronyms(s), strings.ReplaceAll(low, ".", "")) {
				add(s)
			}
		}
	}
	if len(out) > 0 {
		return out // a match ignoring case or an acronym beats spelling guesses
	}
	for _, s := range suggest(v, values, max) {
		add(s)
	}
	return out
}
