package award_data

import (
	"math"
	"strconv"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// maxBins bounds the intervals of Cut and QCut (a category column holds
// at most 32,767 values; a table of bins this long is already unreadable).
const maxBins = 1000

// Cut adds a category column saying which interval of edges each value
// of a numeric column falls in, as pandas' cut(x, bins=edges): the
// intervals are (edges[0], edges[1]], (edges[1], edges[2]], ... (closed on
// the right), labelled "(0, 10]" unless labels names them (one per
// interval). A value outside every interval, or a null, gives a null.
// Groups and sorts follow the intervals' order, not the labels'
// alphabetical one. The column is named "<column> (bin)".
//
// Example:
//
//	award_data.Cut("Number Employees", []float64{0, 10, 50, 250, 500}, "1-10", "11-50", "51-250", "251-500").ValueCounts("Number Employees (bin)")
func (f Frame) Cut(column string, edges []float64, labels ...string) Frame {
	const op = "Cut"
	if f.err != nil {
		return f
	}
	c, err := f.numericColumnOf(op, column)
	if err != nil {
		return errFrame(err)
	}
	if len(edges) < 2 || len(edges) > maxBins+1 {
		return errFrame(errorf(op, "give 2 to %d edges, e.g. []float64{0, 10, 50}; got %d", maxBins+1, len(edges)))
	}
	for i, e := range edges {
		if math.IsNaN(e) || i > 0 && !(e > edges[i-1]) {
			return errFrame(errorf(op, "the edges must increase: edge %d (%v) is not above edge %d (%v)", i+1, e, i, edges[max(i-1, 0)]))
		}
	}
	labels, err = binLabels(op, edges, labels, false)
	if err != nil {
		return errFrame(err)
	}
	return f.withColumn(columnar.Bin(derivedName(c.Name, "bin"), c, f.sel(), edges, labels, false), f.subsetRows())
}

// QCut adds a category column saying which of q equal-sized quantile
// bins each value of a numeric column falls in, as pandas' qcut(x, q,
// duplicates="drop"): the edges are the quantiles 0, 1/q, ..., 1 of the
// column's values in f (interpolated linearly, as Quantile), the first
// bin closed on both sides. Repeated edges merge their bins. Labels are
// the intervals ("[0, 65000]", "(65000, 120000]", ...) unless labels
// names the bins. The column is named "<column> (q<q>)".
//
// Example:
//
//	award_data.QCut("Award Amount", 4, "Q1", "Q2", "Q3", "Q4").GroupBy("Award Amount (q4)").Count()
func (f Frame) QCut(column string, q int, labels ...string) Frame {
	const op = "QCut"
	if f.err != nil {
		return f
	}
	c, err := f.numericColumnOf(op, column)
	if err != nil {
		return errFrame(err)
	}
	if q < 1 || q > maxBins {
		return errFrame(errorf(op, "q is %d; give a number of bins from 1 to %d", q, maxBins))
	}
	qs := make([]float64, q+1)
	for i := range qs {
		qs[i] = float64(i) / float64(q)
	}
	quantiles, ok := columnar.QuantilesOf(f.floatView(c), qs)
	if !ok {
		return errFrame(errorf(op, "column %q has no values in these rows", c.Name))
	}
	var edges []float64
	for _, e := range quantiles {
		if len(edges) == 0 || e > edges[len(edges)-1] {
			edges = append(edges, e)
		}
	}
	if len(edges) < 2 {
		edges = append(edges, edges[0]) // every value equal: one bin [v, v]
	}
	if len(labels) > 0 && len(labels) != len(edges)-1 {
		return errFrame(errorf(op, "%d labels for %d bins (repeated quantiles merged %d of the %d bins); give %d labels or none", len(labels), len(edges)-1, q-(len(edges)-1), q, len(edges)-1))
	}
	labels, err = binLabels(op, edges, labels, true)
	if err != nil {
		return errFrame(err)
	}
	return f.withColumn(columnar.Bin(derivedName(c.Name, "q"+strconv.Itoa(q)), c, f.sel(), edges, labels, true), f.subsetRows())
}

// numericColumnOf looks up a numeric column for op.
func (f Frame) numericColumnOf(op, column string) (*columnar.Vector, error) {
	c, err := f.lookup(op, column)
	if err != nil {
		return nil, err
	}
	if !c.Numeric() {
		return nil, wrongType(op, c, "int or float", "")
	}
	return c, nil
}

// binLabels checks the labels given for the intervals of edges, or
// makes them: "(lo, hi]", the first "[lo, hi]" when lowest is set.
func binLabels(op string, edges []float64, labels []string, lowest bool) ([]string, error) {
	n := len(edges) - 1
	if len(labels) > 0 {
		if len(labels) != n {
			return nil, errorf(op, "%d labels for %d intervals; give one label per interval or none", len(labels), n)
		}
		seen := map[string]bool{}
		for _, l := range labels {
			if seen[l] || l == "" {
				return nil, errorf(op, "label %q is empty or repeated; labels must be distinct", l)
			}
			seen[l] = true
		}
		return labels, nil
	}
	out := make([]string, n)
	num := func(v float64) string {
		if math.Abs(v) < 1e15 {
			return strconv.FormatFloat(v, 'f', -1, 64) // 14863501, not 1.4863501e+07
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	for i := range out {
		open := "("
		if i == 0 && lowest {
			open = "["
		}
		out[i] = open + num(edges[i]) + ", " + num(edges[i+1]) + "]"
	}
	return out, nil
}

// Cut bins a numeric column of all awards. See Frame.Cut.
//
// Example:
//
//	award_data.Cut("Award Amount", []float64{0, 1e5, 1e6, 1e8}).ValueCounts("Award Amount (bin)")
func Cut(column string, edges []float64, labels ...string) Frame {
	return All().Cut(column, edges, labels...)
}

// QCut bins a numeric column of all awards into quantiles. See
// Frame.QCut.
//
// Example:
//
//	award_data.QCut("Award Amount", 4).ValueCounts("Award Amount (q4)")
func QCut(column string, q int, labels ...string) Frame { return All().QCut(column, q, labels...) }
