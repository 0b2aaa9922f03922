package award_data

import (
	"bytes"
	"cmp"
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/sbirtools/sbir-kernel/dataset"
	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// This file checks the query engine (Where, GroupBy and its aggregations,
// the lazy Sort with Head, Slice and chained sorts) against a reference
// written here in plain Go over the columns' values, on generated data sets
// of several sizes (chunk boundaries of 1,024 rows, the 256-row heap of
// TopPositions) and the fixture, with nulls, empty strings, ties and
// signed zeros.

// refTable holds every column of the session's data as plain Go values,
// indexed by table row.
type refTable struct {
	n     int
	names []string
	kind  map[string]columnar.Kind
	str   map[string][]string  // every column, formatted; "" for null
	num   map[string][]float64 // int and float columns; NaN for null
	null  map[string][]bool
}

func newRefTable(t *testing.T) *refTable {
	t.Helper()
	all := All()
	rt := &refTable{n: all.Len(), kind: map[string]columnar.Kind{}, str: map[string][]string{},
		num: map[string][]float64{}, null: map[string][]bool{}}
	for _, name := range all.Columns() {
		c, err := all.lookup("ref", name)
		if err != nil {
			t.Fatal(err)
		}
		rt.names = append(rt.names, name)
		rt.kind[name] = c.Kind
		rt.str[name] = all.Strings(name)
		rt.null[name] = all.Nulls(name)
		if c.Kind == columnar.KindInt || c.Kind == columnar.KindFloat {
			rt.num[name] = all.Floats(name)
		}
	}
	return rt
}

func (rt *refTable) numeric(name string) bool {
	return rt.kind[name] == columnar.KindInt || rt.kind[name] == columnar.KindFloat
}

// compare orders the non-null values of rows a and b of column name.
func (rt *refTable) compare(name string, a, b int32) int {
	if rt.numeric(name) {
		return cmp.Compare(rt.num[name][a], rt.num[name][b])
	}
	return strings.Compare(rt.str[name][a], rt.str[name][b]) // dates format as YYYY-MM-DD
}

// refWhere is one Where of a query, with its reference predicate.
type refWhere struct {
	col, op string
	value   any
	keep    func(r int32) bool
}

func (rt *refTable) randomWhere(r *rand.Rand) refWhere {
	col := rt.names[r.IntN(len(rt.names))]
	row := int32(r.IntN(max(rt.n, 1)))
	null := rt.null[col]
	isNull := func(x int32) bool { return null[x] }
	k := rt.kind[col]
	ops := []string{"==", "!=", "in", "is null", "not null"}
	if rt.numeric(col) || k == columnar.KindDate {
		ops = append(ops, "<", ">=")
	}
	if k == columnar.KindText {
		ops = append(ops, "contains")
	}
	op := ops[r.IntN(len(ops))]
	w := refWhere{col: col, op: op}
	switch op {
	case "is null":
		w.keep = isNull
		return w
	case "not null":
		w.keep = func(x int32) bool { return !null[x] }
		return w
	}
	if rt.n == 0 || null[row] {
		// A value no row holds: an empty result (or all non-null rows).
		row = -1
	}
	var sv string
	var nv float64
	switch {
	case row < 0 && rt.numeric(col):
		nv = -123456.5
		if k == columnar.KindInt {
			nv = -123456
		}
	case row < 0 && k == columnar.KindDate:
		sv = "1901-01-01"
	case row < 0:
		sv = "no such value"
	case rt.numeric(col):
		nv = rt.num[col][row]
	default:
		sv = rt.str[col][row]
	}
	w.value = sv
	if rt.numeric(col) {
		w.value = nv
		if k == columnar.KindInt {
			w.value = int64(nv)
		}
	}
	match := func(x int32) int {
		if rt.numeric(col) {
			return cmp.Compare(rt.num[col][x], nv)
		}
		return strings.Compare(rt.str[col][x], sv)
	}
	switch op {
	case "==":
		w.keep = func(x int32) bool { return !null[x] && match(x) == 0 }
	case "!=":
		w.keep = func(x int32) bool { return !null[x] && match(x) != 0 }
	case "<":
		w.keep = func(x int32) bool { return !null[x] && match(x) < 0 }
	case ">=":
		w.keep = func(x int32) bool { return !null[x] && match(x) >= 0 }
	case "in":
		// The value and that of another row.
		other := int32(r.IntN(max(rt.n, 1)))
		if rt.numeric(col) {
			nv2 := 7.0
			if rt.n > 0 && !null[other] {
				nv2 = rt.num[col][other]
			}
			w.value = []float64{nv, nv2}
			w.keep = func(x int32) bool { return !null[x] && (rt.num[col][x] == nv || rt.num[col][x] == nv2) }
		} else {
			sv2 := "another value"
			if k == columnar.KindDate {
				sv2 = "1902-02-02"
			}
			if rt.n > 0 && !null[other] {
				sv2 = rt.str[col][other]
			}
			w.value = []string{sv, sv2}
			w.keep = func(x int32) bool { return !null[x] && (rt.str[col][x] == sv || rt.str[col][x] == sv2) }
		}
	case "contains":
		// An ASCII piece of the value, so that case folding is plain.
		needle := ""
		for _, ch := range sv {
			if ch < 0x80 && ch != ' ' && len(needle) < 3 {
				needle += string(ch)
			}
		}
		if needle == "" {
			needle = "q"
		}
		w.value = needle
		low := strings.ToLower(needle)
		w.keep = func(x int32) bool { return !null[x] && strings.Contains(strings.ToLower(rt.str[col][x]), low) }
	}
	return w
}

// sortKey is one key of a reference sort.
type sortKey struct {
	col  string
	desc bool
}

func (k sortKey) arg() any {
	if k.desc {
		return "-" + k.col
	}
	return k.col
}

// sorted is the reference of Sort: a stable sort with nulls last for each
// key, whatever its direction.
func (rt *refTable) sorted(rows []int32, keys []sortKey) []int32 {
	out := slices.Clone(rows)
	slices.SortStableFunc(out, func(a, b int32) int {
		for _, k := range keys {
			na, nb := rt.null[k.col][a], rt.null[k.col][b]
			switch {
			case na && nb:
				continue
			case na:
				return 1
			case nb:
				return -1
			}
			c := rt.compare(k.col, a, b)
			if k.desc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return 0
	})
	return out
}

// refGroups is the reference of a one-key GroupBy: the groups' rows in
// the frame's order, ordered by key, the null group last.
func (rt *refTable) groups(rows []int32, col string) (reps []int32, members [][]int32) {
	byKey := map[string]int{}
	for _, r := range rows {
		key := "v" + rt.str[col][r]
		if rt.null[col][r] {
			key = "null"
		}
		id, ok := byKey[key]
		if !ok {
			id = len(reps)
			byKey[key] = id
			reps = append(reps, r)
			members = append(members, nil)
		}
		members[id] = append(members[id], r)
	}
	order := make([]int, len(reps))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		ra, rb := reps[a], reps[b]
		return cmpNullLast(rt.null[col][ra], rt.null[col][rb], rt.compare(col, ra, rb))
	})
	outReps := make([]int32, len(order))
	outMembers := make([][]int32, len(order))
	for i, id := range order {
		outReps[i], outMembers[i] = reps[id], members[id]
	}
	return outReps, outMembers
}

