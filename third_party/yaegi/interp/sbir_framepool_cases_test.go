package interp_test

// frameReuseRegressions are more programs for TestSbirFrameReuseKeepsValues:
// the constructs sbir patch S8 lets use their frames again, each with
// values that a frame used again, or read after its call returned, would
// change, and (the last two) bodies it must refuse, whose values outlive
// their calls. The wanted outputs are go run's (Go 1.26).
var frameReuseRegressions = []struct{ name, src, want string }{
	{"generic types and functions", `
type vec[T int | float64] struct{ a [3]T }
func (v vec[T]) add(w vec[T]) vec[T] {
	for i := range v.a {
		v.a[i] += w.a[i]
	}
	return v
}
func (v *vec[T]) scale(k T) {
	for i := range v.a {
		v.a[i] *= k
	}
}
type stack[T any] struct{ items []T }
func (s *stack[T]) push(x T) { s.items = append(s.items, x) }
func (s *stack[T]) pop() T {
	x := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return x
}
func dup[T any](x T) [2]T { return [2]T{x, x} }
func main() {
	a, b := vec[int]{[3]int{1, 2, 3}}, vec[int]{[3]int{10, 20, 30}}
	var sums []vec[int]
	for i := 0; i < 3; i++ {
		c := a.add(b)
		c.scale(i + 1)
		sums = append(sums, c)
	}
	f := vec[float64]{[3]float64{0.5, 1, 1.5}}
	g := f.add(f)
	g.scale(2)
	s := &stack[[2]int]{}
	for i := 0; i < 4; i++ {
		s.push([2]int{i, i * i})
	}
	x, y := s.pop(), s.pop()
	t := &stack[string]{}
	t.push("p")
	t.push("q")
	fmt.Println(sums, a, f, g, x, y, s.items, t.pop(), t.pop(), dup(1), dup("z"), dup(a))
}`, "[{[11 22 33]} {[22 44 66]} {[33 66 99]}] {[1 2 3]} {[0.5 1 1.5]} {[2 4 6]} [3 9] [2 4] [[0 0] [1 1]] q p [1 1] [z z] [{[1 2 3]} {[1 2 3]}]\n"},
	{"functions passed in and called", `
type pt struct{ x, y int }
func apply(f func(pt) pt, p pt) pt     { q := f(p); q.x++; return q }
func twice(f func(int) int, x int) int { return f(f(x)) }
func each(xs []pt, f func(int, pt)) {
	for i, x := range xs {
		f(i, x)
	}
}
func main() {
	var hist []pt
	var arr [3]pt
	n := 0
	shift := func(p pt) pt {
		n++
		arr[n%3] = pt{p.x * 10, p.y * 10}
		hist = append(hist, p)
		return arr[n%3]
	}
	var rs []pt
	for i := 0; i < 4; i++ {
		rs = append(rs, apply(shift, pt{i, -i}))
	}
	var fact func(int) int
	fact = func(k int) int {
		if k < 2 {
			return 1
		}
		return k * fact(k-1)
	}
	var seen []pt
	each([]pt{{1, 2}, {3, 4}}, func(i int, p pt) { p.x += i; seen = append(seen, p) })
	each([]pt{{5, 6}}, func(i int, p pt) { seen = append(seen, pt{p.y, p.x}) })
	counter := 0
	inc := func(d int) int { counter += d; return counter }
	fmt.Println(rs, hist, arr, n, twice(fact, 3), seen, twice(inc, 1), twice(inc, 5), counter)
}`, "[{1 0} {11 -10} {21 -20} {31 -30}] [{0 0} {1 -1} {2 -2} {3 -3}] [{20 -20} {30 -30} {10 -10}] 4 720 [{1 2} {4 4} {6 5}] 2 14 14\n"},
	{"sort.Interface methods", `
type item struct {
	name string
	vals [3]int
}
type byVal []item
func (b byVal) Len() int           { return len(b) }
func (b byVal) Less(i, j int) bool { return key(b[i]) < key(b[j]) }
func (b byVal) Swap(i, j int)      { b[i], b[j] = b[j], b[i] }
func key(it item) int {
	s := 0
	for _, v := range it.vals {
		s += v
	}
	return s
}
type ranked struct {
	data [6]int
	n    int
}
func (h *ranked) Len() int           { return h.n }
func (h *ranked) Less(i, j int) bool { return h.data[i] > h.data[j] }
func (h *ranked) Swap(i, j int)      { h.data[i], h.data[j] = h.data[j], h.data[i] }
func main() {
	items := []item{{"c", [3]int{3, 3, 3}}, {"a", [3]int{1, 0, 0}}, {"b", [3]int{2, 2, 0}}}
	sort.Sort(byVal(items))
	h := &ranked{data: [6]int{4, 1, 5, 9, 2, 6}, n: 6}
	sort.Sort(h)
	words := strings.Fields("pear apple fig banana kiwi")
	sort.SliceStable(words, func(i, j int) bool { return len(words[i]) < len(words[j]) })
	fmt.Println(items, h.data, words, sort.Search(100, func(i int) bool { return i*i >= 50 }))
}`, "[{a [1 0 0]} {b [2 2 0]} {c [3 3 3]}] [9 6 5 4 2 1] [fig pear kiwi apple banana] 8\n"},
	{"globals set from literals, elements, fields and results", `
type pt struct{ x, y int }
type wrap struct {
	in  pt
	arr [2]pt
}
var g1, g2, g3, g4, g5, g6 pt
var ga [2]pt
var gw wrap
var gs []pt
func fromIndex(xs []pt, i int) { g1 = xs[i] }
func fromField(w wrap)         { g2 = w.in }
func fromArr(w wrap)           { g3 = w.arr[1] }
func fromDeref(p *pt)          { g4 = *p }
func fromLit(a, b int)         { g5 = pt{a, b} }
func fromCall(a int)           { g6 = mk(a) }
func arrLit(a int)             { ga = [2]pt{{a, a}, {-a, -a}} }
func wrapSet(a int)            { w := wrap{in: pt{a, 0}}; w.arr[0] = pt{0, a}; gw = w }
func sliceSet(xs []pt)         { gs = xs[1:] }
func mk(a int) pt              { r := pt{a, a * 2}; return r }
func touch(n int) int {
	var w wrap
	w.in = pt{n, n}
	w.arr = [2]pt{{n, n}, {n, n}}
	return w.in.x + w.arr[1].y
}
func main() {
	xs := []pt{{1, 1}, {2, 2}}
	fromIndex(xs, 1)
	fromField(wrap{in: pt{3, 3}})
	fromArr(wrap{arr: [2]pt{{4, 4}, {5, 5}}})
	fromDeref(&pt{6, 6})
	fromLit(7, 7)
	fromCall(8)
	arrLit(9)
	wrapSet(10)
	sliceSet(xs)
	for i := 0; i < 5; i++ {
		touch(i + 50)
		mk(77)
		fromLit(0, i)
	}
	xs[1].x = 42
	fmt.Println(g1, g2, g3, g4, g5, g6, ga, gw, gs)
}`, "{2 2} {3 3} {5 5} {6 6} {0 4} {8 16} [{9 9} {-9 -9}] {{10 0} [{0 10} {0 0}]} [{42 2}]\n"},
	{"ranges, labels and switches", `
type cell struct{ r, c int }
func rng(a [4]int) (int, [4]int) {
	s := 0
	for i, v := range a {
		a[3-i] = v * 10
		s += v
	}
	return s, a
}
func runes(s string) (out []rune) {
	for _, r := range s {
		out = append(out, r+1)
	}
	return
}
func drain(c chan [2]int) (out [][2]int) {
	for v := range c {
		out = append(out, v)
	}
	return
}
func squares(n int) (out []int) {
	for i := range n {
		out = append(out, i*i)
	}
	return
}
func find(grid [3][3]int, want int) (cell, bool) {
outer:
	for r := 0; r < 3; r++ {
		for c := 0; c < 3; c++ {
			switch v := grid[r][c]; {
			case v == want:
				return cell{r, c}, true
			case v < 0:
				continue outer
			case v > 100:
				break outer
			}
		}
	}
	return cell{}, false
}
func main() {
	var all [][4]int
	for i := 0; i < 3; i++ {
		s, a := rng([4]int{i, i + 1, i + 2, i + 3})
		all = append(all, a, [4]int{s})
	}
	c := make(chan [2]int, 3)
	c <- [2]int{1, 2}
	c <- [2]int{3, 4}
	close(c)
	x := drain(c)
	g := [3][3]int{{1, 2, 3}, {-1, 5, 6}, {7, 200, 9}}
	var cs []cell
	for _, w := range []int{3, 5, 9, 7, 1} {
		f, ok := find(g, w)
		cs = append(cs, f, cell{len(cs), map[bool]int{true: 1}[ok]})
	}
	fmt.Println(all, string(runes("abc")), string(runes("xy")), x, squares(4), squares(2), cs)
}`, "[[30 20 10 0] [6 0 0 0] [40 30 20 10] [10 0 0 0] [50 40 30 20] [14 0 0 0]] bcd yz [[1 2] [3 4]] [0 1 4 9] [0 1] [{0 2} {0 1} {0 0} {2 0} {0 0} {4 0} {2 0} {6 1} {0 0} {8 1}]\n"},
	{"frames of every size", `
type big struct {
	a [1000]int
	n int
}
var gx int
func one() int        { return 1 }
func none()           {}
func single(x int)    { gx += x }
func mkBig(k int) big { var b big; b.a[k] = k; b.a[999] = -k; b.n = k; return b }
func sumBig(b big) int {
	s := 0
	for _, v := range b.a {
		s += v
	}
	return s + b.n
}
func empty() struct{} { return struct{}{} }
func many(a, b, c, d, e, f, g, h, i, j int) (int, int, int) {
	k, l, m := a+b+c, d+e+f, g+h+i+j
	var n, o, p, q, r int
	n, o, p, q, r = k, l, m, k*l, l*m
	return n + o + p, q, r
}
func main() {
	var bs []big
	for i := 0; i < 3; i++ {
		bs = append(bs, mkBig(i+1))
	}
	none()
	single(5)
	single(2)
	a, b, c := many(1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
	d, e, f := many(0, 0, 0, 0, 0, 0, 0, 0, 0, 1)
	fmt.Println(one(), bs[0].a[1], bs[0].a[999], bs[1].a[2], bs[2].n, sumBig(bs[2]), sumBig(mkBig(7)), gx, empty(), a, b, c, d, e, f)
}`, "1 1 -1 2 3 3 7 7 {} 55 90 510 1 0 0\n"},
	{"methods through pointers and method expressions", `
type vec struct{ x, y int }
func (v vec) add(w vec) vec { v.x += w.x; v.y += w.y; return v }
func (v *vec) scale(k int)  { v.x *= k; v.y *= k }
type body struct {
	pos, vel vec
	hist     [3]vec
}
func (b *body) step() {
	b.hist[0], b.hist[1], b.hist[2] = b.hist[1], b.hist[2], b.pos
	b.pos = b.pos.add(b.vel)
}
func (b *body) snapshot() body { return *b }
type inner struct{ n int }
func (i *inner) inc() int { i.n++; return i.n }
type outer struct {
	inner
	name string
}
func bump(o *outer) int { return o.inc() }
type cnt int
func (c *cnt) incr()   { *c++ }
func (c cnt) dbl() cnt { return c * 2 }
func count(p *cnt, n int) cnt {
	for i := 0; i < n; i++ {
		(*cnt).incr(p)
	}
	return p.dbl()
}
func main() {
	b := &body{vel: vec{1, 2}}
	var snaps []body
	for i := 0; i < 4; i++ {
		b.step()
		snaps = append(snaps, b.snapshot())
	}
	p := &vec{3, 4}
	p.scale(2)
	o := &outer{name: "o"}
	var c cnt
	r1, r2 := count(&c, 3), count(&c, 2)
	fmt.Println(snaps, *p, p.add(vec{1, 1}), bump(o), bump(o), o.n, r1, r2, c)
}`, "[{{1 2} {1 2} [{0 0} {0 0} {0 0}]} {{2 4} {1 2} [{0 0} {0 0} {1 2}]} {{3 6} {1 2} [{0 0} {1 2} {2 4}]} {{4 8} {1 2} [{1 2} {2 4} {3 6}]}] {6 8} {7 9} 1 2 2 6 10 5\n"},
	{"first calls from many goroutines at once", `
type pt struct{ x, y int }
type seg struct {
	a, b pt
	w    [2]int
}
func f1(p pt) pt          { p.x++; return p }
func f2(s seg) seg        { s.w[0] += 3; return s }
func f3(g [3][3]int) int  { return g[1][1] + g[2][2] }
func f4(a, b pt) (pt, pt) { return b, a }
func f5(xs [][2]pt) [2]pt { return xs[0] }
func main() {
	start := make(chan struct{})
	var wg sync.WaitGroup
	out := make([]string, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			<-start
			var gr [3][3]int
			gr[1][1], gr[2][2] = g, 1
			for k := 0; k < 50; k++ {
				a, b := f4(f1(pt{g, k}), pt{k, g})
				s := f2(seg{a: a, b: b})
				out[g] = fmt.Sprint(a, b, s, f3(gr), f5([][2]pt{{a, b}}))
			}
		}(g)
	}
	close(start)
	wg.Wait()
	fmt.Println(strings.Join(out, "\n"))
}`, "{49 0} {1 49} {{49 0} {1 49} [3 0]} 1 [{49 0} {1 49}]\n{49 1} {2 49} {{49 1} {2 49} [3 0]} 2 [{49 1} {2 49}]\n{49 2} {3 49} {{49 2} {3 49} [3 0]} 3 [{49 2} {3 49}]\n{49 3} {4 49} {{49 3} {4 49} [3 0]} 4 [{49 3} {4 49}]\n{49 4} {5 49} {{49 4} {5 49} [3 0]} 5 [{49 4} {5 49}]\n{49 5} {6 49} {{49 5} {6 49} [3 0]} 6 [{49 5} {6 49}]\n{49 6} {7 49} {{49 6} {7 49} [3 0]} 7 [{49 6} {7 49}]\n{49 7} {8 49} {{49 7} {8 49} [3 0]} 8 [{49 7} {8 49}]\n"},
	{"variadic parameters and several results", `
type pt struct{ x, y int }
func collect(ps ...pt) []pt { return ps }
func total(xs ...int) (s int) {
	for _, x := range xs {
		s += x
	}
	return
}
func first(ps ...pt) pt {
	if len(ps) == 0 {
		return pt{}
	}
	return ps[0]
}
func split(a, b int) (pt, [2]int) { return pt{a, b}, [2]int{b, a} }
func main() {
	var keep [][]pt
	for i := 0; i < 3; i++ {
		keep = append(keep, collect(pt{i, i}, pt{i + 1, i}))
	}
	s := []pt{{9, 9}, {8, 8}}
	k := collect(s...)
	k[0].x = 100
	var ps []pt
	var as [][2]int
	for i := 0; i < 3; i++ {
		p, a := split(i, i*2)
		ps = append(ps, p)
		as = append(as, a)
	}
	fmt.Println(keep, s, total(1, 2, 3), total(), first(), first(pt{5, 6}), ps, as)
}`, "[[{0 0} {1 0}] [{1 1} {2 1}] [{2 2} {3 2}]] [{100 9} {8 8}] 6 0 {0 0} {5 6} [{0 0} {1 2} {2 4}] [[0 0] [2 1] [4 2]]\n"},
	{"addresses of parameters", `
type pt struct{ x, y int }
func addr(p pt) *pt       { return &p }
func elem(a [2]pt) *pt    { return &a[1] }
func part(a [4]int) []int { return a[1:3] }
func bump(p pt) pt        { p.x++; return p }
func main() {
	var ps []*pt
	var parts [][]int
	for i := 0; i < 3; i++ {
		ps = append(ps, addr(pt{i, i}), elem([2]pt{{}, {-i, i}}))
		parts = append(parts, part([4]int{i, i + 1, i + 2, i + 3}))
		bump(pt{100, 100})
	}
	for _, p := range ps {
		fmt.Print(*p, " ")
	}
	fmt.Println(parts)
}`, "{0 0} {0 0} {1 1} {-1 1} {2 2} {-2 2} [[1 2] [2 3] [3 4]]\n"},
	{"what a refused body keeps", `
type counter struct{ n int }
func (c *counter) self() *counter { return c }
func (c counter) get() int        { return c.n }
type pt struct{ x, y int }
var sink []any
type named struct{ x int }
func (n named) String() string { return fmt.Sprint("n", n.x) }
var shown []fmt.Stringer
func viaMethods(n named) { shown = append(shown, n) }
var log []int
func viaMethod(c counter) *counter        { return c.self() }
func viaClosure(p pt) func() pt           { return func() pt { return p } }
func viaMethodValue(c counter) func() int { return c.get }
func viaInterface(p pt)                   { sink = append(sink, p) }
func viaDefer(x int) int                  { defer record(x); return x * 2 }
func record(x int)                        { log = append(log, x) }
func same(p pt) pt                        { return p }
func main() {
	var cs []*counter
	var fs []func() pt
	var gs []func() int
	for i := 1; i <= 3; i++ {
		cs = append(cs, viaMethod(counter{i}))
		fs = append(fs, viaClosure(pt{i, -i}))
		gs = append(gs, viaMethodValue(counter{10 * i}))
		viaInterface(pt{100 * i, 0})
		viaMethods(named{i})
		viaDefer(i)
		same(pt{7, 7})
	}
	for i := range cs {
		fmt.Print(cs[i].n, fs[i](), gs[i](), " ")
	}
	fmt.Println(sink, shown, log)
}`, "1 {1 -1} 10 2 {2 -2} 20 3 {3 -3} 30 [{100 0} {200 0} {300 0}] [n1 n2 n3] [1 2 3]\n"},
}
