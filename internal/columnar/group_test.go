package columnar

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// testColumns returns columns of n rows of every kind OrderedGroups
// takes, each with and without nulls; null rows of the category column
// hold codes outside the dictionary, which must never be read.
func testColumns(n int, r *rand.Rand) []*Vector {
	words := []string{"delta", "alpha", "", "Charlie", "bravo", "échelle", "alpha2"}
	var cols []*Vector
	for _, nulls := range []bool{false, true} {
		cat := &Vector{Name: fmt.Sprint("cat", nulls), Kind: KindCategory, N: n, Codes: make([]int16, n), Dict: words}
		ints := &Vector{Name: fmt.Sprint("int", nulls), Kind: KindInt, N: n, Ints: make([]int64, n)}
		texts := make([]string, n)
		for i := range n {
			cat.Codes[i] = int16(r.IntN(len(words)))
			ints.Ints[i] = int64(r.IntN(40)) - 20
			texts[i] = fmt.Sprintf("co-%03d", r.IntN(300))
		}
		text := TextVector(fmt.Sprint("text", nulls), texts)
		if nulls {
			for i := range n {
				if r.IntN(9) == 0 {
					cat.SetNull(i)
					cat.Codes[i] = int16(1000 + r.IntN(1000))
				}
				if r.IntN(9) == 0 {
					ints.SetNull(i)
					ints.Ints[i] = math.MaxInt64 - int64(r.IntN(5))
				}
				if r.IntN(9) == 0 {
					text.SetNull(i)
				}
			}
		}
		cols = append(cols, cat, ints, text)
	}
	return cols
}

// testSels returns selections of n rows in each form: all rows, a
// bitmap (with and without its row vector built) and a shuffled list.
func testSels(n int, r *rand.Rand) map[string]Sel {
	words := make([]uint64, WordCount(n))
	for i := range n {
		if r.IntN(3) != 0 {
			words[i>>6] |= 1 << (i & 63)
		}
	}
	built := NewBitSel(n, words)
	built.Rows()
	list := NewBitSel(n, words).Rows()
	list = slices.Clone(list)
	r.Shuffle(len(list), func(i, j int) { list[i], list[j] = list[j], list[i] })
	return map[string]Sel{
		"all":   {N: n, All: true},
		"bits":  {N: n, Bits: NewBitSel(n, words)},
		"built": {N: n, Bits: built},
		"list":  {N: n, List: list},
		"empty": {N: n, Bits: EmptySel(n)},
	}
}

// TestOrderedGroupsMatchKeyIDs checks OrderedGroups against the general
// path it replaces: KeyIDs, then the groups sorted by key (nulls last).
func TestOrderedGroupsMatchKeyIDs(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 63, 64, 1000, 3000} {
		cols := testColumns(n, r)
		for _, c := range cols[:len(cols):len(cols)] {
			if c.Valid != nil && c.Kind != KindText {
				cols = append(cols, atValidOffset(c, 5))
			}
		}
		for name, s := range testSels(n, r) {
			for _, c := range cols {
				ids, rep, counts, ok := OrderedGroups(s, c, true)
				if !ok {
					if (c.Kind == KindInt && n == 0) || (c.Kind == KindText && s.Len() < c.N/16) {
						continue // no span, or too few rows to encode: KeyIDs' case
					}
					t.Fatalf("n=%d %s %s: no ordered groups", n, name, c.Name)
				}
				wantIDs, wantRep := KeyIDs(s, c, true)
				order := SortedPositions(wantRep, []SortKey{NewSortKey(c, false)})
				rank := make([]int32, len(order))
				for g, id := range order {
					rank[id] = int32(g)
				}
				wantCounts := make([]int, len(order))
				for k, id := range wantIDs {
					wantIDs[k] = rank[id]
					wantCounts[rank[id]]++
				}
				sortedRep := make([]int32, len(order))
				for g, id := range order {
					sortedRep[g] = wantRep[id]
				}
				if !slices.Equal(ids, wantIDs) || !slices.Equal(rep, sortedRep) || !slices.Equal(counts, wantCounts) {
					t.Fatalf("n=%d %s %s: OrderedGroups differs from KeyIDs and a sort:\nids %v\nwant %v\nrep %v\nwant %v", n, name, c.Name, head(ids), head(wantIDs), head(rep), head(sortedRep))
				}
			}
		}
	}
}

func head(s []int32) []int32 { return s[:min(len(s), 20)] }

// atValidOffset returns a copy of c whose validity starts off bits into
// its bitmap, as in a slice of an Arrow array.
func atValidOffset(c *Vector, off int) *Vector {
	d := Vector{Name: fmt.Sprint(c.Name, "@", off), Kind: c.Kind, N: c.N, Ints: c.Ints, Codes: c.Codes, Dict: c.Dict,
		ValidOff: off, Valid: make([]byte, (c.N+off+7)/8)}
	for i := range c.N {
		if !c.IsNull(i) {
			j := off + i
			d.Valid[j>>3] |= 1 << (j & 7)
		}
	}
	return &d
}