// refStat is the reference of a grouped statistic over the non-null
// values of one group; ok is false for a null result.
func refStat(stat string, q float64, vals []float64) (v float64, ok bool) {
	if stat == "Count" {
		return float64(len(vals)), true
	}
	var present []float64
	for _, v := range vals {
		if !math.IsNaN(v) {
			present = append(present, v)
		}
	}
	if stat == "Sum" {
		s := 0.0
		for _, v := range present {
			s += v
		}
		return s, true
	}
	if len(present) == 0 {
		return 0, false
	}
	sorted := slices.Clone(present)
	slices.Sort(sorted)
	switch stat {
	case "Mean":
		s := 0.0
		for _, v := range present {
			s += v
		}
		return s / float64(len(present)), true
	case "Min":
		return sorted[0], true
	case "Max":
		return sorted[len(sorted)-1], true
	case "Median":
		q = 0.5
	}
	pos := q * float64(len(sorted)-1)
	lo, hi := int(math.Floor(pos)), int(math.Ceil(pos))
	if lo == hi {
		return sorted[lo], true
	}
	return sorted[lo] + (sorted[hi]-sorted[lo])*(pos-float64(lo)), true
}

func closeEnough(a, b float64) bool {
	if a == b {
		return true
	}
	return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}

// useCSV converts csv and hands the Arrow file to Use. The fixture is
// put back when the test ends.
func useCSV(t *testing.T, data []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "awards.arrow")
	dst, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dataset.Convert(context.Background(), bytes.NewReader(data), int64(len(data)), dst, dataset.ConvertOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	d, err := dataset.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := Use(d); err != nil {
		t.Fatal(err)
	}
}

