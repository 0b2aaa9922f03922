package textcut

import (
	"fmt"
	"testing"
	"unicode/utf8"
)

func TestPrefix(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"hello", 10, "hello"},
		{"hello", 5, "hello"},
		{"hello", 3, "hel"},
		{"hello", 0, ""},
		{"hello", -1, ""},
		{"héllo", 2, "h"}, // é is 2 bytes: not split
		{"héllo", 3, "hé"},
		{"日本", 4, "日"},
		{"日本", 2, ""},
		{"\xff\xfe", 1, "\xff"}, // invalid bytes are their own characters
	} {
		if got := Prefix(tc.s, tc.n); got != tc.want {
			t.Errorf("Prefix(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

func FuzzPrefix(f *testing.F) {
	f.Add("héllo wörld", 4)
	f.Fuzz(func(t *testing.T, s string, n int) {
		got := Prefix(s, n)
		if len(got) > max(n, 0) || got != s[:len(got)] {
			t.Fatalf("Prefix(%q, %d) = %q: not a prefix of at most n bytes", s, n, got)
		}
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("Prefix(%q, %d) = %q splits a character", s, n, got)
		}
		if n < len(s) && n > 0 && utf8.ValidString(s) && len(got) < n-utf8.UTFMax+1 {
			t.Fatalf("Prefix(%q, %d) = %q: cut more than one character short", s, n, got)
		}
	})
}

func ExamplePrefix() {
	fmt.Println(Prefix("naïve", 3))
	// Output: na
}
