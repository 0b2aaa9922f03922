package award_data

import (
	"math"
	"strconv"
	"time"
)

// palette is Vega-Lite's default categorical scheme (tableau10), so the
// SVG and the interactive chart color series alike.
var palette = [...]string{"#4c78a8", "#f58518", "#e45756", "#72b7b2", "#54a24b", "#eeca3b", "#b279a2", "#ff9da6", "#9d755d", "#bab0ac"}

// axis maps data values to pixels along one dimension: a linear or
// logarithmic scale over [lo, hi], or bands for categories.
type axis struct {
	lo, hi     float64
	log        bool
	bands      []string // categories in order; nil for a numeric axis
	from, to   float64  // pixel range
	year, date bool     // tick labels as years / dates
	percent    bool     // tick labels as percentages
}

func (a *axis) pos(v float64) float64 {
	if a.log {
		v, lo, hi := math.Log10(v), math.Log10(a.lo), math.Log10(a.hi)
		return a.from + (v-lo)/(hi-lo)*(a.to-a.from)
	}
	return a.from + (v-a.lo)/(a.hi-a.lo)*(a.to-a.from)
}

func (a *axis) band(i int) (start, width float64) {
	w := (a.to - a.from) / float64(max(len(a.bands), 1))
	return a.from + float64(i)*w, w
}

// niceTicks returns about n round tick values covering [lo, hi], and
// widens lo and hi to the outer ticks.
func niceTicks(lo, hi float64, n int) (ticks []float64, nlo, nhi float64) {
	if hi <= lo {
		hi = lo + 1
	}
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	nlo, nhi = math.Floor(lo/step)*step, math.Ceil(hi/step)*step
	if !(step > 0) || math.IsInf(step, 0) || math.IsNaN(nlo) || math.IsNaN(nhi) || (nhi-nlo)/step > 100 {
		return []float64{lo, hi}, lo, hi // extreme values: no round ticks
	}
	for v := nlo; v <= nhi+step/2; v += step {
		ticks = append(ticks, math.Round(v/step)*step)
	}
	return ticks, nlo, nhi
}

func (a *axis) ticks() []float64 {
	if a.log {
		var t []float64
		first, last := math.Floor(math.Log10(a.lo)), math.Ceil(math.Log10(a.hi))
		if math.IsNaN(first) || math.IsInf(first, 0) || math.IsNaN(last) || last-first > 60 {
			return nil
		}
		for e := first; e <= last; e++ {
			if v := math.Pow(10, e); v >= a.lo*0.999 && v <= a.hi*1.001 {
				t = append(t, v)
			}
		}
		return t
	}
	t, _, _ := niceTicks(a.lo, a.hi, 5)
	var out []float64
	for _, v := range t {
		if v >= a.lo-1e-9*math.Abs(a.hi-a.lo) && v <= a.hi+1e-9*math.Abs(a.hi-a.lo) {
			out = append(out, v)
		}
	}
	return out
}

func (a *axis) label(v float64) string {
	switch {
	case a.year:
		return strconv.FormatInt(int64(math.Round(v)), 10)
	case a.date:
		return time.Unix(int64(v)*86400, 0).UTC().Format("2006-01-02")
	case a.percent:
		return strconv.FormatFloat(math.Round(v*100*1e6)/1e6, 'f', -1, 64) + "%" // no float noise: 15%, not 15.000000000000002%
	}
	return shortNumber(v)
}

// shortNumber formats a tick value compactly: 1.5M, 250k, 0.25.
func shortNumber(v float64) string {
	abs := math.Abs(v)
	for _, u := range []struct {
		div  float64
		unit string
	}{{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "k"}} {
		if abs >= u.div {
			return strconv.FormatFloat(v/u.div, 'f', -1, 64) + u.unit
		}
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// numeric converts a chart value to a position value: numbers as they
// are, dates ("2006-01-02") as days; ok is false otherwise.
func numericValue(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, !math.IsNaN(x)
	case int64:
		return float64(x), true
	case string:
		if t, err := time.Parse("2006-01-02", x); err == nil {
			return float64(t.Unix() / 86400), true
		}
	}
	return 0, false
}
