package interp_test

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
)

// updateIntTier rewrites testdata/inttier_random.golden from go run.
var updateIntTier = flag.Bool("inttier.update", false, "record go run's output of the int tier's random programs in testdata/inttier_random.golden")

// intTierSeeds is how many generated programs TestSbirIntTierRandomFunctions
// runs; testdata/inttier_random.golden holds gc's output for each.
const intTierSeeds = 200

// TestSbirIntTierRandomFunctions runs generated programs whose functions
// the int tier (sbir patch S9) compiles: random expressions of every
// operation it compiles over edge values (the least and greatest ints,
// -1, 0, shift counts of 63 and 64 and negative ones, divisors that are
// zero), ifs, bounded loops with break and continue, parallel
// assignments, and calls of the functions declared before. Each program
// prints every function's result, or the panic it raised, for a set of
// arguments. The output must be gc's: testdata/inttier_random.golden
// holds the SHA-256 of go run's output for each seed (-inttier.update
// records it again, with a Go toolchain); and some function must have
// run in the tier. The interpreter without the tier is not the
// reference: the generator found programs it answered wrongly (patches
// 110 and 113).
func TestSbirIntTierRandomFunctions(t *testing.T) {
	golden := filepath.Join("testdata", "inttier_random.golden")
	want := map[int]string{}
	if *updateIntTier {
		want = recordIntTierGolden(t, golden)
	} else {
		want = readIntTierGolden(t, golden)
	}
	for seed := 1; seed <= intTierSeeds; seed++ {
		src := newIntGen(uint64(seed)).program()
		i, out, errs := intTierInterp(t, true)
		if _, err := i.Eval(src); err != nil {
			t.Errorf("seed %d: %v\n%s\nprogram:\n%s", seed, err, errs.String(), src)
			continue
		}
		if interp.IntTierFunctions(i) == 0 {
			t.Errorf("seed %d: no function ran in the int tier\nprogram:\n%s", seed, src)
		}
		if got := outputHash(out.String()); got != want[seed] {
			t.Errorf("seed %d: output differs from go run's (%s, want %s): compare with go run\noutput:\n%s\nprogram:\n%s", seed, got, want[seed], out.String(), src)
		}
	}
}

func outputHash(out string) string {
	sum := sha256.Sum256([]byte(out))
	return hex.EncodeToString(sum[:])
}

// readIntTierGolden reads "seed hash" lines.
func readIntTierGolden(t *testing.T, path string) map[int]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var seed int
		var hash string
		if _, err := fmt.Sscan(line, &seed, &hash); err != nil {
			t.Fatalf("%s: %q: %v", path, line, err)
		}
		want[seed] = hash
	}
	if len(want) != intTierSeeds {
		t.Fatalf("%s has %d seeds, want %d: run with -inttier.update", path, len(want), intTierSeeds)
	}
	return want
}

