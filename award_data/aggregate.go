package award_data

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// Count returns the number of rows in each group, in a column "Count".
//
// Example:
//
//	award_data.GroupBy("Award Year").Count()
func (g Grouped) Count() Frame {
	if f, bad := g.errFrame(); bad {
		return f
	}
	out := make([]int64, len(g.rep))
	for i, n := range g.groupCounts() {
		out[i] = int64(n)
	}
	return g.result(&columnar.Vector{Name: "Count", Kind: columnar.KindInt, N: len(out), Ints: out, AggName: "Count"})
}

// statNames are the statistics Agg accepts, with what each computes.
var statNames = map[string]string{
	"count": "rows in the group (no column needed)", "sum": "sum", "mean": "average", "median": "median",
	"min": "smallest value", "max": "largest value", "std": "sample standard deviation", "var": "sample variance",
	"nunique": "distinct values", "first": "first non-null value", "last": "last non-null value", "quantile": "quantile q, e.g. quantile(Award Amount, 0.9)",
}

// statAliases are other names people use for the statistics (pandas',
// SQL's and spreadsheets').
var statAliases = map[string]string{
	"average": "mean", "avg": "mean", "total": "sum", "size": "count", "len": "count",
	"distinct": "nunique", "countdistinct": "nunique", "count_distinct": "nunique",
	"minimum": "min", "maximum": "max", "stdev": "std", "variance": "var", "p50": "median",
}

const statList = "count, sum, mean, median, min, max, std, var, nunique, first, last, quantile"

// needColumns reports the usual mistake of calling an aggregation with no
// column, which yaegi would otherwise turn into a bare "not enough
// arguments" error.
func (g Grouped) needColumns(op string, columns []string) error {
	if g.err != nil {
		return g.err
	}
	if len(columns) == 0 {
		return errorf(op, "name at least one column, e.g. GroupBy(\"Agency\").%s(\"Award Amount\") (Count takes none)", op)
	}
	return nil
}

// each computes one result column per named column with stat.
func (g Grouped) each(op string, columns []string, stat func(c *columnar.Vector) (*columnar.Vector, error)) Frame {
	if err := g.needColumns(op, columns); err != nil {
		return errFrame(err)
	}
	out := make([]*columnar.Vector, 0, len(columns))
	for _, name := range columns {
		c, err := g.f.lookup(op, name)
		if err != nil {
			return errFrame(err)
		}
		v, err := stat(c)
		if err != nil {
			return errFrame(err)
		}
		out = append(out, v)
	}
	return g.result(out...)
}

func numeric(op string, c *columnar.Vector) error {
	if !c.Numeric() {
		return wrongType(op, c, "int or float", shareHint(c))
	}
	return nil
}

// shareHint points from a statistic on a category column (the mean of
// "Woman Owned") to Share, which answers what was meant: the fraction of
// rows with a value.
func shareHint(c *columnar.Vector) string {
	if c.Kind != columnar.KindCategory || len(c.Dict) == 0 {
		return ""
	}
	v := c.Dict[0]
	for _, d := range c.Dict {
		if d == "Y" || d == "Yes" || d == "true" {
			v = d
		}
	}
	return fmt.Sprintf("for the share of rows where it is %q, use Share: GroupBy(\"State\").Share(%q, \"==\", %q)", v, c.Name, v)
}

// Sum returns the sum of numeric columns in each group, skipping nulls
// (a group of nulls sums to 0), one result column per column named. A
// result column keeps the column's name and type (int sums stay int).
//
// Example:
//
//	award_data.GroupBy("Agency").Sum("Award Amount")
//	award_data.GroupBy("Agency").Sum("Award Amount", "Number Employees")
func (g Grouped) Sum(columns ...string) Frame { return g.each("Sum", columns, g.sum) }

