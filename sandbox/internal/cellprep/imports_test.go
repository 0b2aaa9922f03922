package cellprep

import (
	"errors"
	"strings"
	"testing"

	"github.com/sbirtools/sbir-kernel/pkgenv"
)

// fakeImports allows the paths it holds and refuses the others with a
// reason naming the path.
type fakeImports map[string]bool

func (f fakeImports) CheckImports(paths []string) error {
	for _, p := range paths {
		if !f[p] {
			return errors.New("package " + p + " is not in this session's packages")
		}
	}
	return nil
}

// TestThirdPartyImports checks that imports outside the allow-list are
// decided by the session's ImportChecker, and refused without one.
func TestThirdPartyImports(t *testing.T) {
	for _, tc := range []struct {
		name    string
		imports ImportChecker
		code    string
		wantErr string // "" for a cell that prepares
	}{
		{"no checker", nil, `import "example.com/stats"`, "this session declared none"},
		{"allowed by the checker", fakeImports{"example.com/stats": true}, `import "example.com/stats"`, ""},
		{"refused by the checker", fakeImports{}, `import "example.com/stats"`, "package example.com/stats is not in this session's packages"},
		{"standard package outside the allow-list", fakeImports{"os/exec": true}, `import "os/exec"`, "modules declared with " + pkgenv.Directive},
		{"allowed standard package", nil, `import "strings"`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := NewState()
			st.SetImports(tc.imports)
			_, err := Prepare(tc.code, st)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("Prepare(%q) = %v, want no error", tc.code, err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("Prepare(%q) = %v, want an error containing %q", tc.code, err, tc.wantErr)
			}
		})
	}
}

// TestRequireDirective keeps the directive the import errors name in step
// with the one pkgenv parses.
func TestRequireDirective(t *testing.T) {
	if requireDirective != pkgenv.Directive {
		t.Errorf("requireDirective = %q, pkgenv.Directive = %q", requireDirective, pkgenv.Directive)
	}
}
