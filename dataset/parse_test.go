package dataset

import (
	"math"
	"testing"
	"time"
)

func TestParseAmount(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"148309.0000", 148309, true},
		{"171,433", 171433, true},
		{"$69,731.00", 69731, true},
		{" 1500 ", 1500, true},
		{"0", 0, true},
		{"-250.5", -250.5, true},
		{"$1,234,567.89", 1234567.89, true},
		{"", 0, false},
		{"N/A", 0, false},
		{"$", 0, false},
		{"12a", 0, false},
		{",123", 0, false},
		{"123,", 0, false},
		{"1.2.3", 0, false},
		{"1e5", 0, false},
	}
	for _, tt := range tests {
		got, _, ok := parseAmount([]byte(tt.in), nil)
		if ok != tt.ok || (ok && math.Abs(got-tt.want) > 1e-9) {
			t.Errorf("parseAmount(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestParseInt(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"2024", 2024, true},
		{" 12 ", 12, true},
		{"2024.0", 2024, true},
		{"-3", -3, true},
		{"9999", 9999, true},
		{"2024.5", 0, false},
		{"", 0, false},
		{"abc", 0, false},
		{"12 34", 0, false},
		{"+", 0, false},
		{"99999999999999999999", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseInt([]byte(tt.in))
		if ok != tt.ok || got != tt.want {
			t.Errorf("parseInt(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestParseDate(t *testing.T) {
	tests := []struct {
		in   string
		want string // YYYY-MM-DD, "" if invalid
	}{
		{"2024-05-07", "2024-05-07"},
		{"5/7/2024", "2024-05-07"},
		{"05/07/2024", "2024-05-07"},
		{"12/31/1999", "1999-12-31"},
		{"1905-07-01", "1905-07-01"},
		{"2024-02-29", "2024-02-29"},
		{"2024-05-07 00:00:00", "2024-05-07"},
		{"1970-01-01", "1970-01-01"},
		{"2023-02-29", ""},
		{"13/1/2024", ""},
		{"2024-13-01", ""},
		{"2024-00-10", ""},
		{"5/7/24", ""},
		{"2024/05/07", ""},
		{"May 7, 2024", ""},
		{"2024-05-07 10:30:00", ""},
		{"", ""},
	}
	for _, tt := range tests {
		got, ok := parseDate([]byte(tt.in))
		if tt.want == "" {
			if ok {
				t.Errorf("parseDate(%q) = %d, want failure", tt.in, got)
			}
			continue
		}
		want, _ := time.Parse(time.DateOnly, tt.want)
		if !ok || int64(got) != want.Unix()/86400 {
			t.Errorf("parseDate(%q) = %d, %v; want %d", tt.in, got, ok, want.Unix()/86400)
		}
	}
}

func TestCivilDaysRoundTrip(t *testing.T) {
	for d := int32(-800_000); d < 800_000; d += 37 {
		y, m, dd := CivilFromDays(d)
		if back := daysFromCivil(y, m, dd); back != d {
			t.Fatalf("day %d → %d-%d-%d → %d", d, y, m, dd, back)
		}
		want := time.Unix(int64(d)*86400, 0).UTC()
		if want.Year() != y || int(want.Month()) != m || want.Day() != dd {
			t.Fatalf("day %d → %d-%d-%d, time says %s", d, y, m, dd, want.Format(time.DateOnly))
		}
	}
}

// FuzzParseFields checks that the field parsers never panic and agree with
// the standard library on what they accept.
func FuzzParseFields(f *testing.F) {
	for _, s := range []string{"148309.0000", "$69,731.00", "5/7/2024", "2024-05-07", "2024.0", "", "N/A", "1,2,3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if v, _, ok := parseAmount([]byte(s), nil); ok && (math.IsNaN(v) || math.IsInf(v, 0)) {
			t.Errorf("parseAmount(%q) = %v", s, v)
		}
		parseInt([]byte(s))
		if d, ok := parseDate([]byte(s)); ok {
			y, m, dd := CivilFromDays(d)
			if m < 1 || m > 12 || dd < 1 || dd > daysIn(y, m) {
				t.Errorf("parseDate(%q) = invalid day %d-%d-%d", s, y, m, dd)
			}
		}
	})
}