func (g Grouped) sum(c *columnar.Vector) (*columnar.Vector, error) {
	if err := numeric("Sum", c); err != nil {
		return nil, err
	}
	if c.Kind == columnar.KindInt {
		out := make([]int64, len(g.rep))
		g.chunks(func(ids, rows []int32) {
			for j, r := range rows {
				if !c.IsNull(int(r)) {
					out[ids[j]] += c.Ints[r]
				}
			}
		})
		return &columnar.Vector{Name: c.Name, Kind: columnar.KindInt, N: len(out), Ints: out, AggName: "Sum"}, nil
	}
	out := make([]float64, len(g.rep))
	vals := c.Floats
	if c.Valid == nil && g.codes != nil {
		columnar.SumByCode(out, g.codes, g.slot, vals[:len(g.codes)])
		return &columnar.Vector{Name: c.Name, Kind: columnar.KindFloat, N: len(out), Floats: out, AggName: "Sum"}, nil
	}
	// Rows are visited in f's order, so each group's sum adds its values
	// in the same order whatever the selection's form; the sums are
	// compensated (see columnar.Sums).
	sums := columnar.NewSums(len(g.rep))
	g.chunks(func(ids, rows []int32) {
		if c.Valid == nil {
			for j, r := range rows {
				if v := vals[r]; v == v {
					sums.Add(int(ids[j]), v)
				}
			}
			return
		}
		for j, r := range rows {
			if v := c.Float(int(r)); !math.IsNaN(v) {
				sums.Add(int(ids[j]), v)
			}
		}
	})
	for id := range out {
		out[id] = sums.Value(id)
	}
	return &columnar.Vector{Name: c.Name, Kind: columnar.KindFloat, N: len(out), Floats: out, AggName: "Sum"}, nil
}

// Mean returns the average of numeric columns in each group, skipping
// nulls; a group with no values gets a null.
//
// Example:
//
//	award_data.GroupBy("Phase").Mean("Award Amount")
func (g Grouped) Mean(columns ...string) Frame { return g.each("Mean", columns, g.mean) }

func (g Grouped) mean(c *columnar.Vector) (*columnar.Vector, error) {
	if c.Kind == columnar.KindInt && !c.HasNulls() && g.codes != nil {
		return g.intMean(c), nil
	}
	return g.moments("Mean", c, func(n int, sum, _ float64) (float64, bool) { return sum / float64(n), n > 0 })
}

// intMean is Mean of an int column without nulls over a category key's
// codes (a boolean's share per agency): exact int sums per code, folded
// into the groups.
func (g Grouped) intMean(c *columnar.Vector) *columnar.Vector {
	perCode := make([]int64, len(g.slot))
	n := make([]int64, len(g.slot))
	for i, code := range g.codes {
		perCode[code] += c.Ints[i]
		n[code]++
	}
	sum := make([]float64, len(g.rep))
	cnt := make([]int64, len(g.rep))
	for code := range perCode {
		if n[code] > 0 {
			sum[g.slot[code]] += float64(perCode[code])
			cnt[g.slot[code]] += n[code]
		}
	}
	out := columnar.NewFloatResult(c.Name, len(g.rep), "Mean")
	for id := range sum {
		out.Floats[id] = sum[id] / float64(cnt[id])
	}
	return out
}

// moments accumulates count, sum and sum of squares (about a shift, for
// accuracy) per group and turns them into a value with fn.
func (g Grouped) moments(op string, c *columnar.Vector, fn func(n int, sum, sumSq float64) (float64, bool)) (*columnar.Vector, error) {
	if err := numeric(op, c); err != nil {
		return nil, err
	}
	sums := columnar.NewSums(len(g.rep))
	sq := make([]float64, len(g.rep))
	cnt := make([]int, len(g.rep))
	shift := make([]float64, len(g.rep))
	seen := make([]bool, len(g.rep))
	g.chunks(func(ids, rows []int32) {
		for j, r := range rows {
			v := c.Float(int(r))
			if math.IsNaN(v) {
				continue
			}
			id := ids[j]
			if !seen[id] {
				seen[id], shift[id] = true, v
			}
			d := v - shift[id]
			sums.Add(int(id), v)
			sq[id] += d * d
			cnt[id]++
		}
	})
	out := columnar.NewFloatResult(c.Name, len(g.rep), op)
	for id := range sq {
		// sq holds Σ(v-shift)²; convert to Σ(v-mean)² for fn.
		sum := sums.Value(id)
		dm := sum/math.Max(float64(cnt[id]), 1) - shift[id]
		centered := sq[id] - float64(cnt[id])*dm*dm
		v, ok := fn(cnt[id], sum, math.Max(centered, 0))
		if !ok {
			out.SetNull(id)
			continue
		}
		out.Floats[id] = v
	}
	return out, nil
}