// referenceSources are the data sets of TestEngineAgainstReference.
func referenceSources(t *testing.T) map[string][]byte {
	t.Helper()
	gen := func(rows int, seed uint64, shape dataset.HeaderShape) []byte {
		var b bytes.Buffer
		if err := dataset.Generate(&b, dataset.GenerateOptions{Rows: rows, Seed: seed, Shape: shape}); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	fixture, err := os.ReadFile(fixtureCSV)
	if err != nil {
		t.Fatal(err)
	}
	// Amounts of signed zeros, ties and nulls, years with nulls: grouped
	// quantiles whose answer is a zero, sorts of ties.
	recs, err := csv.NewReader(bytes.NewReader(gen(2600, 4, dataset.ShapeBulk42))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(4, 1))
	amounts := []string{"-0", "0", "-0.0", "0.0", "1", "-1", "", "2.5"}
	for _, rec := range recs[1:] {
		for i, h := range recs[0] {
			switch {
			case h == "Award Amount":
				rec[i] = amounts[r.IntN(len(amounts))]
			case h == "Award Year" && r.IntN(3) == 0:
				rec[i] = ""
			}
		}
	}
	var zeros bytes.Buffer
	w := csv.NewWriter(&zeros)
	w.WriteAll(recs)
	return map[string][]byte{
		"fixture":     fixture,
		"1 row":       gen(1, 1, dataset.ShapeBulk42),
		"40 legacy":   gen(40, 2, dataset.ShapeLegacy41),
		"1500 rows":   gen(1500, 3, dataset.ShapeBulk42),
		"4600 legacy": gen(4600, 5, dataset.ShapeLegacy41), // gathers of ≥ 4,096 rows read packed text

		"signed zeros": zeros.Bytes(),
	}
}

// TestEngineAgainstReference runs random Where chains, one-key GroupBy
// aggregations and sorts (one and two keys, both directions, then Head,
// Slice, Tail, another Sort or a Where) on several data sets and compares
// each answer with the reference's: values, row order (stable ties), nulls.
func TestEngineAgainstReference(t *testing.T) {
	loadFixture(t)
	t.Cleanup(func() {
		d, err := dataset.OpenFile(filepath.Join(fixtureDir, "awards.arrow"))
		if err != nil {
			t.Fatal(err)
		}
		if err := Use(d); err != nil {
			t.Fatal(err)
		}
	})
	queries := 120
	if testing.Short() {
		queries = 30
	}
	sources := referenceSources(t)
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range sources {
			if !yield(k) {
				return
			}
		}
	})
	for si, name := range names {
		useCSV(t, sources[name])
		rt := newRefTable(t)
		// First, while no text column has a dictionary yet: readers
		// build them (and their packed values) concurrently.
		checkConcurrentSorted(t, rt)
		r := rand.New(rand.NewPCG(uint64(si), 99))
		for q := range queries {
			desc, ok := runReferenceQuery(t, rt, r)
			if !ok {
				t.Fatalf("%s, query %d: %s", name, q, desc)
			}
		}
		checkConcat(t, rt)
	}
}

// checkConcat gathers every text column whole (Concat of the data with
// itself, after a GroupBy gave the column a dictionary): a large gather
// copies the values from the dictionary's packed copy, which must give
// each row its own value, nulls and empty strings included.
func checkConcat(t *testing.T, rt *refTable) {
	t.Helper()
	for _, col := range rt.names {
		if rt.kind[col] != columnar.KindText {
			continue
		}
		All().GroupBy(col).Count()
		f := All().Select(col).Sort("-" + col)
		sorted := f.rowList()
		both := Concat(f, All().Select(col))
		if err := both.Err(); err != nil {
			t.Fatal(err)
		}
		got, nulls := both.Strings(col), both.Nulls(col)
		for k := range got {
			r := int32(k - len(sorted))
			if k < len(sorted) {
				r = sorted[k]
			}
			if got[k] != rt.str[col][r] || nulls[k] != rt.null[col][r] {
				t.Fatalf("Concat: %s row %d is %q (null %v), want %q (null %v)", col, k, got[k], nulls[k], rt.str[col][r], rt.null[col][r])
			}
		}
	}
}

