package bytesize

import (
	"errors"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int64
		err  string
	}{
		{"1048576", 1 << 20, ""},
		{"1KB", 1000, ""},
		{"1kb", 1000, ""},
		{"1KiB", 1024, ""},
		{"1GB", 1e9, ""},
		{"1GiB", 1 << 30, ""},
		{" 500 MB ", 500e6, ""},
		{"1.5GiB", 3 << 29, ""},
		{"0", 0, ""},
		{"7B", 7, ""},
		{"7 bytes", 7, ""},
		{"1G", 0, "ambiguous"},
		{"1k", 0, "ambiguous"},
		{"1XB", 0, "unknown unit"},
		{"", 0, "want a number"},
		{"MB", 0, "want a number"},
		{"-1", 0, "want a number"},
		{"99999999999999999999", 0, "too large"},
		{"9000000000TiB", 0, "too large"},
		{"1.2.3KB", 0, "not a number"},
	} {
		got, err := Parse(tt.in)
		if tt.err != "" {
			if err == nil || !errors.Is(err, ErrSyntax) || !contains(err.Error(), tt.err) {
				t.Errorf("Parse(%q) = %d, %v; want an error containing %q", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Parse(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
}

func TestExactRoundTrips(t *testing.T) {
	for _, n := range []int64{0, 1, 999, 1000, 1024, 1024000, 100000, 1 << 30, 1e9, 3 << 29, 1500, 7e12} {
		s := Exact(n)
		back, err := Parse(s)
		if err != nil || back != n {
			t.Errorf("Parse(Exact(%d)=%q) = %d, %v", n, s, back, err)
		}
	}
	for n, want := range map[int64]string{1 << 20: "1 MiB", 100000: "100 KB", 1024000: "1000 KiB", 1500: "1500 bytes", 1 << 30: "1 GiB", 1e9: "1 GB"} {
		if got := Exact(n); got != want {
			t.Errorf("Exact(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestApprox(t *testing.T) {
	for n, want := range map[int64]string{12: "12 bytes", 1500: "1.5 KB", 394_100_000: "394.1 MB", 2_345_000_000: "2.35 GB"} {
		if got := Approx(n); got != want {
			t.Errorf("Approx(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestApproxIEC(t *testing.T) {
	for n, want := range map[int64]string{12: "12 bytes", 1536: "1.5 KiB", 283_430_912: "270.3 MiB", 3 << 30: "3.0 GiB", 1 << 40: "1.0 TiB"} {
		if got := ApproxIEC(n); got != want {
			t.Errorf("ApproxIEC(%d) = %q, want %q", n, got, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"1KB", "1.5 GiB", "99999999999999999999", "1e3", ".", "1.KB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := Parse(s)
		if err != nil {
			return
		}
		if n < 0 {
			t.Fatalf("Parse(%q) = %d < 0", s, n)
		}
		if back, err := Parse(Exact(n)); err != nil || back != n {
			t.Fatalf("Exact(%d) = %q does not round-trip: %d, %v", n, Exact(n), back, err)
		}
	})
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