// Median returns the median of numeric columns in each group, skipping
// nulls (Quantile with q = 0.5).
//
// Example:
//
//	award_data.Where("Phase", "==", "Phase I").GroupBy("Award Year").Median("Award Amount")
func (g Grouped) Median(columns ...string) Frame {
	return g.each("Median", columns, func(c *columnar.Vector) (*columnar.Vector, error) { return g.quantile("Median", c, 0.5) })
}

// Quantile returns the q-quantile (0 ≤ q ≤ 1) of a numeric column in each
// group, skipping nulls, interpolating linearly between the two nearest
// values (as pandas and numpy do by default); a group with no values gets
// a null.
//
// Example:
//
//	award_data.GroupBy("Agency").Quantile("Award Amount", 0.9)
func (g Grouped) Quantile(column string, q float64) Frame {
	return g.each("Quantile", []string{column}, func(c *columnar.Vector) (*columnar.Vector, error) { return g.quantile("Quantile", c, q) })
}

func (g Grouped) quantile(op string, c *columnar.Vector, q float64) (*columnar.Vector, error) {
	if err := numeric(op, c); err != nil {
		return nil, err
	}
	if !(q >= 0 && q <= 1) {
		return nil, errorf(op, "q is %v; it must be between 0 and 1", q)
	}
	// Bucket the values by group (counting sort on the group sizes, an
	// upper bound of each group's non-null values), then select in each
	// bucket. Values enter their bucket in f's order. The id vector
	// first: a text key's group sizes then come from it.
	ids := g.idList()
	counts := g.groupCounts()
	start := make([]int, len(g.rep)+1)
	for id, n := range counts {
		start[id+1] = start[id] + n
	}
	vals := make([]float64, start[len(start)-1])
	fill := slices.Clone(start[:len(g.rep)])
	g.f.sel().Chunks(func(k int, rows []int32) {
		ids := ids[k : k+len(rows)]
		switch {
		case c.Kind == columnar.KindFloat && c.Valid == nil:
			for j, r := range rows {
				if v := c.Floats[r]; v == v {
					id := ids[j]
					vals[fill[id]] = v
					fill[id]++
				}
			}
		default:
			for j, r := range rows {
				if v := c.Float(int(r)); !math.IsNaN(v) {
					id := ids[j]
					vals[fill[id]] = v
					fill[id]++
				}
			}
		}
	})
	out := columnar.NewFloatResult(c.Name, len(g.rep), op)
	// Many values are split across processors by position: a part
	// selects in the groups whose bucket starts inside it.
	columnar.Parts(len(vals), func(_, lo, hi int) {
		first, _ := slices.BinarySearch(start[:len(g.rep)], lo)
		var buf []uint64
		for id := first; id < len(g.rep) && start[id] < hi; id++ {
			if seg := vals[start[id]:fill[id]]; len(seg) > 0 {
				out.Floats[id], buf = columnar.QuantileBuf(seg, q, buf)
			}
		}
	})
	for id := range g.rep {
		if fill[id] == start[id] {
			out.SetNull(id) // no values (not thread-safe: after the parts)
		}
	}
	return out, nil
}

// Min returns the smallest value of columns in each group, skipping
// nulls; it works on numbers, dates and text (alphabetical). A result
// column keeps the column's name and type.
//
// Example:
//
//	award_data.GroupBy("Company").Min("Proposal Award Date")
func (g Grouped) Min(columns ...string) Frame {
	return g.each("Min", columns, func(c *columnar.Vector) (*columnar.Vector, error) { return g.pick("Min", c, -1, false), nil })
}

