package main

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestWorkspaceBuildsWhatTheModuleDoes: go.work makes the patched copies
// under third_party main modules of a workspace, so that `go test work`
// runs their tests; but a workspace selects dependency versions over every
// main module's requirements, and an old requirement of a copy (zmq4's
// golang.org/x/text v0.15.0 did) can raise what the command is built with
// above what go.mod says. The binary built in the workspace must be made
// of the same module versions as the one built from go.mod alone
// (GOWORK=off, what a build outside this clone uses).
func TestWorkspaceBuildsWhatTheModuleDoes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list twice")
	}
	if _, err := os.Stat("go.work"); err != nil {
		t.Skipf("no go.work: %v", err)
	}
	// Modules of this repository (workspace modules, or replaced by a
	// directory) print as "local": only downloaded modules' versions count.
	const format = `{{with .Module}}{{.Path}} {{if or .Main .Replace}}local{{else}}{{.Version}}{{end}}{{end}}`
	deps := func(gowork string) string {
		cmd := exec.Command("go", "list", "-deps", "-f", format, ".")
		cmd.Env = append(os.Environ(), "GOWORK="+gowork, "GOFLAGS=")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("GOWORK=%q go list: %v\n%s", gowork, err, exitStderr(err))
		}
		return strings.Join(uniqueLines(string(out)), "\n")
	}
	work, mod := deps(""), deps("off")
	if work != mod {
		t.Errorf("the workspace builds other module versions than go.mod selects: raise the requirements of the module under third_party that pulls them in to go.mod's\nworkspace:\n%s\n\ngo.mod:\n%s", work, mod)
	}
}

// uniqueLines returns the distinct non-empty lines of s, sorted.
func uniqueLines(s string) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l != "" && !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return out
}

// exitStderr returns what a failed command wrote to standard error.
func exitStderr(err error) []byte {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.Stderr
	}
	return nil
}
