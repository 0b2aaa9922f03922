package worker_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/sandbox"
)

// importCase is a sequence of cells run in one session: every cell but
// the last must succeed; the last one's stdout, or its error, is checked.
type importCase struct {
	name    string
	cells   []string
	stdout  string // the last cell's stdout, when it succeeds
	errName string // the last cell's error class, when it fails
	errMsg  string // a part of the last cell's error message
}

// runImportCases runs each case in a fresh session through a real worker.
func runImportCases(t *testing.T, cases []importCase) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a sandbox session per case")
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			l := sandbox.DefaultLimits()
			l.CellTimeout = 10 * time.Second
			s, err := sandbox.NewSession(ctx, sandbox.Options{Limits: l})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			for i, c := range tc.cells {
				res, err := s.Run(ctx, c, nil)
				if err != nil {
					t.Fatal(err)
				}
				if i < len(tc.cells)-1 {
					if !res.Success {
						t.Fatalf("cell %d failed: %s: %s", i+1, res.ErrorName, res.ErrorMessage)
					}
					continue
				}
				if tc.errName == "" {
					if !res.Success {
						t.Fatalf("last cell failed: %s: %s", res.ErrorName, res.ErrorMessage)
					}
					if res.Stdout != tc.stdout {
						t.Errorf("stdout %q, want %q", res.Stdout, tc.stdout)
					}
					return
				}
				if res.Success || res.ErrorName != tc.errName || !strings.Contains(res.ErrorMessage, tc.errMsg) {
					t.Errorf("got success=%v %s: %s; want %s containing %q", res.Success, res.ErrorName, res.ErrorMessage, tc.errName, tc.errMsg)
				}
			}
		})
	}
}

// TestPreimportedNamesGiveWay pins that the packages a session imports
// for the user behave as if the cell's file had not imported them: the
// user's own names and imports win, in that cell and later ones, while an
// explicit import followed by a clashing declaration is Go's error.
func TestPreimportedNamesGiveWay(t *testing.T) {
	runImportCases(t, []importCase{
		{name: "variable named like a package",
			cells:  []string{"type wc struct{ w string }\nvar list []wc\nlist = append(list, wc{\"a\"})", "fmt.Println(len(list), list[0].w)"},
			stdout: "1 a\n"},
		{name: "math/rand/v2 beside the pre-imported math/rand",
			cells:  []string{"import \"math/rand/v2\"\nr := rand.New(rand.NewPCG(1, 2))", "fmt.Println(r.IntN(10), rand.N(5) < 5)"},
			stdout: "7 true\n"},
		{name: "math/rand/v2 renamed; functions forwarded to compiled code return their results",
			cells:  []string{"import mr \"math/rand/v2\"\nvar seed [32]byte\nfmt.Println(mr.NewChaCha8(seed) != nil, len(mr.Perm(4)))"},
			stdout: "true 4\n"},
		{name: "a whole program declaring a package's name",
			cells:  []string{"package main\n\nimport \"fmt\"\n\nvar strings = []string{\"x\"}\n\nfunc main() { fmt.Println(strings) }\n"},
			stdout: "[x]\n"},
		{name: "explicit import, then a clashing declaration",
			cells:   []string{"import \"container/list\"\nl := list.New()\n_ = l", "var list []int"},
			errName: "CompileError", errMsg: "list redeclared in this block"},
	})
}

// TestUnknownNames pins the messages for names that do not exist.
func TestUnknownNames(t *testing.T) {
	runImportCases(t, []importCase{
		{name: "award_data member with a did-you-mean",
			cells:   []string{"award_data.Len()"},
			errName: "CompileError", errMsg: "award_data.Len is not defined: package award_data has no symbol Len; did you mean Count?"},
		{name: "undefined name at top level",
			cells:   []string{"x := 1\ny := undefinedThing + x"},
			errName: "CompileError", errMsg: "undefined: undefinedThing"},
	})
}
