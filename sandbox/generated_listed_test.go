package sandbox_test

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// Divergences of generated programs that are found but not fixed yet are
// listed by seed in testdata/generated/LISTED_DIVERGENCES, each with its
// cause, so that the CI batch passes while they are open and fails on a
// new one. The list holds the CI batch's seeds (1..-gen.n's default); a
// larger run reports the divergences of seeds not listed, for docs/fidelity.md.
//
// A line is "<seed> <form> <class> <cause>". TestGeneratedPrograms fails
// when a divergence of the run is not listed with its class, and when a
// listed seed of the run passes in that form (its line must go, so that
// it is checked again). -gen.list rewrites the list from the run's
// results, keeping the causes already written.

const listedDivergences = "testdata/generated/LISTED_DIVERGENCES"

var genList = boolFlag("gen.list", "rewrite testdata/generated/LISTED_DIVERGENCES from TestGeneratedPrograms' results, keeping the causes written")

const listedHeader = `# Divergences of generated programs found and not fixed yet: "<seed> <form> <class> <cause>".
# TestGeneratedPrograms (sandbox/generated_test.go) fails on a divergence not listed here and on a
# listed seed that passes. -gen.list rewrites this file from a run, keeping the causes written.
# Totals and the large run: docs/fidelity.md.
`

// listedKey names one form of one program.
type listedKey struct {
	seed uint64
	form string
}

// listed is one line of LISTED_DIVERGENCES.
type listed struct {
	class, cause string
}

func loadListedDivergences(t *testing.T) map[listedKey]listed {
	t.Helper()
	f, err := os.Open(listedDivergences)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[listedKey]listed{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.SplitN(line, " ", 4)
		if len(fields) < 4 {
			t.Fatalf("%s:%d: want \"<seed> <form> <class> <cause>\", got %q", listedDivergences, n, line)
		}
		seed, err := strconv.ParseUint(fields[0], 10, 64)
		if err != nil {
			t.Fatalf("%s:%d: seed %q: %v", listedDivergences, n, fields[0], err)
		}
		if !isGenForm(fields[1]) {
			t.Fatalf("%s:%d: form %q: want file, cells or top", listedDivergences, n, fields[1])
		}
		out[listedKey{seed, fields[1]}] = listed{class: fields[2], cause: fields[3]}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func isGenForm(s string) bool {
	for _, f := range genForms {
		if f == s {
			return true
		}
	}
	return false
}

// checkListed reports each divergence that is not listed with its class
// and each listed form of the run's seeds that passes; it returns how
// many divergences were listed.
func checkListed(t *testing.T, cases []*genCase, list map[listedKey]listed) int {
	t.Helper()
	n := 0
	for _, c := range cases {
		for i, r := range c.results {
			k := listedKey{c.p.Seed, genForms[i]}
			l, ok := list[k]
			switch {
			case r.ok && ok:
				t.Errorf("%s: seed %d as %s passes now: remove its line", listedDivergences, k.seed, k.form)
			case r.ok:
			case ok && l.class == r.class:
				n++
			default:
				t.Errorf("seed %d as %s: %s: %s%s\n  reproduce: go test ./sandbox -run TestGeneratedPrograms -gen.seed=%d -gen.n=1 -gen.keep=/tmp/gen -v",
					c.p.Seed, genForms[i], r.class, r.cause, confirm(r), c.p.Seed)
			}
		}
	}
	return n
}

// writeListed rewrites LISTED_DIVERGENCES: the run's divergences, with
// the cause written for the seed before, else what was observed; lines of
// seeds outside the run are kept.
func writeListed(t *testing.T, cases []*genCase, list map[listedKey]listed) {
	t.Helper()
	inRun := map[uint64]bool{}
	for _, c := range cases {
		inRun[c.p.Seed] = true
		for i, r := range c.results {
			k := listedKey{c.p.Seed, genForms[i]}
			if r.ok {
				continue
			}
			cause := "observed: " + clip(r.cause) + confirm(r)
			if old, ok := list[k]; ok && !strings.HasPrefix(old.cause, "observed: ") {
				cause = old.cause
			}
			list[k] = listed{class: r.class, cause: strings.ReplaceAll(cause, "\n", " ")}
		}
	}
	var keys []listedKey
	for k := range list {
		keep := !inRun[k.seed]
		for _, c := range cases {
			if c.p.Seed == k.seed {
				keep = keep || !c.results[formIndex(k.form)].ok
			}
		}
		if keep {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].seed != keys[j].seed {
			return keys[i].seed < keys[j].seed
		}
		return formIndex(keys[i].form) < formIndex(keys[j].form)
	})
	var b strings.Builder
	b.WriteString(listedHeader)
	for _, k := range keys {
		fmt.Fprintf(&b, "%d %s %s %s\n", k.seed, k.form, list[k].class, list[k].cause)
	}
	if err := os.WriteFile(listedDivergences, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func formIndex(form string) int {
	for i, f := range genForms {
		if f == form {
			return i
		}
	}
	return -1
}
