package testenv

import (
	"strings"
	"testing"
	"time"
)

func TestParseSlow(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		err  bool
	}{
		{"", 1, false},
		{"1", 1, false},
		{"3", 3, false},
		{"2.5", 2.5, false},
		{"0.5", 0, true},
		{"0", 0, true},
		{"-2", 0, true},
		{"fast", 0, true},
		{"Inf", 0, true},
		{"NaN", 0, true},
	} {
		got, err := parseSlow(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("parseSlow(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.err)
		}
		if err != nil && !strings.Contains(err.Error(), EnvSlow) {
			t.Errorf("parseSlow(%q): the error does not name %s: %v", tc.in, EnvSlow, err)
		}
	}
}

func TestScale(t *testing.T) {
	t.Setenv(EnvSlow, "2.5")
	if got := Scale(2 * time.Second); got != 5*time.Second {
		t.Errorf("Scale(2s) at 2.5 = %v, want 5s", got)
	}
	if got := Scale(333 * time.Millisecond); got != 833*time.Millisecond {
		t.Errorf("Scale(333ms) at 2.5 = %v, want 833ms (rounded to a millisecond)", got)
	}
	t.Setenv(EnvSlow, "")
	if got := Scale(time.Second); got != time.Second {
		t.Errorf("Scale(1s) by default = %v", got)
	}
	t.Setenv(EnvSlow, "x")
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(error).Error(), EnvSlow) {
			t.Errorf("Scale with %s=x: recovered %v, want a panic naming the variable", EnvSlow, r)
		}
	}()
	Scale(time.Second)
}
