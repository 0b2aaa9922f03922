package cellprep

import (
	"errors"
	"strings"
	"testing"
)

// TestTypeInTopLevelBlockRefused checks that a type declared in a block
// of a cell's top-level statements is refused, when the cell runs
// interpreted (Prepared.InterpreterOnly), with a message naming the
// type and the rewrite (the interpreter failed to compile the block's own
// uses of it, "undefined: U", or mixed it up with a declaration of the
// same name), while types at the top level and in functions are not.
func TestTypeInTopLevelBlockRefused(t *testing.T) {
	tests := []struct {
		name, code, refused string
	}{
		{"if body", "if true {\n\ttype U string\n\tfmt.Println(U(\"u\"))\n}", "type U declared inside a block"},
		{"for body", "for i := 0; i < 2; i++ {\n\ttype P struct{ N int }\n\tfmt.Println(P{i})\n}", "type P declared inside a block"},
		{"bare block", "{\n\ttype T int\n\tvar x T = 3\n\tfmt.Println(x)\n}", "type T declared inside a block"},
		{"switch case", "switch x := 1; x {\ncase 1:\n\ttype K string\n\tfmt.Println(K(\"k\"))\n}", "type K declared inside a block"},
		{"after statements", "x := 1\nif x > 0 {\n\t{\n\t\ttype W int\n\t\t_ = W(x)\n\t}\n}", "type W declared inside a block"},
		{"top level", "type T struct{ A int }\nfmt.Println(T{1})", ""},
		{"function literal", "g := func() { type V int; fmt.Println(V(2)) }\ng()", ""},
		{"function", "func f() {\n\tif true {\n\t\ttype U string\n\t\tfmt.Println(U(\"u\"))\n\t}\n}\nf()", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Prepare("import \"fmt\"\n"+tc.code, NewState())
			if err != nil {
				t.Fatalf("refused for gc too: %v", err)
			}
			// Refused only when the cell runs interpreted: gc builds it.
			if p.InterpreterOnly != nil {
				err = p.InterpreterOnly
			}
			var ce *CheckError
			switch {
			case tc.refused == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.refused != "" && !errors.As(err, &ce):
				t.Fatalf("got %v, want a CheckError", err)
			case tc.refused != "" && (!strings.Contains(err.Error(), tc.refused) || !strings.Contains(err.Error(), "move the block into a function")):
				t.Fatalf("error %q, want %q and the rewrite", err, tc.refused)
			}
		})
	}
}
