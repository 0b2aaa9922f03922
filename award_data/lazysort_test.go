package award_data

import (
	"fmt"
	"slices"
	"sync"
	"testing"
)

// sortedFrames are the frames the lazy-sort tests sort: all awards, a
// bitmap Where, a Where whose rows are a list (a Sample), and a group-by
// result (where top-20 questions sort).
func sortedFrames(t *testing.T) map[string]Frame {
	t.Helper()
	loadFixture(t)
	frames := map[string]Frame{
		"all":     All(),
		"where":   Where("Phase", "==", "Phase II"),
		"sample":  Where("Award Year", ">=", 2010).Sample(150, 3),
		"grouped": Where("Phase", "==", "Phase II").GroupBy("Company").Sum("Award Amount"),
	}
	for name, f := range frames {
		if err := f.Err(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return frames
}

// TestSortHeadMatchesFullSort checks that Head after Sort (which selects
// the first rows without sorting the rest) gives the rows of the full
// sort, for keys of every kind, both directions, ties and nulls.
func TestSortHeadMatchesFullSort(t *testing.T) {
	for name, f := range sortedFrames(t) {
		for _, col := range f.Columns() {
			for _, key := range []string{col, "-" + col} {
				full := f.Sort(key)
				want := slices.Clone(full.rowList()) // sorts
				if !full.sorted.done() {
					t.Fatalf("%s %s: rowList did not sort", name, key)
				}
				for _, n := range []int{0, 1, 5, 20, f.Len() / 4} {
					got := f.Sort(key).Head(n)
					if g, w := got.rowList(), want[:min(n, len(want))]; !slices.Equal(g, w) {
						t.Fatalf("%s Sort(%q).Head(%d): rows %v, the full sort gives %v", name, key, n, g, w)
					}
				}
			}
		}
	}
}

// TestSortedFrameConcurrent reads one sorted Frame from several
// goroutines (Head, Len, Strings, a Where and a GroupBy on it): the rows
// are sorted once, and every reader sees the same rows. Run with -race.
func TestSortedFrameConcurrent(t *testing.T) {
	f := sortedFrames(t)["grouped"].Sort("-Award Amount")
	want := fmt.Sprint(f.Head(20).Strings("Company"), f.Strings("Award Amount"))
	f = sortedFrames(t)["grouped"].Sort("-Award Amount") // not sorted yet
	var wg sync.WaitGroup
	got := make([]string, 8)
	for g := range got {
		wg.Go(func() {
			if f.Len() != f.sorted.len() {
				t.Errorf("Len %d, want %d", f.Len(), f.sorted.len())
			}
			top := f.Head(20)
			got[g] = fmt.Sprint(top.Strings("Company"), f.Strings("Award Amount"))
			f.Where("Award Amount", ">", 0).GroupBy("Company").Count()
		})
	}
	wg.Wait()
	for g, s := range got {
		if s != want {
			t.Fatalf("goroutine %d read %s, want %s", g, s, want)
		}
	}
}

// TestTopCompaniesTwice runs the top-20 question twice, and again on a
// Frame derived after a filter and a sort of the data (its rows a list,
// not a bitmap): the answers are the same.
func TestTopCompaniesTwice(t *testing.T) {
	loadFixture(t)
	q := func(f Frame) string {
		top := f.Where("Phase", "==", "Phase II").GroupBy("Company").Sum("Award Amount").Sort("-Award Amount").Head(20)
		if err := top.Err(); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(top.Strings("Company"), top.Floats("Award Amount"))
	}
	first := q(All())
	if second := q(All()); second != first {
		t.Fatalf("second run %s, first %s", second, first)
	}
	// Sorting by an unrelated column changes the order rows are visited
	// in; Sum's float additions may round differently, so compare the
	// companies only, and the amounts to a cent.
	derived := All().Where("Award Year", ">=", 0).Sort("Company")
	top := derived.Where("Phase", "==", "Phase II").GroupBy("Company").Sum("Award Amount").Sort("-Award Amount").Head(20)
	ref := All().Where("Phase", "==", "Phase II").GroupBy("Company").Sum("Award Amount").Sort("-Award Amount").Head(20)
	if g, w := top.Strings("Company"), ref.Strings("Company"); !slices.Equal(g, w) {
		t.Fatalf("after a sort: %v, want %v", g, w)
	}
	for i, v := range top.Floats("Award Amount") {
		if w := ref.Floats("Award Amount")[i]; !near(v, w) {
			t.Fatalf("after a sort, row %d: %v, want %v", i, v, w)
		}
	}
}

// TestGroupBySelectionForms groups the same rows held as a bitmap (a
// Where), as a list in another order (the Where sorted) and as a list
// of all rows (the data sorted, then filtered by a Where on the list):
// counts, medians, minima and the group order agree.
func TestGroupBySelectionForms(t *testing.T) {
	loadFixture(t)
	forms := map[string]Frame{
		"bits":     Where("Phase", "==", "Phase I"),
		"list":     Where("Phase", "==", "Phase I").Sort("-Award Amount"),
		"listscan": Sort("Company").Where("Phase", "==", "Phase I"),
	}
	for _, key := range []string{"Award Year", "Company", "Agency", "State"} {
		var want string
		for _, name := range []string{"bits", "list", "listscan"} {
			g := forms[name].GroupBy(key)
			got := fmt.Sprint(g.Count().Strings(key), g.Count().Strings("Count"),
				g.Median("Award Amount").Strings("Award Amount"), g.Min("Award Amount").Strings("Award Amount"))
			if want == "" {
				want = got
				continue
			}
			if got != want {
				t.Fatalf("GroupBy(%q) on %s:\n%s\nwant (bits)\n%s", key, name, got, want)
			}
		}
	}
}

// TestUsePacksTextValues checks that Use packs the values of the stored
// text dictionaries that repeat values (Company, City), so that the
// first grouping by them costs what later ones do.
func TestUsePacksTextValues(t *testing.T) {
	loadFixture(t)
	tab := All().t
	for _, name := range []string{"Company", "City"} {
		d := tab.Cols[tab.ByName[name]].CachedTextDictionary()
		if d == nil {
			t.Fatalf("%s has no stored dictionary", name)
		}
		if !d.Packed() {
			t.Errorf("%s (%d distinct of %d rows): values not packed by Use", name, d.Distinct(), tab.N)
		}
	}
}