// Max returns the largest value of columns in each group, skipping
// nulls; it works on numbers, dates and text (alphabetical).
//
// Example:
//
//	award_data.GroupBy("Agency").Max("Award Amount")
func (g Grouped) Max(columns ...string) Frame {
	return g.each("Max", columns, func(c *columnar.Vector) (*columnar.Vector, error) { return g.pick("Max", c, 1, false), nil })
}

// pick chooses one row per group: the extreme value (sign -1: smallest,
// 1: largest), or with order set the first (sign -1) or last (sign 1)
// non-null value in the frame's order.
func (g Grouped) pick(op string, c *columnar.Vector, sign int, order bool) *columnar.Vector {
	key := columnar.NewSortKey(c, false)
	best := make([]int32, len(g.rep))
	for i := range best {
		best[i] = -1
	}
	for k, id := range g.idList() {
		i := g.f.row(k)
		if c.IsNull(i) || (c.Kind == columnar.KindFloat && math.IsNaN(c.Floats[i])) {
			continue
		}
		b := best[id]
		switch {
		case b < 0, order && sign > 0, !order && key.Compare(i, int(b))*sign > 0:
			best[id] = int32(i)
		}
	}
	out := columnar.Gather(c, best)
	out.AggName = op
	return out
}

// CountDistinct returns the number of distinct non-null values of
// columns in each group, in columns named "Distinct " + column.
//
// Example:
//
//	award_data.GroupBy("Company").CountDistinct("Agency")
func (g Grouped) CountDistinct(columns ...string) Frame {
	return g.each("CountDistinct", columns, func(c *columnar.Vector) (*columnar.Vector, error) {
		v := g.countDistinct(c)
		v.Name = "Distinct " + c.Name
		return v, nil
	})
}

func (g Grouped) countDistinct(c *columnar.Vector) *columnar.Vector {
	vids, vrep := columnar.KeyIDs(g.f.sel(), c, true)
	nullID := int32(-1)
	for id, r := range vrep {
		if c.IsNull(int(r)) || (c.Kind == columnar.KindFloat && math.IsNaN(c.Floats[r])) {
			nullID = int32(id)
		}
	}
	ids := g.idList()
	pairs := make([]uint64, 0, len(ids))
	for k, id := range ids {
		if vids[k] != nullID {
			pairs = append(pairs, uint64(id)<<32|uint64(uint32(vids[k])))
		}
	}
	slices.Sort(pairs)
	out := make([]int64, len(g.rep))
	for i, p := range pairs {
		if i == 0 || p != pairs[i-1] {
			out[p>>32]++
		}
	}
	return &columnar.Vector{Name: c.Name, Kind: columnar.KindInt, N: len(out), Ints: out, AggName: "CountDistinct"}
}

// Share returns, for each group, its number of rows ("Count") and the
// fraction of them where column op value holds ("Share", from 0 to 1),
// with the operators and values of Frame.Where. Rows where the column is
// null count in Count and never satisfy the condition.
//
// Example:
//
//	award_data.GroupBy("State").Share("Woman Owned", "==", "Y")
func (g Grouped) Share(column, op string, value any) Frame {
	if f, bad := g.errFrame(); bad {
		return f
	}
	match := g.f.Where(column, op, value)
	if match.err != nil {
		e := *match.err.(*Error)
		e.Op = "Share"
		return errFrame(&e)
	}
	hit := make([]bool, g.f.t.N)
	for _, i := range match.rowList() {
		hit[i] = true
	}
	yes := make([]int, len(g.rep))
	for k, id := range g.idList() {
		if hit[g.f.row(k)] {
			yes[id]++
		}
	}
	count := make([]int64, len(g.rep))
	share := columnar.NewFloatResult("Share", len(g.rep), "Share")
	for id, n := range g.groupCounts() {
		count[id] = int64(n)
		share.Floats[id] = float64(yes[id]) / float64(n)
	}
	return g.result(&columnar.Vector{Name: "Count", Kind: columnar.KindInt, N: len(count), Ints: count, AggName: "Count"}, share)
}

func itoa(n int) string { return strconv.Itoa(n) }
