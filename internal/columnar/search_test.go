package columnar

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// textVectorOf builds a text column (no nulls except for "\x00null") for
// search tests.
func textVectorOf(vals []string) *Vector {
	c := TextVector("T", vals)
	for i, v := range vals {
		if v == "\x00null" {
			c.SetNull(i)
		}
	}
	return c
}

// wantContains is the ground truth: regexp's (?i) literal match, which
// uses the same simple case folding.
func wantContains(vals []string, needle string) []int32 {
	re := regexp.MustCompile("(?i)" + regexp.QuoteMeta(needle))
	out := []int32{}
	for i, v := range vals {
		if v != "\x00null" && v != "" && re.MatchString(v) {
			out = append(out, int32(i))
		}
	}
	return out
}

func gotContains(vals []string, needle string, sel []int32) []int32 {
	c := textVectorOf(vals)
	s := Sel{N: c.N, All: sel == nil, List: sel}
	got := SearchRows(s, c, needle, true)
	if got == nil {
		got = []int32{}
	}
	return got
}

func TestContainsFold(t *testing.T) {
	vals := []string{
		"LIDAR system", "a LiDaR b", "lida r", "xlidarx", "", "\x00null", "li\ndar",
		"Kelvin", "\u212Aelvin", "KELVIN", "\u017Fensor", "SENSOR", "ſ",
		"straße", "STRASSE", "Ünïcödé", "ünïcödé", "ÜNÏCÖDÉ",
		"@lidar", "`lidar", "[x]", "{x}", "end lidar", "lidar",
		strings.Repeat("a", 40) + "LIDAR" + strings.Repeat("b", 40),
		strings.Repeat("lida", 20),
	}
	for _, needle := range []string{"lidar", "LIDAR", "l", "r", "kelvin", "k", "sensor", "s", "ß", "ünïcödé", "ÜNÏ", "[x]", "@", "`", "{", "lidar system", "a", "ar b", "é"} {
		t.Run(needle, func(t *testing.T) {
			want := wantContains(vals, needle)
			if got := gotContains(vals, needle, nil); !slices.Equal(got, want) {
				t.Errorf("all rows: got %v, want %v", got, want)
			}
			sel := []int32{1, 3, 8, 9, 10, 14, 17, 24}
			var wantSel []int32
			for _, r := range sel {
				if slices.Contains(want, r) {
					wantSel = append(wantSel, r)
				}
			}
			if wantSel == nil {
				wantSel = []int32{}
			}
			if got := gotContains(vals, needle, sel); !slices.Equal(got, wantSel) {
				t.Errorf("selection: got %v, want %v", got, wantSel)
			}
		})
	}
}

// TestContainsLarge exercises the parallel whole-buffer scan (over 1 MiB
// of text) with matches at row edges.
func TestContainsLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"the", "laser", "LiDAR", "li", "dar", "radar", "Kelvin", "\u212A", "ünï", "x", "\n"}
	vals := make([]string, 20000)
	for i := range vals {
		var b strings.Builder
		for n := rng.IntN(30); n > 0; n-- {
			b.WriteString(words[rng.IntN(len(words))])
			if rng.IntN(3) > 0 {
				b.WriteByte(' ')
			}
		}
		vals[i] = b.String()
		if rng.IntN(20) == 0 {
			vals[i] = "\x00null"
		}
	}
	for _, needle := range []string{"lidar", "li dar", "kelvin", "radar laser", "ÜNÏ", "x"} {
		want := wantContains(vals, needle)
		if got := gotContains(vals, needle, nil); !slices.Equal(got, want) {
			t.Errorf("%q: got %d rows, want %d", needle, len(got), len(want))
		}
	}
	// The exact (case-sensitive) scan used to prefilter regular expressions.
	tab := NewTable([]*Vector{textVectorOf(vals)}, false)
	for _, needle := range []string{"LiDAR", "li dar", "\u212A", "ünï"} {
		want := []int32{}
		for i, v := range vals {
			if v != "\x00null" && strings.Contains(v, needle) {
				want = append(want, int32(i))
			}
		}
		if got := SearchRows(Sel{N: tab.N, All: true}, tab.Cols[0], needle, false); !slices.Equal(got, want) {
			t.Errorf("exact %q: got %d rows, want %d", needle, len(got), len(want))
		}
	}
}

func FuzzContains(f *testing.F) {
	f.Add("LiDAR and radar", "lidar")
	f.Add("\u212Aelvin", "k")
	f.Add("ſ", "S")
	f.Add("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ", "jA")
	f.Fuzz(func(t *testing.T, text, needle string) {
		if needle == "" || !utf8Valid(text) || !utf8Valid(needle) {
			return
		}
		vals := strings.Split(text, "|")
		want := wantContains(vals, needle)
		if got := gotContains(vals, needle, nil); !slices.Equal(got, want) {
			t.Errorf("text %q needle %q: got %v, want %v", text, needle, got, want)
		}
	})
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

func TestPrefixSuffixFold(t *testing.T) {
	tests := []struct {
		s, affix string
		pre, suf bool
	}{
		{"Kelvin", "kel", true, false},
		{"\u212Aelvin", "KEL", true, false},
		{"straße", "STRA", true, false},
		{"Café", "CAFÉ", true, true},
		{"abc", "abcd", false, false},
		{"xyzAB", "ab", false, true},
		{"", "", true, true},
	}
	for _, tt := range tests {
		if got := HasPrefixFold([]byte(tt.s), tt.affix); got != tt.pre {
			t.Errorf("hasPrefixFold(%q, %q) = %v", tt.s, tt.affix, got)
		}
		if got := HasSuffixFold([]byte(tt.s), tt.affix); got != tt.suf {
			t.Errorf("hasSuffixFold(%q, %q) = %v", tt.s, tt.affix, got)
		}
	}
}

func TestRequiredLiteral(t *testing.T) {
	tests := []struct {
		pattern string
		lit     string
		fold    bool
	}{
		{"lidar", "lidar", false},
		{"(?i)lidar", "lidar", true},
		{`^\d+ (lidar) system$`, " system", false},
		{"lidar|radar", "", false},
		{"(lidar)?x", "x", false},
		{"(ab)+c", "ab", false},
		{"a{2,}", "a", false},
		{"a*", "", false},
		{"(", "", false},
	}
	for _, tt := range tests {
		lit, fold := RequiredLiteral(tt.pattern)
		if !strings.EqualFold(lit, tt.lit) || (!fold && lit != tt.lit) || (lit != "" && fold != tt.fold) {
			t.Errorf("requiredLiteral(%q) = %q, %v; want %q, %v", tt.pattern, lit, fold, tt.lit, tt.fold)
		}
	}
}
