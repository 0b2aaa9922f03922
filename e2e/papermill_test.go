package e2e

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestE2ENotebookParameters checks the two ways to parameterize a Go
// notebook that the README documents, through nbclient (papermill's engine):
//
//   - the cell `papermill -l .net-csharp -p NAME VALUE` injects (papermill's
//     C# translator writes `var NAME = VALUE;`), which Go accepts for some
//     values only;
//   - the cell testdata/scripts/inject_go_parameters.py injects, in Go syntax.
//
// The expectations below are the README's table; a change in the kernel that
// changes one of them must change the README too.
func TestE2ENotebookParameters(t *testing.T) {
	requireNotebookClients(t)
	j := newJupyterEnv(t)
	j.install()

	const defaults = "agency=DOD year=2020 minAmount=100000.0 verbose=false\n"
	tests := []struct {
		name     string
		injector string // "--go-params" or "--csharp-params"
		params   map[string]any
		// wantStdout is the printing cell's output; wantErr, when set, is a
		// substring of the injected cell's error instead.
		wantStdout string
		wantErr    bool
	}{
		{
			name: "go: scalars keep the declared types", injector: "--go-params",
			params:     map[string]any{"agency": "NASA", "year": 2015, "minAmount": 150000, "verbose": true},
			wantStdout: "agency=NASA year=2015 minAmount=150000.0 verbose=true\n",
		},
		{
			name: "go: any string", injector: "--go-params",
			params:     map[string]any{"agency": "Agência \"Espacial\" \\ 🚀"},
			wantStdout: "agency=Agência \"Espacial\" \\ 🚀 year=2020 minAmount=100000.0 verbose=false\n",
		},
		{
			name: "go: lists and maps", injector: "--go-params",
			params:     map[string]any{"agencies": []string{"NASA", "DOD"}, "caps": map[string]float64{"NASA": 1.5}},
			wantStdout: defaults,
		},
		{
			name: "c#: ASCII strings, ints, floats and bools work", injector: "--csharp-params",
			params:     map[string]any{"agency": "NASA", "year": 2015, "minAmount": 150000.5, "verbose": true},
			wantStdout: "agency=NASA year=2015 minAmount=150000.5 verbose=true\n",
		},
		{
			name: "c#: quotes, backslashes and characters from U+0100 up are escaped validly", injector: "--csharp-params",
			params:     map[string]any{"agency": "Ω \"q\" \\ 🚀"},
			wantStdout: "agency=Ω \"q\" \\ 🚀 year=2020 minAmount=100000.0 verbose=false\n",
		},
		{
			name: "c#: an integer redeclares a float parameter as int", injector: "--csharp-params",
			params:     map[string]any{"minAmount": 150000},
			wantStdout: "agency=DOD year=2020 minAmount=%!f(int=150000) verbose=false\n",
		},
		{
			name: "c#: Latin-1 letters become invalid bytes", injector: "--csharp-params",
			params:     map[string]any{"agency": "Agência"},
			wantStdout: "agency=Ag\uFFFDncia year=2020 minAmount=100000.0 verbose=false\n",
		},
		{
			name: "c#: integers beyond 32 bits get an L suffix", injector: "--csharp-params",
			params:  map[string]any{"year": 5000000000},
			wantErr: true,
		},
		{
			name: "c#: lists are C# arrays", injector: "--csharp-params",
			params:  map[string]any{"agencies": []string{"NASA", "DOD"}},
			wantErr: true,
		},
		{
			name: "c#: dicts are C# dictionaries", injector: "--csharp-params",
			params:  map[string]any{"caps": map[string]int{"NASA": 1}},
			wantErr: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			params, _ := json.Marshal(tt.params)
			nb, res := j.runNotebook(t, "parameters", tt.injector, string(params))
			var injected nbCell
			for _, c := range nb.Cells {
				if c.ID != "cell-0" && c.ID != "cell-1" && c.ID != "cell-2" {
					injected = c
				}
			}
			if string(injected.Source) == "" {
				t.Fatalf("no injected cell in the executed notebook")
			}
			if tt.wantErr {
				if res.OK || injected.errorText() == "" {
					t.Errorf("injected cell\n%s\nran without an error: %s", injected.Source, injected.describe())
				}
				if out := nb.cell(t, "cell-2"); len(out.Outputs) != 0 {
					t.Errorf("the notebook went on after the bad parameters: %s", out.describe())
				}
				t.Logf("injected:\n%s\nerror: %s", injected.Source, firstLine(injected.errorText()))
				return
			}
			if !res.OK {
				t.Fatalf("injected cell\n%s\nfailed: %s\n%s", injected.Source, res.Error, injected.describe())
			}
			if got := nb.cell(t, "cell-2").stdout(); got != tt.wantStdout {
				t.Errorf("injected cell\n%s\nprinted %q, want %q", injected.Source, got, tt.wantStdout)
			}
		})
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
