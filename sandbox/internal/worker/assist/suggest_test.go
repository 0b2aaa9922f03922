package assist

import "testing"

func TestSuggestMembers(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`line 1, column 1: package award_data "award_data" has no symbol Len`, `line 1, column 1: award_data.Len is not defined: package award_data has no symbol Len; did you mean Count?`},
		{`line 2, column 5: package strings "strings" has no symbol toUpper`, `line 2, column 5: strings.toUpper is not defined: package strings has no symbol toUpper; did you mean ToUpper?`},
		{`package fmt "fmt" has no symbol Printn`, `fmt.Printn is not defined: package fmt has no symbol Printn; did you mean Print or Printf?`},
		{`line 1, column 9: undefined selector: slices.Sortd`, `line 1, column 9: slices.Sortd is not defined: package slices has no symbol Sortd; did you mean Sort or Sorted?`},
		{`package strings "strings" has no symbol Zzzzzz`, `strings.Zzzzzz is not defined: package strings has no symbol Zzzzzz`},
		{`line 2, column 14: package json "encoding/json" has no symbol MarshalerError`, `line 2, column 14: json.MarshalerError is not available in cells: through it a cell could reach reflect or unsafe, which cells may not use; use another member of the package (for an error, its text: err.Error())`},
		{`undefined: x`, `undefined: x`},
	} {
		if got := SuggestMembers(c.in); got != c.want {
			t.Errorf("suggestMembers(%q)\n = %q\nwant %q", c.in, got, c.want)
		}
	}
}
