package interp_test

import (
	"bytes"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestSbirRecoverAtTopLevel checks sbir patch 82: recover called by a
// statement Eval runs at the top level (no function around it) returns
// nil, as recover does where nothing panics; it dereferenced the global
// frame's missing caller.
func TestSbirRecoverAtTopLevel(t *testing.T) {
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{
		`import "fmt"`,
		`if r := recover(); r != nil { fmt.Println("recovered", r) }`,
		`fmt.Println("after", recover())`,
		`var r any = recover()`,
		`fmt.Println(r == nil)`,
	} {
		if _, err := i.Eval(src); err != nil {
			t.Fatalf("Eval(%q): %v", src, err)
		}
	}
	if got, want := out.String(), "after <nil>\ntrue\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}
