package assist

import (
	"slices"
	"testing"
)

// TestOperandStart checks which tokens make up the operand before a dot.
func TestOperandStart(t *testing.T) {
	tests := []struct{ code, want string }{
		{`award_data.GroupBy("Agency")`, `award_data.GroupBy("Agency")`},
		{`x := award_data.Where("a.b", "==", f(1)).Sort("c")`, `award_data.Where("a.b", "==", f(1)).Sort("c")`},
		{`fmt.Println(df.Head(3)`, `df.Head(3)`},
		{`m["k"][0].X`, `m["k"][0].X`},
		{`(a.b).c`, `(a.b).c`},
		{`[]int{1}`, ``},
		{`f(1))`, ``},
		{`1 + x`, `x`},
	}
	for _, tc := range tests {
		toks := tokenize(tc.code)
		got := ""
		if i := operandStart(toks, len(toks)-1); i >= 0 {
			got = tc.code[toks[i].start:toks[len(toks)-1].end]
		}
		if got != tc.want {
			t.Errorf("operand of %q = %q, want %q", tc.code, got, tc.want)
		}
	}
}

// TestChainMembersStatic checks typing through compiled packages alone.
func TestChainMembersStatic(t *testing.T) {
	a := &Assistant{}
	tests := []struct {
		before string
		prefix string
		want   []string // among the members
		ok     bool
	}{
		{`award_data.GroupBy("Agency").Su`, "Su", []string{"Sum"}, true},
		{`award_data.Frame.`, "", []string{"Where", "GroupBy"}, true},
		{"f := award_data.Head(1)\ng := f.GroupBy(\"x\")\ng.", "", nil, false}, // one identifier: left to complete
		{`strings.NewReader("x").`, "", []string{"Read", "Len"}, true},
		{`time.Now().Add(time.Second).`, "", []string{"Unix", "Year"}, true},
		{`display.HTML("x")`, "", nil, false},
		{`unknown(1).X`, "X", nil, true},
	}
	for _, tc := range tests {
		prefix, members, ok := a.chainMembers(tc.before, nil, false)
		if ok != tc.ok || prefix != tc.prefix {
			t.Errorf("chainMembers(%q) = %q %v, want %q %v", tc.before, prefix, ok, tc.prefix, tc.ok)
		}
		for _, m := range tc.want {
			if !slices.Contains(members, m) {
				t.Errorf("chainMembers(%q) = %q, missing %q", tc.before, members, m)
			}
		}
	}
	// With idents, a variable assigned in the text is followed.
	if _, members, ok := a.chainMembers("f := award_data.Head(1)\ng := f.GroupBy(\"x\")\ng.", nil, true); !ok || !slices.Contains(members, "Share") {
		t.Errorf("assigned variable: %q %v", members, ok)
	}
	// A variable assigned from itself does not loop.
	if _, members, ok := a.chainMembers("x := x.F()\nx.", nil, true); ok && len(members) > 0 {
		t.Errorf("self-assignment: %q", members)
	}
}

// FuzzChain checks that typing arbitrary text never panics.
func FuzzChain(f *testing.F) {
	for _, s := range []string{
		`award_data.GroupBy("Agency").Sum`, "x := award_data.Head(1)\nx.", `a[1](2).b["c"].`, `((((`, `"unterminated.`,
		"x := x\nx.", `award_data.Frame.Where`, `strings.NewReplacer("a").Replace(`, "`raw.`.x", "m := map[string]int{}\nm[\"a\"].",
	} {
		f.Add(s, len(s))
	}
	a := &Assistant{}
	f.Fuzz(func(t *testing.T, code string, off int) {
		if off < 0 || off > len(code) {
			off = len(code)
		}
		a.chainMembers(code[:off], nil, true)
		a.chainMembers(code[:off], nil, false)
		a.inspectChain(code, off, nil, true)
	})
}
