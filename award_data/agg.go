package award_data

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/sbirtools/sbir-kernel/internal/columnar"
)

// aggSpec is one parsed statistic of Agg: "stat(column)" or
// "stat(column, q)" with an optional " as Name".
type aggSpec struct {
	stat, column, name string
	q                  float64
}

var aggPattern = regexp.MustCompile(`^\s*(\w+)\s*\(\s*(.*?)\s*\)\s*(?:(?i:as)\s+(.+?))?\s*$`)

func parseAggSpec(spec string) (aggSpec, error) {
	m := aggPattern.FindStringSubmatch(spec)
	if m == nil {
		if _, ok := statNames[strings.ToLower(strings.TrimSpace(spec))]; ok {
			return aggSpec{}, errorf("Agg", "%q: write the column in parentheses, e.g. %q (or \"count()\")", spec, strings.TrimSpace(spec)+"(Award Amount)")
		}
		return aggSpec{}, errorf("Agg", "%q is not a statistic; write \"stat(column)\" or \"stat(column) as Name\", e.g. \"sum(Award Amount) as Total\"; stats: %s", spec, statList)
	}
	a := aggSpec{stat: strings.ToLower(m[1]), column: m[2], name: m[3]}
	if alias, ok := statAliases[a.stat]; ok {
		a.stat = alias
	}
	if _, ok := statNames[a.stat]; !ok {
		s := suggest(a.stat, strings.Split(statList, ", "), 1)
		hint := ""
		if len(s) > 0 {
			hint = " (did you mean " + quote(s[0]) + "?)"
		}
		return aggSpec{}, errorf("Agg", "%q: unknown statistic %q%s; use one of %s", spec, m[1], hint, statList).at(spec)
	}
	if a.stat == "quantile" {
		i := strings.LastIndex(a.column, ",")
		var q float64
		var err error
		if i >= 0 {
			q, err = strconv.ParseFloat(strings.TrimSpace(a.column[i+1:]), 64)
		}
		if i < 0 || err != nil || !(q >= 0 && q <= 1) || strings.TrimSpace(a.column[:i]) == "" {
			return aggSpec{}, errorf("Agg", "%q: quantile needs a column and q between 0 and 1, e.g. \"quantile(Award Amount, 0.9)\"", spec)
		}
		a.column, a.q = strings.TrimSpace(a.column[:i]), q
	}
	if a.column == "" && a.stat != "count" {
		return aggSpec{}, errorf("Agg", "%q: %s needs a column, e.g. \"%s(Award Amount)\"", spec, a.stat, a.stat)
	}
	if a.name == "" {
		switch {
		case a.stat == "count" && a.column == "":
			a.name = "Count"
		case a.stat == "quantile":
			a.name = a.column + " (q" + strconv.FormatFloat(a.q, 'g', -1, 64) + ")"
		default:
			a.name = a.column + " (" + a.stat + ")"
		}
	}
	return a, nil
}

// Agg computes several statistics per group in one call, one result
// column each. A statistic is written "stat(column)", optionally followed
// by " as Name" to name the result (default: "column (stat)"). The
// statistics are count (rows; "count()" counts the group's rows,
// "count(column)" its non-null values), sum, mean, median, min, max, std
// and var (sample: divided by n-1, as pandas), nunique (distinct
// non-null values), first and last (non-null, in the frame's order), and
// quantile ("quantile(column, 0.9)").
//
// Example:
//
//	award_data.GroupBy("Agency").Agg("count()", "sum(Award Amount) as Dollars", "median(Award Amount)", "nunique(Company) as Firms")
func (g Grouped) Agg(stats ...string) Frame {
	if g.err != nil {
		return errFrame(g.err)
	}
	if len(stats) == 0 {
		return errFrame(errorf("Agg", "name at least one statistic, e.g. Agg(\"count()\", \"sum(Award Amount) as Dollars\"); stats: %s", statList))
	}
	cols := make([]*columnar.Vector, 0, len(stats))
	for _, spec := range stats {
		a, err := parseAggSpec(spec)
		if err != nil {
			return errFrame(err)
		}
		v, err := g.stat(a)
		if err != nil {
			return errFrame(err)
		}
		v.Name = a.name
		cols = append(cols, v)
	}
	seen := map[string]bool{}
	for _, c := range g.keys {
		seen[c.Name] = true
	}
	for _, c := range cols {
		if seen[c.Name] {
			return errFrame(errorf("Agg", "two result columns are named %q; name one with \" as Name\"", c.Name))
		}
		seen[c.Name] = true
	}
	return g.result(cols...)
}

func (g Grouped) stat(a aggSpec) (*columnar.Vector, error) {
	if a.stat == "count" && a.column == "" {
		out := make([]int64, len(g.rep))
		for i, n := range g.groupCounts() {
			out[i] = int64(n)
		}
		return &columnar.Vector{Kind: columnar.KindInt, N: len(out), Ints: out, AggName: "Count"}, nil
	}
	c, err := g.f.lookup("Agg", a.column)
	if err != nil {
		return nil, err
	}
	switch a.stat {
	case "count":
		out := make([]int64, len(g.rep))
		for k, id := range g.idList() {
			i := g.f.row(k)
			if !c.IsNull(i) && !(c.Kind == columnar.KindFloat && math.IsNaN(c.Floats[i])) {
				out[id]++
			}
		}
		return &columnar.Vector{Kind: columnar.KindInt, N: len(out), Ints: out, AggName: "Count"}, nil
	case "sum":
		return g.sum(c)
	case "mean":
		return g.mean(c)
	case "median":
		return g.quantile("Agg", c, 0.5)
	case "quantile":
		return g.quantile("Agg", c, a.q)
	case "min":
		return g.pick("Min", c, -1, false), nil
	case "max":
		return g.pick("Max", c, 1, false), nil
	case "first":
		return g.pick("First", c, -1, true), nil
	case "last":
		return g.pick("Last", c, 1, true), nil
	case "nunique":
		return g.countDistinct(c), nil
	case "std", "var":
		std := a.stat == "std"
		return g.moments("Agg", c, func(n int, _, centered float64) (float64, bool) {
			if n < 2 {
				return 0, false
			}
			v := centered / float64(n-1)
			if std {
				return math.Sqrt(v), true
			}
			return v, true
		})
	}
	return nil, errorf("Agg", "unknown statistic %q", a.stat)
}

// Agg computes statistics over all of f's rows, as one row; see
// Grouped.Agg for the statistics.
//
// Example:
//
//	award_data.Where("Phase", "==", "Phase II").Agg("count()", "sum(Award Amount)", "median(Award Amount)")
func (f Frame) Agg(stats ...string) Frame {
	if f.err != nil {
		return f
	}
	return f.single().Agg(stats...)
}

// single is f as one group without key columns.
func (f Frame) single() Grouped {
	n := 0
	if f.t != nil {
		n = f.Len()
	}
	return Grouped{f: f, ids: make([]int32, n), rep: []int32{-1}, counts: []int{n}}
}

// Agg computes statistics over all awards, as one row. See Grouped.Agg.
//
// Example:
//
//	award_data.Agg("count()", "sum(Award Amount) as Dollars", "nunique(Company) as Firms")
func Agg(stats ...string) Frame { return All().Agg(stats...) }
