package progen

import (
	"fmt"
	"go/constant"
	"math/rand/v2"
	"sort"
	"strings"
)

// gen is the state of one program's generation.
type gen struct {
	r       *rand.Rand
	opts    Options
	imports map[string]bool
	decls   []string
	used    map[string]int
	names   int // names handed out

	types   []*typ // named types declared, structs and others
	ifaces  []*typ // interfaces declared
	funcs   []*fn  // functions callable from later code
	globals *scope
	generic genericSet

	// features is this program's share of the constructs: each family is
	// on or off per program, so that programs differ in what they stress.
	features map[string]bool

	budget int // statements left for the program
	fn     *fnCtx
	// marks lists the variables read since generation began, so that an
	// expression or statement given up can take its reads back.
	marks []*variable
}

// read records that the text being written reads v (gc requires each
// local to be read).
func (g *gen) read(v *variable) {
	if !v.used {
		v.used = true
		g.marks = append(g.marks, v)
	}
}

// attempt runs try; when it gives up, the reads it recorded are undone.
func (g *gen) attempt(try func() bool) bool {
	mark := len(g.marks)
	if try() {
		return true
	}
	for _, v := range g.marks[mark:] {
		v.used = false
	}
	g.marks = g.marks[:mark]
	return false
}

// fn is a declared function.
type fn struct {
	name    string
	params  []*typ
	results []*typ // zero, one or two
	cost    int    // statements run by a call, roughly (fnCtx.cost)
}

// variable is a name in scope.
type variable struct {
	name     string
	t        *typ
	readOnly bool // loop counters: assigning them could make a loop run forever
	nonEmpty bool // a slice or string that always has an element
	used     bool
	local    bool // declared in a function body (must be used)
	// c is the value of a constant (declared with const).
	c       constant.Value
	untyped bool
	isRune  bool
}

// scope is a block of declarations.
type scope struct {
	vars   []*variable
	parent *scope
}

// fnCtx is what the generator knows about the function it is writing.
type fnCtx struct {
	results   []*typ
	named     []*variable // named results
	loops     int         // enclosing loops
	labels    []string    // labels of enclosing loops, innermost last
	labelUsed map[string]bool
	noOrder   bool // inside a map range or goroutine: no output, nothing order-dependent
	inClosure int
	isMain    bool
	depth     int
	// mult is how many times the statement being written may run per call
	// of the function (the product of the enclosing loops' bounds), and
	// cost what the function's statements and calls add up to so far:
	// calls are refused past callCostLimit, so that nested loops over
	// functions with loops stay small.
	mult, cost int
}

// callCostLimit bounds mult × cost of a call.
const callCostLimit = 300

// multiplier returns the current statement's repeat estimate.
func (g *gen) multiplier() int {
	if g.fn == nil || g.fn.mult == 0 {
		return 1
	}
	return g.fn.mult
}

// affordable reports whether calling f here stays within callCostLimit.
func (g *gen) affordable(f *fn) bool { return g.multiplier()*(f.cost+1) <= callCostLimit }

// charge adds a call of f to the function being written.
func (g *gen) charge(f *fn) {
	if g.fn != nil {
		g.fn.cost += g.multiplier() * (f.cost + 1)
	}
}

// repeat runs write for a loop that runs up to n times per pass.
func (g *gen) repeat(n int, write func()) {
	saved := g.multiplier()
	g.fn.mult = saved * max(n, 1)
	write()
	g.fn.mult = saved
}

// funcLitBody runs write for the body of a function literal written in
// the current function: no loop of the enclosing function to break or
// continue, and the same cost accounting.
func (g *gen) funcLitBody(noOrder bool, write func()) {
	loops, no := g.fn.loops, g.fn.noOrder
	g.fn.loops = 0
	g.fn.inClosure++
	g.fn.noOrder = no || noOrder
	write()
	g.fn.loops, g.fn.noOrder = loops, no
	g.fn.inClosure--
}

