package interp

import "testing"

// TestDiscardDebugInfo (sbir patch 4): with DiscardDebugInfo, repeated
// evaluations keep no syntax-tree roots and no child scopes, and still
// work; without it, the debugger's data is kept as before.
func TestDiscardDebugInfo(t *testing.T) {
	for _, discard := range []bool{true, false} {
		i := New(Options{DiscardDebugInfo: discard})
		if _, err := i.Eval("x := 40"); err != nil {
			t.Fatal(err)
		}
		for n := 0; n < 100; n++ {
			v, err := i.Eval("x + 2")
			if err != nil || v.Interface() != 42 {
				t.Fatalf("discard %v: %v %v", discard, v, err)
			}
		}
		scopes := 0
		for _, sc := range i.scopes {
			scopes += len(sc.child)
		}
		if discard && (len(i.roots) != 0 || scopes != 0 || len(i.universe.child) != 0) {
			t.Errorf("kept %d roots and %d child scopes", len(i.roots), scopes)
		}
		if !discard && len(i.roots) < 100 {
			t.Errorf("without the option, %d roots kept; the debugger needs them", len(i.roots))
		}
	}
}
