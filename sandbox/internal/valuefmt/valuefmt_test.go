package valuefmt

import (
	"errors"
	"math/big"
	"strings"
	"testing"
)

type money float64

func (m money) MIMEBundle() map[string]any {
	return map[string]any{"text/plain": "$1.00", "text/html": "<b>$1.00</b>"}
}

func TestPlain(t *testing.T) {
	huge := new(big.Int).Lsh(big.NewInt(1), 1<<21)
	for _, tc := range []struct {
		name string
		v    any
		want string
	}{
		{"nil", nil, "<nil>"},
		{"string quoted", "a\tb", `"a\tb"`},
		{"int", 42, "42"},
		{"error as text", errors.New("boom"), "boom"},
		{"struct", struct {
			A int
			B string
		}{1, "x"}, "{1 x}"},
		{"long slice shortened", make([]int, 150), "[0 0 0"},
		{"long map named", bigMap(150), "map of 150 entries (map[int]int)"},
		{"huge big.Int named", huge, "-bit big.Int, too large to show>"},
	} {
		if got := Plain(tc.v); !strings.Contains(got, tc.want) {
			t.Errorf("%s: Plain = %q; want it to contain %q", tc.name, got, tc.want)
		}
	}
	if got := Plain(make([]int, 150)); !strings.HasSuffix(got, " … (50 more; 150 in all)]") {
		t.Errorf("a 150-element slice ends %q", got[len(got)-30:])
	}
	if got := Plain(strings.Repeat("x", 2*MaxBytes)); len(got) > MaxBytes+8 {
		t.Errorf("a %d-byte string renders as %d bytes; the bound is %d", 2*MaxBytes, len(got), MaxBytes)
	}
}

func bigMap(n int) map[int]int {
	m := map[int]int{}
	for i := range n {
		m[i] = i
	}
	return m
}

func TestBundle(t *testing.T) {
	if b := Bundle(nil); b != nil {
		t.Errorf("Bundle(no values) = %v; want nil", b)
	}
	if b := Bundle([]any{nil, nil}); b != nil {
		t.Errorf("Bundle(nil, nil) = %v; want nil (a nil error is not worth showing)", b)
	}
	if b := Bundle([]any{3, errors.New("e")}); b["text/plain"] != "3 e" {
		t.Errorf("two values: %v", b)
	}
	b := Bundle([]any{money(1)})
	if b["text/html"] != "<b>$1.00</b>" || b["text/plain"] != "$1.00" {
		t.Errorf("a Bundler's own types: %v", b)
	}
}
