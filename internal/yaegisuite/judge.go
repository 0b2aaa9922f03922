package yaegisuite

import (
	"fmt"
	"sort"
	"strings"
)

// Class is how a test or a _test program did.
type Class string

// The classes of Verdict. Pass, Stderr, AsGc and Refuses count as passing;
// Refuses and Fail are listed in UPSTREAM_FAILURES.
const (
	Pass    Class = "pass"    // upstream's own check passes
	Stderr  Class = "stderr"  // the output matches with stdout and stderr merged: println on stderr, as gc (patch 1)
	AsGc    Class = "gc"      // upstream's check fails, but the program behaves exactly as gc runs it
	Refuses Class = "refuses" // an "// Error:" program refused, as gc refuses it, with another message
	Fail    Class = "fail"
	Skip    Class = "skip" // skipped by upstream's test (no Output block, -short, ...)
)

// Passes reports whether c counts as a pass: the program behaves as
// upstream's test expects or as gc runs it.
func (c Class) Passes() bool { return c == Pass || c == Stderr || c == AsGc || c == Refuses }

// Listed reports whether a verdict of class c needs a line in
// UPSTREAM_FAILURES: it fails upstream's check and does not behave exactly
// as gc.
func (c Class) Listed() bool { return c == Refuses || c == Fail }

// Verdict is the judgement of one test.
type Verdict struct {
	Class  Class
	Detail string // why it does not pass
}

// filePrefix names the subtests of upstream's TestFile: one per _test program.
const filePrefix = "TestFile/"

// IsProgram reports whether a test name is a _test program's.
func IsProgram(test string) bool { return strings.HasPrefix(test, filePrefix) }

// Judge classifies every test of a run that has no subtests (a parent's
// result is its subtests'). A _test program that fails upstream's check is
// compared with its recorded streams, then with gc (goRun builds and runs
// it; called only for those).
func Judge(r *Run, goRun func(name string) (GoRun, error)) (map[string]Verdict, error) {
	v := map[string]Verdict{}
	for test, action := range r.Tests {
		if r.Parents[test] {
			continue
		}
		switch {
		case action == "pass":
			v[test] = Verdict{Class: Pass}
		case action == "skip":
			v[test] = Verdict{Class: Skip}
		case !IsProgram(test):
			v[test] = Verdict{Class: Fail, Detail: failureLine(r.Output[test])}
		default:
			name := strings.TrimPrefix(test, filePrefix)
			p := r.Programs[name]
			if p == nil {
				v[test] = Verdict{Class: Fail, Detail: "not recorded: " + failureLine(r.Output[test])}
				continue
			}
			if !p.WantErr && p.Err == "" && p.Merged == p.Want {
				v[test] = Verdict{Class: Stderr}
				continue
			}
			gc, err := goRun(name)
			if err != nil {
				return nil, err
			}
			v[test] = judgeAgainstGc(p, gc)
		}
	}
	return v, nil
}

// judgeAgainstGc compares a program that failed upstream's check with gc.
func judgeAgainstGc(p *Program, gc GoRun) Verdict {
	gcOK := gc.Compiled && gc.Status == 0
	if p.WantErr && !gcOK {
		if p.Err == "" {
			return Verdict{Class: Fail, Detail: "runs; gc refuses it: " + firstLine(gc.Stderr)}
		}
		return Verdict{Class: Refuses, Detail: fmt.Sprintf("yaegi: %q; gc: %q", firstLine(p.Err), gcError(gc))}
	}
	var diffs []string
	if ok := p.Err == ""; ok != gcOK {
		if ok {
			diffs = append(diffs, "runs to the end; gc: "+gcError(gc))
		} else {
			diffs = append(diffs, fmt.Sprintf("fails: %q; gc: %s", firstLine(p.Err), gcError(gc)))
		}
	}
	if p.Stdout != gc.Stdout {
		diffs = append(diffs, fmt.Sprintf("stdout %q, gc %q", clip(p.Stdout, 60), clip(gc.Stdout, 60)))
	}
	if gcOK && p.Stderr != gc.Stderr {
		diffs = append(diffs, fmt.Sprintf("stderr %q, gc %q", clip(p.Stderr, 60), clip(gc.Stderr, 60)))
	}
	if len(diffs) == 0 {
		return Verdict{Class: AsGc}
	}
	return Verdict{Class: Fail, Detail: strings.Join(diffs, "; ")}
}

func gcError(gc GoRun) string {
	if !gc.Compiled {
		return "does not compile: " + firstLine(strings.TrimPrefix(gc.Stderr, "# command-line-arguments\n"))
	}
	if gc.Status == 0 {
		return "exit 0"
	}
	for _, l := range strings.Split(gc.Stderr, "\n") {
		if strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "fatal error: ") {
			return fmt.Sprintf("exit %d, %s", gc.Status, l)
		}
	}
	return fmt.Sprintf("exit %d", gc.Status)
}

// failureLine picks the line of a failed test's output that says why.
func failureLine(out string) string {
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "=== ") || strings.HasPrefix(l, "--- ") {
			continue
		}
		return clip(l, 200)
	}
	return "(no output)"
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return clip(s, 160)
}

// Counts sums verdicts by class over the tests that pick selects.
func Counts(v map[string]Verdict, pick func(test string) bool) map[Class]int {
	n := map[Class]int{}
	for test, x := range v {
		if pick(test) {
			n[x.Class]++
		}
	}
	return n
}

// passing is the number of passing verdicts in n.
func passing(n map[Class]int) int { return n[Pass] + n[Stderr] + n[AsGc] + n[Refuses] }

// judged is the number of verdicts that were not skips.
func judged(n map[Class]int) int {
	t := 0
	for c, k := range n {
		if c != Skip {
			t += k
		}
	}
	return t
}

