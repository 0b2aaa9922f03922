package cellprep

import (
	"go/token"
	"reflect"
	"strings"
	"testing"
)

// FuzzCombinedParse checks that parsing a cell's segments together gives
// exactly what parsing each alone gives: the same chunks, or the same
// error.
func FuzzCombinedParse(f *testing.F) {
	for _, s := range []string{
		"var a = 1\na++\nvar b = a\nb", "var a = 1; a++; const c = 2; a + c",
		"import \"fmt\"\nx := 1\nfunc f() int { return x }\nfmt.Println(f())",
		"type T struct{}\n// doc\nfunc (T) M() {}\nT{}.M()", "x := 1 /* c */; func g() {}; g()",
		"for i := 0; i < 3; i++ { defer f(i) }\nvar z = 2", "package main\nfunc main() {}\nvar q = 1",
		"L:\nfor {\n\tbreak L\n}\nvar w int", "x := `a\nb`\nvar y = x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		if len(code) > 4096 {
			return
		}
		a, errA := prepare(code, NewState(), true)
		b, errB := prepare(code, NewState(), false)
		if (errA == nil) != (errB == nil) || errA != nil && errA.Error() != errB.Error() {
			t.Fatalf("errors differ for %q:\ncombined: %v\nalone:    %v", code, errA, errB)
		}
		if errA == nil && !reflect.DeepEqual(a.Chunks, b.Chunks) {
			t.Fatalf("chunks differ for %q:\ncombined: %+v\nalone:    %+v", code, a.Chunks, b.Chunks)
		}
	})
}

// TestCombinedParseUsed checks that the alternating worst case takes the
// combined path (two parses), not one parse per segment.
func TestCombinedParseUsed(t *testing.T) {
	code := strings.Repeat("var a = 1\na++\n", 1000)
	segs, err := splitTopLevel(code)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := parseCombined(token.NewFileSet(), code, group(code, segs)); !ok {
		t.Fatal("the combined parse fell back to a parse per segment")
	}
}
