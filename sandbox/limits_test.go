package sandbox

import "testing"

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"1048576", 1 << 20, true},
		{"100KB", 100000, true},
		{"100KiB", 100 << 10, true},
		{"1MiB", 1 << 20, true},
		{"2 GiB", 2 << 30, true},
		{"512M", 512 << 20, true},
		{"-1", 0, false},
		{"lots", 0, false},
		{"99999999999GiB", 0, false},
	}
	for _, tc := range tests {
		got, err := parseSize(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d, ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{1 << 20: "1 MiB", 1 << 30: "1 GiB", 100 << 10: "100 KiB", 100000: "100 KB", 1536: "1536 bytes", 10: "10 bytes"} {
		if got := formatBytes(n); got != want {
			t.Errorf("formatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestCellPositions(t *testing.T) {
	for in, want := range map[string]string{
		"_.go:3:5: undefined: x": "line 2, column 5: undefined: x",
		"2:1: panic":             "line 1, column 1: panic",
		"no position":            "no position",
	} {
		if got := cellPositions(in); got != want {
			t.Errorf("cellPositions(%q) = %q, want %q", in, got, want)
		}
	}
}
