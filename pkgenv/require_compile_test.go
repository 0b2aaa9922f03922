package pkgenv

import (
	"strings"
	"testing"
)

// TestParseRequirementsKnowsCompile: the compile directive is not a
// misspelt requirement, and its own misspellings are reported as its.
func TestParseRequirementsKnowsCompile(t *testing.T) {
	if reqs, errs := ParseRequirements("//sbir:compile\nx := 1"); len(reqs) != 0 || len(errs) != 0 {
		t.Errorf("//sbir:compile: %v %v; want neither requirements nor errors", reqs, errs)
	}
	for code, want := range map[string]string{
		"//sbir:compile now\n":  "//sbir:compile takes no arguments",
		"// sbir:compile\n":     "a directive has no space after // (did you mean \"//sbir:compile\"?)",
		"//sbir:compiled\n":     "unknown directive; a cell asks to run compiled with //sbir:compile (did you mean \"//sbir:compile\"?)",
		"//sbir:requires a b\n": "requirements are declared with //sbir:require",
	} {
		_, errs := ParseRequirements(code)
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), want) {
			t.Errorf("%q: %v; want one error containing %q", code, errs, want)
		}
	}
}