// TestOrderedGroupsDeclines checks the keys OrderedGroups leaves to
// KeyIDs: floats, dates, wide ints and text too sparse to encode.
func TestOrderedGroupsDeclines(t *testing.T) {
	n := 200
	wide := &Vector{Name: "wide", Kind: KindInt, N: n, Ints: make([]int64, n)}
	for i := range n {
		wide.Ints[i] = int64(i) << 20
	}
	fl := &Vector{Name: "f", Kind: KindFloat, N: n, Floats: make([]float64, n)}
	dates := &Vector{Name: "d", Kind: KindDate, N: n, Days: make([]int32, n)}
	text := TextVector("t", make([]string, n))
	few := Sel{N: n, List: []int32{3, 1}}
	for _, tc := range []struct {
		c *Vector
		s Sel
	}{{wide, Sel{N: n, All: true}}, {fl, Sel{N: n, All: true}}, {dates, Sel{N: n, All: true}}, {text, few}} {
		if _, _, _, ok := OrderedGroups(tc.s, tc.c, true); ok {
			t.Errorf("%s: OrderedGroups took it", tc.c.Name)
		}
	}
	if text.CachedTextDictionary() != nil {
		t.Error("a 2-row selection gave a text column a dictionary")
	}
}

// TestChunks checks that Chunks hands over every selected row once, in
// order, with its position, for every form of selection.
func TestChunks(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{0, 1, 1023, 1024, 1025, 5000} {
		for name, s := range testSels(n, r) {
			var got []int32
			s.Chunks(func(k int, rows []int32) {
				if k != len(got) {
					t.Fatalf("n=%d %s: chunk at position %d after %d rows", n, name, k, len(got))
				}
				if len(rows) == 0 || len(rows) > chunkRows+64 {
					t.Fatalf("n=%d %s: chunk of %d rows", n, name, len(rows))
				}
				got = append(got, rows...)
			})
			if want := s.Rows(); !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
				t.Fatalf("n=%d %s: Chunks gave %d rows, Rows %d", n, name, len(got), len(want))
			}
		}
	}
}

// TestTopPositionsMatchSort checks that TopPositions gives the first n
// positions of the stable sort, with ties, nulls, NaN, both directions.
func TestTopPositionsMatchSort(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	n := 3000
	fl := &Vector{Name: "f", Kind: KindFloat, N: n, Floats: make([]float64, n)}
	for i := range n {
		switch r.IntN(10) {
		case 0:
			fl.Floats[i] = math.NaN()
		case 1:
			fl.Floats[i] = math.Copysign(0, -1)
		case 2:
			fl.SetNull(i)
		default:
			fl.Floats[i] = float64(r.IntN(50)) * 1000.5
		}
	}
	cols := append(testColumns(n, r), fl)
	rows := make([]int32, 0, n)
	for i := range n {
		if r.IntN(4) != 0 {
			rows = append(rows, int32(i))
		}
	}
	r.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	// A few rows, mostly null in the float column: fewer values than the
	// n asked for, so nulls fill the rest.
	few := []int32{}
	for i := 0; i < n && len(few) < 30; i++ {
		if fl.IsNull(i) || math.IsNaN(fl.Floats[i]) || len(few) < 5 {
			few = append(few, int32(i))
		}
	}
	for _, c := range cols {
		if c.Kind == KindText {
			c.TextDictionary()
		}
		for _, desc := range []bool{false, true} {
			keys := []SortKey{NewSortKey(c, desc)}
			want := SortedPositions(few, keys)
			for _, k := range []int{1, 4, 5, 6, 25, 30, 31} {
				got, _ := TopPositions(few, keys, k)
				if w := want[:min(k, len(want))]; !slices.Equal(got, w) {
					t.Fatalf("%s desc=%v, %d rows, n=%d: TopPositions %v, sorting %v", c.Name, desc, len(few), k, got, w)
				}
			}
			want = SortedPositions(rows, keys)
			for _, k := range []int{0, 1, 2, 20, 256, 257, 333, len(rows) - 5, len(rows), len(rows) + 3} {
				got, ok := TopPositions(rows, keys, k)
				if !ok {
					t.Fatalf("%s: TopPositions declined", c.Name)
				}
				if w := want[:min(k, len(want))]; !slices.Equal(got, w) {
					t.Fatalf("%s desc=%v n=%d: TopPositions %v, sorting %v", c.Name, desc, k, head(got), head(w))
				}
			}
		}
	}
	plain := TextVector("plain", []string{"b", "a"})
	if _, ok := TopPositions([]int32{0, 1}, []SortKey{NewSortKey(plain, false)}, 1); ok {
		t.Error("TopPositions took text without a dictionary")
	}
}

