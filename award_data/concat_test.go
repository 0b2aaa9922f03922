package award_data

import (
	"runtime"
	"testing"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// TestConcatCopiesOnce: Concat of two whole frames allocates about what
// its result holds. It used to gather every part into columns of its own,
// then append them with a string copy per text value into a buffer grown
// by doubling: over three times the result, which took two frames of
// 70,000 awards past a session's 1 GiB heap budget (found by
// bench/TestDifferentialDuckDB).
func TestConcatCopiesOnce(t *testing.T) {
	loadFixture(t)
	a, b := All(), Where("Award Year", ">", 2000)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	c := Concat(a, b)
	runtime.ReadMemStats(&after)
	if err := c.Err(); err != nil {
		t.Fatal(err)
	}
	if c.Len() != a.Len()+b.Len() {
		t.Fatalf("%d rows, want %d + %d", c.Len(), a.Len(), b.Len())
	}
	held := 0
	for _, v := range c.t.Cols {
		held += vectorBytes(v)
	}
	allocated := int(after.TotalAlloc - before.TotalAlloc)
	// The row lists of the two frames (4 bytes a row) and the per-column
	// slices come on top of the values.
	limit := held + held/4 + 8*c.Len() + 64<<10
	t.Logf("Concat of %d rows: %d bytes allocated, %d held by the result", c.Len(), allocated, held)
	if allocated > limit {
		t.Errorf("Concat allocated %d bytes for a result of %d (limit %d): values are copied more than once", allocated, held, limit)
	}
}

// vectorBytes is what v's values occupy.
func vectorBytes(v *columnar.Vector) int {
	n := len(v.Valid) + 4*len(v.Offs) + len(v.Data) + 2*len(v.Codes) + 8*len(v.Ints) + 8*len(v.Floats) + 4*len(v.Days)
	for _, s := range v.Dict {
		n += len(s) + 16
	}
	return n
}