// runReferenceQuery runs one random query; ok is false with a description
// of the first difference.
func runReferenceQuery(t *testing.T, rt *refTable, r *rand.Rand) (string, bool) {
	f := All()
	rows := make([]int32, rt.n)
	for i := range rows {
		rows[i] = int32(i)
	}
	var chain strings.Builder
	chain.WriteString("All()")
	for range max(0, r.IntN(5)-2) {
		w := rt.randomWhere(r)
		f = f.Where(w.col, w.op, w.value)
		fmt.Fprintf(&chain, ".Where(%q, %q, %#v)", w.col, w.op, w.value)
		rows = slices.DeleteFunc(rows, func(x int32) bool { return !w.keep(x) })
	}
	if err := f.Err(); err != nil {
		return chain.String() + ": " + err.Error(), false
	}
	if got := f.rowList(); !slices.Equal(got, rows) {
		return fmt.Sprintf("%s: %d rows, want %d", chain.String(), len(got), len(rows)), false
	}
	if r.IntN(2) == 0 {
		return rt.checkGroupBy(f, rows, chain.String(), r)
	}
	return rt.checkSort(f, rows, chain.String(), r)
}

func (rt *refTable) checkGroupBy(f Frame, rows []int32, chain string, r *rand.Rand) (string, bool) {
	var groupable []string
	for _, c := range rt.names {
		if rt.kind[c] != columnar.KindFloat {
			groupable = append(groupable, c)
		}
	}
	key := groupable[r.IntN(len(groupable))]
	var nums []string
	for _, c := range rt.names {
		if rt.numeric(c) {
			nums = append(nums, c)
		}
	}
	val := nums[r.IntN(len(nums))]
	stats := []string{"Count", "Sum", "Mean", "Min", "Max", "Median", "Quantile"}
	stat := stats[r.IntN(len(stats))]
	qs := []float64{0, 0.25, 0.5, 0.99, 1}
	q := qs[r.IntN(len(qs))]
	g := f.GroupBy(key)
	var res Frame
	switch stat {
	case "Count":
		res = g.Count()
	case "Sum":
		res = g.Sum(val)
	case "Mean":
		res = g.Mean(val)
	case "Min":
		res = g.Min(val)
	case "Max":
		res = g.Max(val)
	case "Median":
		res = g.Median(val)
	case "Quantile":
		res = g.Quantile(val, q)
	}
	desc := fmt.Sprintf("%s.GroupBy(%q).%s(%q) q=%v", chain, key, stat, val, q)
	if err := res.Err(); err != nil {
		return desc + ": " + err.Error(), false
	}
	reps, members := rt.groups(rows, key)
	if res.Len() != len(reps) {
		return fmt.Sprintf("%s: %d groups, want %d", desc, res.Len(), len(reps)), false
	}
	gotKeys, gotKeyNulls := res.Strings(key), res.Nulls(key)
	cols := res.Columns()
	out := cols[len(cols)-1]
	gotVals, gotNulls := res.Floats(out), res.Nulls(out)
	for i, rep := range reps {
		if gotKeys[i] != rt.str[key][rep] || gotKeyNulls[i] != rt.null[key][rep] {
			return fmt.Sprintf("%s: group %d is %q (null %v), want %q (null %v)", desc, i, gotKeys[i], gotKeyNulls[i], rt.str[key][rep], rt.null[key][rep]), false
		}
		vals := make([]float64, len(members[i]))
		for j, m := range members[i] {
			vals[j] = rt.num[val][m]
		}
		want, ok := refStat(stat, q, vals)
		if gotNulls[i] != !ok || ok && !closeEnough(gotVals[i], want) {
			return fmt.Sprintf("%s: group %q: %v (null %v), want %v (null %v)", desc, gotKeys[i], gotVals[i], gotNulls[i], want, !ok), false
		}
	}
	return "", true
}

func (rt *refTable) randomKeys(r *rand.Rand) []sortKey {
	keys := []sortKey{{rt.names[r.IntN(len(rt.names))], r.IntN(2) == 0}}
	if r.IntN(3) == 0 {
		keys = append(keys, sortKey{rt.names[r.IntN(len(rt.names))], r.IntN(2) == 0})
	}
	return keys
}