// TestGatherPacked checks that gathering many rows of a dictionary-coded
// text column (from its packed values) gives what gathering from the
// column gives, the same twice, and from concurrent callers while the
// packed copy is being built.
func TestGatherPacked(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	n := 3 * minPackedGather
	texts := make([]string, n)
	for i := range texts {
		if r.IntN(7) != 0 {
			texts[i] = fmt.Sprintf("company %d", r.IntN(2000))
		}
	}
	c := TextVector("Company", texts)
	plain := Renamed(c, "Company") // no dictionary: gathers from the column
	plain.PackTextValues()         // no dictionary: nothing to pack
	rows := make([]int32, minPackedGather+10)
	for i := range rows {
		rows[i] = int32(r.IntN(n))
		if i%50 == 0 {
			rows[i] = -1
		}
	}
	want := Gather(plain, rows)
	if d := c.TextDictionary(); d.offs != nil {
		t.Fatal("the packed values exist before any gather")
	}
	var wg sync.WaitGroup
	got := make([]*Vector, 8)
	for g := range got {
		wg.Go(func() { got[g] = Gather(c, rows) })
	}
	wg.Wait()
	got = append(got, Gather(c, rows))
	if !c.CachedTextDictionary().Packed() {
		t.Fatal("Gather of many rows did not use the packed values")
	}
	if plain.CachedTextDictionary() != nil {
		t.Fatal("PackTextValues gave a column a dictionary")
	}
	// Packing ahead (as Use does) gives the same gathers.
	early := TextVector("Company", texts)
	early.TextDictionary()
	early.PackTextValues()
	if !early.CachedTextDictionary().Packed() {
		t.Fatal("PackTextValues did not pack")
	}
	got = append(got, Gather(early, rows))
	for g, v := range got {
		for k := range rows {
			if v.IsNull(k) != want.IsNull(k) || v.Str(k) != want.Str(k) {
				t.Fatalf("gather %d, row %d: %q (null %v), want %q (null %v)", g, k, v.Str(k), v.IsNull(k), want.Str(k), want.IsNull(k))
			}
		}
		if !slices.Equal(v.Offs, want.Offs) || string(v.Data) != string(want.Data) || v.N != want.N {
			t.Fatalf("gather %d: buffers differ from the column's gather", g)
		}
	}
}

// TestGatherUnpacked checks that a dictionary of mostly distinct values
// gets no packed copy (it would hold as much as the column) and that
// gathering still gives the column's values.
func TestGatherUnpacked(t *testing.T) {
	n := 2 * minPackedGather
	texts := make([]string, n)
	for i := range texts {
		texts[i] = fmt.Sprintf("title %d", i)
	}
	c := TextVector("Award Title", texts)
	c.TextDictionary()
	rows := make([]int32, minPackedGather)
	for i := range rows {
		rows[i] = int32(n - 1 - 2*i)
	}
	got := Gather(c, rows)
	if c.CachedTextDictionary().offs != nil {
		t.Fatal("a column of distinct values was packed")
	}
	for k, r := range rows {
		if got.Str(k) != texts[r] {
			t.Fatalf("row %d: %q, want %q", k, got.Str(k), texts[r])
		}
	}
}

// TestTextGroupValues checks that the key column TextGroupValues reads
// from the packed values is the one gathering each group's first row
// gives (nulls last), for every form of selection, and that it declines
// a column whose values are too many to pack.
func TestTextGroupValues(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{0, 1, 64, 3000} {
		for _, c := range testColumns(n, r) {
			if c.Kind != KindText {
				continue
			}
			for name, s := range testSels(n, r) {
				_, group, rep, ok := TextGroups(s, c, true)
				if !ok {
					if s.Len() < c.N/16 {
						continue // too few rows to encode
					}
					t.Fatalf("n=%d %s %s: no text groups", n, name, c.Name)
				}
				got, ok := TextGroupValues(c, group, len(rep))
				if packed := c.CachedTextDictionary().Packed(); ok != packed {
					t.Fatalf("n=%d %s %s: TextGroupValues ok=%v with packed values %v", n, name, c.Name, ok, packed)
				}
				if !ok {
					continue // a few rows: each value too rare to pack
				}
				want := Gather(Renamed(c, c.Name), rep)
				for k := range rep {
					if got.IsNull(k) != want.IsNull(k) || got.Str(k) != want.Str(k) {
						t.Fatalf("n=%d %s %s, group %d: %q (null %v), want %q (null %v)", n, name, c.Name, k, got.Str(k), got.IsNull(k), want.Str(k), want.IsNull(k))
					}
				}
				if got.N != len(rep) || !slices.Equal(got.Offs, want.Offs) || string(got.Data) != string(want.Data) {
					t.Fatalf("n=%d %s %s: buffers differ from the gather of the first rows", n, name, c.Name)
				}
			}
		}
	}
	// Mostly distinct values get no packed copy: the caller gathers.
	texts := make([]string, 100)
	for i := range texts {
		texts[i] = fmt.Sprintf("title %d", i)
	}
	c := TextVector("Award Title", texts)
	_, group, rep, ok := TextGroups(Sel{N: len(texts), All: true}, c, true)
	if !ok {
		t.Fatal("no text groups")
	}
	if _, ok := TextGroupValues(c, group, len(rep)); ok {
		t.Error("TextGroupValues took a column with no packed values")
	}
	if _, ok := TextGroupValues(TextVector("plain", texts), group, len(rep)); ok {
		t.Error("TextGroupValues took a column without a dictionary")
	}
}
