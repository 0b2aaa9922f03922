package interp_test

import (
	"bytes"
	"testing"
)

// TestSbirInferFromCompiledCoreType checks sbir patch 71b: a type
// parameter constrained by ~[]E or ~map[K]V gives E (or K and V) when the
// argument is of a compiled type, such as the []string strings.Split
// returns or a url.Values; upstream reported "undefined type for E".
func TestSbirInferFromCompiledCoreType(t *testing.T) {
	var out bytes.Buffer
	i := newPatch51Interp(t, &out)
	src := `
import "net/url"

func Last[S ~[]E, E any](s S) E { return s[len(s)-1] }

func Keys[M ~map[K]V, K comparable, V any](m M) []K {
	var ks []K
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

func Deref[P ~*E, E any](p P) E { return *p }

func run() {
	fmt.Println(Last(strings.Split("a,b,c", ",")))
	fmt.Println(Keys(url.Values{"q": {"1"}}))
	u, _ := url.Parse("http://h.example/p")
	fmt.Println(Deref(u).Host)
	fmt.Printf("%T %T\n", Last(strings.Fields("x y")), Keys(url.Values{}))
}`
	if _, err := i.Eval(src); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval("run()"); err != nil {
		t.Fatal(err)
	}
	want := "c\n[q]\nh.example\nstring []string\n"
	if got := out.String(); got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}