func refSortArgs(keys []sortKey) []any {
	args := make([]any, len(keys))
	for i, k := range keys {
		args[i] = k.arg()
	}
	return args
}

func (rt *refTable) checkSort(f Frame, rows []int32, chain string, r *rand.Rand) (string, bool) {
	keys := rt.randomKeys(r)
	s := f.Sort(refSortArgs(keys)...)
	want := rt.sorted(rows, keys)
	desc := fmt.Sprintf("%s.Sort(%v)", chain, refSortArgs(keys))
	n := len(want)
	sizes := []int{0, 1, 20, max(n-1, 0), n, n + 5, n / 4, 300}
	var got []int32
	switch r.IntN(6) {
	case 0, 1:
		h := sizes[r.IntN(len(sizes))]
		desc += fmt.Sprintf(".Head(%d)", h)
		got, want = s.Head(h).rowList(), want[:min(h, n)]
	case 2:
		from := r.IntN(n + 2)
		to := from + r.IntN(40)
		desc += fmt.Sprintf(".Slice(%d, %d)", from, to)
		got, want = s.Slice(from, to).rowList(), want[min(from, n):min(to, n)]
	case 3:
		h := r.IntN(30)
		desc += fmt.Sprintf(".Tail(%d)", h)
		got, want = s.Tail(h).rowList(), want[n-min(h, n):]
	case 4:
		keys2 := rt.randomKeys(r)
		h := sizes[r.IntN(len(sizes))]
		desc += fmt.Sprintf(".Sort(%v).Head(%d)", refSortArgs(keys2), h)
		want = rt.sorted(want, keys2)
		got, want = s.Sort(refSortArgs(keys2)...).Head(h).rowList(), want[:min(h, n)]
	case 5:
		w := rt.randomWhere(r)
		h := sizes[r.IntN(len(sizes))]
		desc += fmt.Sprintf(".Where(%q, %q, %#v).Head(%d)", w.col, w.op, w.value, h)
		want = slices.DeleteFunc(slices.Clone(want), func(x int32) bool { return !w.keep(x) })
		got, want = s.Where(w.col, w.op, w.value).Head(h).rowList(), want[:min(h, len(want))]
	}
	if !slices.Equal(got, want) {
		return fmt.Sprintf("%s: rows %v, want %v", desc, refHead(got), refHead(want)), false
	}
	return "", true
}

func refHead(rows []int32) []int32 { return rows[:min(len(rows), 12)] }

// checkConcurrentSorted reads one lazily sorted Frame from several
// goroutines at once, each comparing with the reference (run with -race).
func checkConcurrentSorted(t *testing.T, rt *refTable) {
	t.Helper()
	all := make([]int32, rt.n)
	for i := range all {
		all[i] = int32(i)
	}
	keys := []sortKey{{"Award Year", true}}
	want := rt.sorted(all, keys)
	s := All().Sort(refSortArgs(keys)...)
	var text []string
	for _, c := range rt.names {
		if rt.kind[c] == columnar.KindText {
			text = append(text, c)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for i := range 16 {
		wg.Go(func() {
			if i >= 8 {
				// GroupBy and a whole gather of one text column from two
				// goroutines at once.
				col := text[(i/2)%len(text)]
				groups := s.GroupBy(col).Count()
				all := Concat(s.Select(col), s.Select(col))
				reps, _ := rt.groups(want, col)
				if groups.Len() != len(reps) || all.Len() != 2*rt.n {
					errs <- fmt.Sprintf("%s: %d groups, %d rows gathered; want %d, %d", col, groups.Len(), all.Len(), len(reps), 2*rt.n)
				}
				return
			}
			var got, w []int32
			switch i % 4 {
			case 0:
				got, w = s.Head(5).rowList(), want[:min(5, len(want))]
			case 1:
				got, w = s.rowList(), want
			case 2:
				got, w = s.Slice(2, 40).rowList(), want[min(2, len(want)):min(40, len(want))]
			case 3:
				if s.GroupBy("Agency").Len() != All().GroupBy("Agency").Len() {
					errs <- "GroupBy on the sorted frame has other groups"
				}
				return
			}
			if !slices.Equal(got, w) {
				errs <- fmt.Sprintf("reader %d: rows %v, want %v", i, refHead(got), refHead(w))
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
