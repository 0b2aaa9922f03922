package worker_test

import (
	"strings"
	"testing"
	"time"
)

// importCase is a sequence of cells run in one session: every cell but
// the last must succeed, unless mayFail; the last one's stdout and its
// success or error are checked.
type importCase struct {
	name    string
	cells   []string
	mayFail bool   // earlier cells may fail
	stdout  string // the last cell's stdout
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
			ctx, s := startSession(t, 60*time.Second, 10*time.Second)
			for i, c := range tc.cells {
				res, err := s.Run(ctx, c, nil)
				if err != nil {
					t.Fatal(err)
				}
				if i < len(tc.cells)-1 {
					if !res.Success && !tc.mayFail {
						t.Fatalf("cell %d failed: %s: %s", i+1, res.ErrorName, res.ErrorMessage)
					}
					continue
				}
				if res.Stdout != tc.stdout {
					t.Errorf("stdout %q, want %q", res.Stdout, tc.stdout)
				}
				if tc.errName == "" {
					if !res.Success {
						t.Fatalf("last cell failed: %s: %s", res.ErrorName, res.ErrorMessage)
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

// TestOsExit pins os.Exit as go run behaves, within a session that
// survives it: output so far is kept, deferred functions do not run (nor
// can recover stop the exit), the cell reports the status, and the
// session keeps its variables.
func TestOsExit(t *testing.T) {
	const exited = "(the program called os.Exit or log.Fatal"
	runImportCases(t, []importCase{
		{name: "top-level, with a top-level defer",
			cells:   []string{"defer fmt.Println(\"deferred\")\nfmt.Println(\"a\")\nos.Exit(3)\nfmt.Println(\"b\")"},
			stdout:  "a\n",
			errName: "Exit", errMsg: "exit status 3 " + exited},
		{name: "a program: defers and recover do not run",
			cells:   []string{"package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tdefer fmt.Println(\"deferred\")\n\tdefer func() { fmt.Println(\"recovered\", recover()) }()\n\tfmt.Println(\"a\")\n\tos.Exit(4)\n}\n"},
			stdout:  "a\n",
			errName: "Exit", errMsg: "exit status 4 "},
		{name: "log.Fatal skips defers too",
			cells:   []string{"func f() {\n\tdefer fmt.Println(\"deferred\")\n\tlog.SetFlags(0)\n\tlog.Fatal(\"bad\")\n}\nf()"},
			errName: "Exit", errMsg: "exit status 1 "},
		{name: "in a goroutine",
			cells:   []string{"done := make(chan bool)\ngo func() { os.Exit(5) }()\n<-done"},
			errName: "Exit", errMsg: "exit status 5 "},
		{name: "the session keeps its variables",
			cells: []string{"x := 41", "x++\nos.Exit(1)", "fmt.Println(x)"}, mayFail: true,
			stdout: "42\n"},
	})
}

// TestLogPositionFlagsRefused: log.Lshortfile and log.Llongfile would
// print the interpreter's own file and line (value.go:586) instead of the
// cell's, so a logger asking for them is refused; other flags log.
func TestLogPositionFlagsRefused(t *testing.T) {
	const refused = "log.Lshortfile and log.Llongfile are not available to interpreted cells"
	runImportCases(t, []importCase{
		{name: "log.New", cells: []string{"l := log.New(os.Stdout, \"T: \", log.Lshortfile)\nl.Println(\"hi\")"},
			errName: "NotAllowed", errMsg: refused},
		{name: "log.SetFlags", cells: []string{"log.SetFlags(log.LstdFlags | log.Llongfile)"},
			errName: "NotAllowed", errMsg: refused},
		{name: "Logger.SetFlags", cells: []string{"l := log.New(os.Stdout, \"\", 0)\nl.SetFlags(log.Lshortfile)"},
			errName: "NotAllowed", errMsg: refused},
		{name: "other flags", cells: []string{"l := log.New(os.Stdout, \"T: \", 0)\nl.SetFlags(log.Lmsgprefix)\nl.Println(\"hi\")"},
			stdout: "T: hi\n"},
	})
}

// TestErrorsAsType pins errors.AsType, the generic member that source
// adds to the compiled errors package.
func TestErrorsAsType(t *testing.T) {
	runImportCases(t, []importCase{
		{name: "compiled and interpreted pointer types",
			cells: []string{
				"type ParseError struct{ Line int }\nfunc (e *ParseError) Error() string { return \"line \" + strconv.Itoa(e.Line) }",
				"err := fmt.Errorf(\"read: %w\", &ParseError{3})\npe, ok := errors.AsType[*ParseError](err)\n_, e2 := strconv.Atoi(\"z\")\nne, ok2 := errors.AsType[*strconv.NumError](fmt.Errorf(\"a: %w\", e2))\n_, ok3 := errors.AsType[*ParseError](e2)\n_, ok4 := errors.AsType[*ParseError](nil)\nfmt.Println(ok, pe.Line, ok2, ne.Num, ok3, ok4, errors.Is(e2, strconv.ErrSyntax))",
			},
			stdout: "true 3 true z false false true\n"},
	})
}

// TestErrorsAsValueType pins errors.As and errors.AsType for an
// interpreted error type with value receivers wrapped by %w (yaegi patch
// 11d), as the Go 1.26 documentation's example uses them.
func TestErrorsAsValueType(t *testing.T) {
	runImportCases(t, []importCase{
		{name: "value receiver",
			cells: []string{
				"type HTTPError struct {\n\tCode int\n\tMsg  string\n}\nfunc (e HTTPError) Error() string { return \"http \" + strconv.Itoa(e.Code) }",
				"err := fmt.Errorf(\"fetch: %w\", HTTPError{404, \"gone\"})\nvar he HTTPError\nok := errors.As(err, &he)\nh2, ok2 := errors.AsType[HTTPError](err)\nfmt.Println(ok, he.Code, he.Msg, ok2, h2.Code, h2.Msg)",
			},
			stdout: "true 404 gone true 404 gone\n"},
		{name: "method declared in a later cell than the type",
			cells: []string{
				"import (\n\t\"errors\"\n\t\"fmt\"\n\t\"strconv\"\n)\n\ntype HTTPError struct {\n\tCode int\n}",
				"func (e HTTPError) Error() string { return \"http \" + strconv.Itoa(e.Code) }\nfunc fetch() error { return fmt.Errorf(\"fetch: %w\", HTTPError{404}) }",
				"he, ok := errors.AsType[HTTPError](fetch())\nvar h2 HTTPError\nfmt.Println(ok, he.Code, errors.As(fetch(), &h2), h2.Code)",
			},
			stdout: "true 404 true 404\n"},
	})
}