// recordIntTierGolden runs every program with go run and writes the
// hashes of their outputs to path.
func recordIntTierGolden(t *testing.T, path string) map[int]string {
	t.Helper()
	dir := t.TempDir()
	want := map[int]string{}
	var b strings.Builder
	for seed := 1; seed <= intTierSeeds; seed++ {
		file := filepath.Join(dir, "main.go")
		if err := os.WriteFile(file, []byte(newIntGen(uint64(seed)).program()), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("go", "run", file).Output()
		if err != nil {
			var stderr []byte
			if e, ok := err.(*exec.ExitError); ok {
				stderr = e.Stderr
			}
			t.Fatalf("seed %d: go run: %v\n%s", seed, err, stderr)
		}
		want[seed] = outputHash(string(out))
		fmt.Fprintf(&b, "%d %s\n", seed, want[seed])
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return want
}

// intGen writes programs of int functions for the random test.
type intGen struct {
	r     *rand.Rand
	b     strings.Builder
	vars  []string // the int variables in scope
	bools []string // the bool variables in scope
	funcs int      // functions declared so far
	n     int      // names given so far
	loops int      // loops around the statement being written
	calls int      // calls written in the function
}

func newIntGen(seed uint64) *intGen {
	return &intGen{r: rand.New(rand.NewSource(int64(seed)))}
}

// intEdges are the constants the expressions use.
var intEdges = []string{"0", "1", "-1", "2", "3", "7", "63", "64", "-64", "1 << 62", "-(1 << 62)", "math.MaxInt64", "math.MinInt64"}

func (g *intGen) pick(n int) int { return g.r.Intn(n) }

func (g *intGen) name(prefix string) string {
	g.n++
	return fmt.Sprintf("%s%d", prefix, g.n)
}

// program writes four or five functions and a main calling each with
// several arguments, printing results and recovered panics.
func (g *intGen) program() string {
	g.b.WriteString("package main\nimport (\"fmt\"; \"math\")\nvar _ = math.MaxInt64\n")
	nf := 4 + g.pick(2)
	for k := 0; k < nf; k++ {
		g.function()
	}
	g.b.WriteString(`func try(f func() int) (s string) {
	defer func() {
		if p := recover(); p != nil { s = fmt.Sprint("panic: ", p) }
	}()
	return fmt.Sprint(f())
}
func main() {
	args := []int{0, 1, -1, 5, 64, -7, 1000003, math.MaxInt64, math.MinInt64}
	for _, a := range args {
		for _, b := range args[:5] {
`)
	for k := 0; k < nf; k++ {
		fmt.Fprintf(&g.b, "\t\t\tfmt.Println(%d, a, b, try(func() int { return f%d(a, b, a^b) }))\n", k, k)
	}
	g.b.WriteString("\t\t}\n\t}\n}\n")
	return g.b.String()
}

// function writes func fK(a, b, c int) int.
func (g *intGen) function() {
	fmt.Fprintf(&g.b, "func f%d(a, b, c int) int {\n", g.funcs)
	g.vars, g.bools, g.loops, g.calls = []string{"a", "b", "c"}, nil, 0, 0
	for k := 1 + g.pick(5); k > 0; k-- {
		g.stmt(1, 2)
	}
	fmt.Fprintf(&g.b, "\treturn %s\n}\n", g.expr(3))
	g.funcs++
}

// stmt writes a statement at the given indentation, nesting at most depth
// more blocks.
func (g *intGen) stmt(indent, depth int) {
	tab := strings.Repeat("\t", indent)
	switch k := g.pick(10); {
	case k < 3:
		v := g.name("x")
		fmt.Fprintf(&g.b, "%s%s := %s\n%s_ = %s\n", tab, v, g.expr(3), tab, v)
		g.vars = append(g.vars, v)
	case k < 4:
		v := g.name("t")
		fmt.Fprintf(&g.b, "%s%s := %s\n%s_ = %s\n", tab, v, g.boolExpr(2), tab, v)
		g.bools = append(g.bools, v)
	case k < 5:
		// The only operations that may panic are these statements' (of
		// a variable by a variable) and calls: Go orders the panics of
		// calls, not those of operators within one expression.
		ops := []string{"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "&^="}
		op, rhs := ops[g.pick(len(ops))], g.expr(2)
		if strings.ContainsAny(op, "/%<>") {
			rhs = g.variable()
		}
		fmt.Fprintf(&g.b, "%s%s %s %s\n", tab, g.assignable(), op, rhs)
	case k < 6:
		x, y := g.assignable(), g.assignable()
		fmt.Fprintf(&g.b, "%s%s, %s = %s, %s\n", tab, x, y, g.expr(2), g.expr(2))
	case k < 7 && depth > 0:
		fmt.Fprintf(&g.b, "%sif %s {\n", tab, g.boolExpr(2))
		g.block(indent+1, depth-1)
		if g.pick(2) == 0 {
			fmt.Fprintf(&g.b, "%s} else {\n", tab)
			g.block(indent+1, depth-1)
		}
		fmt.Fprintf(&g.b, "%s}\n", tab)
	case k < 8 && depth > 0:
		i := g.name("i")
		fmt.Fprintf(&g.b, "%sfor %s := 0; %s < %d; %s++ {\n", tab, i, i, 1+g.pick(6), i)
		g.vars = append(g.vars, i)
		g.loops++
		g.block(indent+1, depth-1)
		g.loops--
		g.vars = g.vars[:len(g.vars)-1]
		fmt.Fprintf(&g.b, "%s}\n", tab)
	case k < 9 && g.loops > 0:
		word := []string{"break", "continue"}[g.pick(2)]
		fmt.Fprintf(&g.b, "%sif %s {\n%s\t%s\n%s}\n", tab, g.boolExpr(1), tab, word, tab)
	default:
		fmt.Fprintf(&g.b, "%sif %s {\n%s\treturn %s\n%s}\n", tab, g.boolExpr(1), tab, g.expr(2), tab)
	}
}

// block writes one to three statements whose declarations end with it.
func (g *intGen) block(indent, depth int) {
	vars, bools := len(g.vars), len(g.bools)
	for k := 1 + g.pick(3); k > 0; k-- {
		g.stmt(indent, depth)
	}
	g.vars, g.bools = g.vars[:vars], g.bools[:bools]
}

func (g *intGen) variable() string { return g.vars[g.pick(len(g.vars))] }

// assignable returns a variable that is not a loop's counter (which an
// assignment could keep from ending).
func (g *intGen) assignable() string {
	for {
		if v := g.variable(); v[0] != 'i' {
			return v
		}
	}
}

// expr writes an int expression nested at most depth deep, which may be
// a constant.
func (g *intGen) expr(depth int) string {
	if (depth == 0 || g.pick(4) == 0) && g.pick(3) == 0 {
		return intEdges[g.pick(len(intEdges))]
	}
	return g.varExpr(depth)
}

// varExpr writes an int expression nested at most depth deep that is not
// a constant: a constant operation that overflows does not compile, and
// an untyped constant shifted takes its type from its context.
func (g *intGen) varExpr(depth int) string {
	if depth == 0 || g.pick(4) == 0 {
		return g.variable()
	}
	switch k := g.pick(12); {
	case k < 7:
		ops := []string{"+", "-", "*", "/", "%", "&", "|", "^", "&^", "<<", ">>"}
		op := ops[g.pick(len(ops))]
		rhs := g.expr(depth - 1)
		// No operator in an expression panics (see stmt); a constant
		// divisor of zero or negative shift count would not compile.
		switch op {
		case "/", "%":
			rhs = "(" + g.varExpr(depth-1) + " | 1)"
		case "<<", ">>":
			rhs = "(" + g.varExpr(depth-1) + " & 127)"
			if g.pick(4) == 0 {
				rhs = []string{"0", "1", "63", "64", "65"}[g.pick(5)]
			}
		}
		return "(" + g.varExpr(depth-1) + " " + op + " " + rhs + ")"
	case k < 9:
		// Not -(x): the interpreter fails "-(x) > y && ..." with "call
		// of reflect.Value.Bool on int Value" (docs/fidelity.md).
		op, x := []string{"-", "^", "+"}[g.pick(3)], g.varExpr(depth-1)
		if strings.ContainsAny(x[:1], "-^+") {
			return op + "(" + x + ")" // not --x
		}
		return op + x
	case k < 11 && g.funcs > 0 && g.calls < 2:
		// At most two calls a function, of functions declared before,
		// with arguments that call nothing: the work stays small.
		g.calls++
		saved := g.funcs
		g.funcs = 0
		defer func() { g.funcs = saved }()
		return fmt.Sprintf("f%d(%s, %s, %s)", g.pick(saved), g.expr(depth-1), g.expr(depth-1), g.expr(depth-1))
	}
	return g.variable()
}

// boolExpr writes a bool expression nested at most depth deep.
func (g *intGen) boolExpr(depth int) string {
	if depth == 0 || g.pick(3) == 0 {
		if len(g.bools) > 0 && g.pick(3) == 0 {
			return g.bools[g.pick(len(g.bools))]
		}
		ops := []string{"==", "!=", "<", "<=", ">", ">="}
		return g.varExpr(1) + " " + ops[g.pick(len(ops))] + " " + g.expr(1)
	}
	switch g.pick(3) {
	case 0:
		return "!(" + g.boolExpr(depth-1) + ")"
	case 1:
		return "(" + g.boolExpr(depth-1) + " && " + g.boolExpr(depth-1) + ")"
	}
	return "(" + g.boolExpr(depth-1) + " || " + g.boolExpr(depth-1) + ")"
}