// Summary is the sentence PATCHES.md carries: how the two trees did.
func Summary(up, pa map[string]Verdict) string {
	others := func(t string) bool { return !IsProgram(t) }
	upP, paP := Counts(up, IsProgram), Counts(pa, IsProgram)
	upO, paO := Counts(up, others), Counts(pa, others)
	return fmt.Sprintf("Upstream's _test programs (go test -short ./interp, Go toolchain of the run): "+
		"v0.16.1 passes %d of %d, the patched copy %d: %d by upstream's own check, %d with println's output on stderr as gc writes it, "+
		"%d as gc runs them where the Output block records yaegi's old behaviour, %d refused as gc refuses them but with another message than the Error block's; "+
		"%d fail. Upstream's other interp tests: v0.16.1 passes %d of %d, the patched copy %d.",
		passing(upP), judged(upP), passing(paP), paP[Pass], paP[Stderr], paP[AsGc], paP[Refuses],
		paP[Fail], passing(upO), judged(upO), passing(paO))
}

// Known is a line of UPSTREAM_FAILURES: a test that does not pass on the
// patched copy, its class and its cause.
type Known struct {
	Class Class
	Cause string
}

// ParseKnown reads UPSTREAM_FAILURES: "<test> <fail|refuses> <cause>" per
// line; # starts a comment line.
func ParseKnown(text string) (map[string]Known, error) {
	known := map[string]Known{}
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.SplitN(line, " ", 3)
		if len(f) < 3 || (f[1] != string(Fail) && f[1] != string(Refuses)) {
			return nil, fmt.Errorf("line %d: want \"<test> <fail|refuses> <cause>\", got %q", i+1, line)
		}
		if _, dup := known[f[0]]; dup {
			return nil, fmt.Errorf("line %d: %s is listed twice", i+1, f[0])
		}
		known[f[0]] = Known{Class: Class(f[1]), Cause: f[2]}
	}
	return known, nil
}

// RegressionPrefix starts the cause of a listed test that v0.16.1 passes.
const RegressionPrefix = "regression:"

// Check compares the verdicts of both trees with the list of known
// failures and returns what is wrong, one problem per element.
func Check(up, pa map[string]Verdict, known map[string]Known) []string {
	var problems []string
	for _, test := range sortedKeys(pa) {
		v := pa[test]
		if !v.Class.Listed() {
			continue
		}
		k, listed := known[test]
		regression := v.Class == Fail && up[test].Class.Passes()
		switch {
		case !listed:
			what := ""
			if regression {
				what = " (v0.16.1 passes it: a regression)"
			}
			problems = append(problems, fmt.Sprintf("%s %s: %s%s: not in UPSTREAM_FAILURES", test, v.Class, v.Detail, what))
		case k.Class != v.Class:
			problems = append(problems, fmt.Sprintf("%s is listed as %s but is %s: %s", test, k.Class, v.Class, v.Detail))
		case regression != strings.HasPrefix(k.Cause, RegressionPrefix):
			problems = append(problems, fmt.Sprintf("%s: its cause must start with %q exactly when it fails and v0.16.1 passes it (v0.16.1: %s)",
				test, RegressionPrefix, up[test].Class))
		}
	}
	for _, test := range sortedKeys(known) {
		if v, ok := pa[test]; !ok || !v.Class.Listed() {
			problems = append(problems, fmt.Sprintf("%s is listed in UPSTREAM_FAILURES but %s: remove its line", test, describe(v, ok)))
		}
	}
	// Each listed regression may cost a pass; nothing else may.
	regressions := 0
	for test, k := range known {
		if IsProgram(test) && strings.HasPrefix(k.Cause, RegressionPrefix) {
			regressions++
		}
	}
	upN, paN := passing(Counts(up, IsProgram)), passing(Counts(pa, IsProgram))
	if paN+regressions < upN {
		problems = append(problems, fmt.Sprintf("the patched copy passes %d _test programs, v0.16.1 %d: more than the %d listed regressions explain",
			paN, upN, regressions))
	}
	return problems
}

func describe(v Verdict, ok bool) string {
	if !ok {
		return "did not run"
	}
	return "is " + string(v.Class)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// FormatKnown writes UPSTREAM_FAILURES from today's verdicts, keeping the
// causes already written and writing the verdict's detail for new lines.
func FormatKnown(header string, up, pa map[string]Verdict, old map[string]Known) string {
	var b strings.Builder
	b.WriteString(header)
	for _, test := range sortedKeys(pa) {
		v := pa[test]
		if !v.Class.Listed() {
			continue
		}
		cause := v.Detail
		if k, ok := old[test]; ok {
			cause = k.Cause
		}
		regression := v.Class == Fail && up[test].Class.Passes()
		cause = strings.TrimSpace(strings.TrimPrefix(cause, RegressionPrefix))
		if regression {
			cause = RegressionPrefix + " " + cause
		}
		fmt.Fprintf(&b, "%s %s %s\n", test, v.Class, strings.ReplaceAll(cause, "\n", " "))
	}
	return b.String()
}

// AgainstGc compares every recorded program that has an "// Output:"
// block with the same program built by gc, stream by stream: the check
// upstream's TestInterpConsistencyBuild makes, which the full run
// replaces. Keys are test names (TestFile/NAME).
func AgainstGc(r *Run, goRun func(name string) (GoRun, error)) (map[string]Verdict, error) {
	v := map[string]Verdict{}
	for _, name := range sortedKeys(r.Programs) {
		p := r.Programs[name]
		if p.WantErr {
			continue
		}
		gc, err := goRun(name)
		if err != nil {
			return nil, err
		}
		v[filePrefix+name] = judgeAgainstGc(p, gc)
	}
	return v, nil
}