// Generate returns the program of a seed.
func Generate(seed uint64, opts Options) *Program {
	g := &gen{
		r:       rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)),
		opts:    opts,
		imports: map[string]bool{"fmt": true},
		used:    map[string]int{},
		globals: &scope{},
	}
	g.pickFeatures()
	g.budget = 15 + g.r.IntN(35)
	g.declareTypes()
	g.declareConsts()
	g.declareGlobals()
	g.declareGenerics()
	g.declareFuncs()
	body := g.mainBody()

	p := &Program{Seed: seed, Decls: g.decls, Body: body, Used: g.used}
	text := strings.Join(g.decls, "") + body
	for path := range g.imports {
		// Generation may have dropped the expression that imported it.
		name := path[strings.LastIndex(path, "/")+1:]
		if strings.Contains(text, name+".") {
			p.Imports = append(p.Imports, path)
		}
	}
	sort.Strings(p.Imports)
	return p
}

// families are switched on or off per program (pickFeatures).
var families = []string{
	"ints", "floats", "strings", "slices", "maps", "structs", "methods", "interfaces",
	"closures", "defer", "switch", "labels", "ranges", "generics", "goroutines", "consts", "panics",
}

func (g *gen) pickFeatures() {
	g.features = map[string]bool{}
	for _, f := range families {
		g.features[f] = g.r.IntN(100) < 55
	}
	g.features["ints"] = true
}

// on reports whether a family is on and a construct not avoided.
func (g *gen) on(family, construct string) bool {
	if family != "" && !g.features[family] {
		return false
	}
	return construct == "" || !g.opts.Avoid[construct]
}

// use records that the program contains a construct.
func (g *gen) use(construct string) {
	if _, ok := constructDocs[construct]; !ok {
		panic("progen: undocumented construct " + construct)
	}
	g.used[construct]++
}

// name returns a fresh name with the given prefix.
func (g *gen) name(prefix string) string {
	g.names++
	return fmt.Sprintf("%s%d%s", prefix, g.names, g.opts.Suffix)
}

// mentions reports whether text uses the identifier name.
func mentions(text, name string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return false
		}
		end := i + j + len(name)
		if end == len(text) || !isIdentByte(text[end]) {
			if i+j == 0 || !isIdentByte(text[i+j-1]) {
				return true
			}
		}
		i = end
	}
}

func isIdentByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func (g *gen) chance(percent int) bool { return g.r.IntN(100) < percent }

func (g *gen) pick(n int) int { return g.r.IntN(n) }

func pickOf[T any](g *gen, xs []T) T { return xs[g.r.IntN(len(xs))] }

func (g *gen) importPkg(path string) { g.imports[path] = true }

// lookup returns the variables in scope s (innermost first) that satisfy ok.
func (s *scope) lookup(ok func(*variable) bool) []*variable {
	var out []*variable
	seen := map[string]bool{}
	for ; s != nil; s = s.parent {
		for i := len(s.vars) - 1; i >= 0; i-- {
			v := s.vars[i]
			if seen[v.name] {
				continue
			}
			seen[v.name] = true
			if ok(v) {
				out = append(out, v)
			}
		}
	}
	return out
}

func (s *scope) add(v *variable) *variable {
	s.vars = append(s.vars, v)
	return v
}

// block is the text of statements being written, with its scope.
type block struct {
	b      strings.Builder
	indent int
	sc     *scope
}

func (bl *block) line(format string, args ...any) {
	bl.b.WriteString(strings.Repeat("\t", bl.indent))
	fmt.Fprintf(&bl.b, format, args...)
	bl.b.WriteString("\n")
}

// child returns a nested block one level deeper with its own scope.
func (bl *block) child() *block {
	return &block{indent: bl.indent + 1, sc: &scope{parent: bl.sc}}
}

// close ends a block: locals never read get a blank assignment, which gc
// requires ("declared and not used").
func (bl *block) close() string {
	bl.flushUnused()
	return bl.b.String()
}

// flushUnused reads the block's locals that nothing read yet.
func (bl *block) flushUnused() {
	for _, v := range bl.sc.vars {
		if v.local && !v.used {
			bl.line("_ = %s", v.name)
			v.used = true
		}
	}
}
