package award_data

import (
	"fmt"
	"slices"
	"testing"
)

// TestBitmapSelections checks that a Frame holding a bitmap selection
// (what Where on all rows produces) behaves exactly like the same rows
// held as a row vector, for every kind of operation.
func TestBitmapSelections(t *testing.T) {
	loadFixture(t)
	for _, bitsFrame := range []Frame{
		Where("Phase", "==", "Phase II"),
		Where("Award Year", ">=", 2015).Where("Agency", "in", []string{"Department of Defense", "Department of Energy"}),
		Where("Agency", "==", "nobody"),
		Where("Award Year", "<", 0),
	} {
		if bitsFrame.bits == nil {
			t.Fatalf("expected a bitmap selection")
		}
		rowsFrame := bitsFrame.withRows(slices.Clone(bitsFrame.rowList()))
		ops := map[string]func(f Frame) string{
			"String":    func(f Frame) string { return f.String() + f.HTML() },
			"Len":       func(f Frame) string { return fmt.Sprint(f.Len(), f.Count()) },
			"Head/Tail": func(f Frame) string { return f.Head(3).String() + f.Tail(3).String() + f.Sample(4, 9).String() },
			"Sort":      func(f Frame) string { return f.Sort("-Award Amount", "Company").String() },
			"GroupBy": func(f Frame) string {
				return f.GroupBy("Agency").Sum("Award Amount").String() + f.GroupBy("Company").Count().String()
			},
			"Where": func(f Frame) string {
				return f.Where("Abstract", "contains", "laser").Where("Award Year", "between", []int{2010, 2020}).String()
			},
			"WhereBits": func(f Frame) string { return f.Where("Program", "==", "SBIR").Where("Award Year", ">", 2012).String() },
			"Extract": func(f Frame) string {
				return fmt.Sprint(f.Strings("Company"), f.Floats("Award Amount"), f.Ints("Award Year"))
			},
			"Scalars": func(f Frame) string {
				return fmt.Sprint(f.Sum("Award Amount"), f.Median("Award Amount"), f.CountDistinct("Company"))
			},
			"Describe":   func(f Frame) string { return f.Select("Award Amount", "Agency").Describe().String() },
			"ValueCount": func(f Frame) string { return f.ValueCounts("State").String() },
			"Filter":     func(f Frame) string { return f.Filter(func(r Row) bool { return r.Index()%3 == 0 }).String() },
			"Chart":      func(f Frame) string { return f.Histogram("Award Amount", 5).Spec() },
		}
		for name, op := range ops {
			if a, b := op(bitsFrame), op(rowsFrame); a != b {
				t.Errorf("%s differs between a bitmap and a row selection:\n%s\n---\n%s", name, a, b)
			}
		}
	}
}
