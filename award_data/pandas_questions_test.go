package award_data

import (
	"math"
	"strings"
	"testing"
)

// awardDataAnswers asks the questions of testdata/pandas_answers.py of
// all, each with one award_data call (the conversions after it only shape
// the answer for comparison).
func awardDataAnswers(t *testing.T, all Frame) map[string]any {
	t.Helper()
	out := map[string]any{}
	byYear := all.GroupBy("Award Year").Sum("Award Amount")
	out["pct_change"] = pairs(byYear.PctChange("Award Amount"), "Award Amount (pct change)", "Award Year")
	out["diff"] = pairs(all.GroupBy("Award Year").Count().Diff("Count"), "Count (diff)", "Award Year")
	out["shift"] = pairs(byYear.Shift("Award Amount"), "Award Amount (shift)", "Award Year")
	out["cumsum"] = pairs(byYear.CumSum("Award Amount"), "Award Amount (cumsum)", "Award Year")
	out["rolling_mean"] = pairs(byYear.Rolling("Award Amount", 3, "mean"), "Award Amount (rolling mean 3)", "Award Year")
	out["rolling_median"] = pairs(byYear.Rolling("Award Amount", 4, "median"), "Award Amount (rolling median 4)", "Award Year")
	out["rolling_std"] = pairs(byYear.Rolling("Award Amount", 3, "std"), "Award Amount (rolling std 3)", "Award Year")
	out["rolling_max"] = pairs(byYear.Rolling("Award Amount", 5, "max"), "Award Amount (rolling max 5)", "Award Year")
	agencyYear := all.GroupBy("Agency", "Award Year").Sum("Award Amount")
	out["group_pct_change"] = pairs(agencyYear.GroupBy("Agency").PctChange("Award Amount"), "Award Amount (pct change)", "Agency", "Award Year")
	out["group_cumsum"] = pairs(agencyYear.GroupBy("Agency").CumSum("Award Amount"), "Award Amount (cumsum)", "Agency", "Award Year")
	out["cut"] = counts(all.Cut("Number Employees", []float64{0, 10, 50, 250, 500}, "1-10", "11-50", "51-250", "251-500").ValueCounts("Number Employees (bin)"))
	out["qcut"] = counts(all.QCut("Award Amount", 4, "0", "1", "2", "3").ValueCounts("Award Amount (q4)"))
	byDate := all.Sort("Proposal Award Date")
	out["first"] = pairs(byDate.GroupBy("Agency").First("Company"), "Company", "Agency")
	out["last"] = pairs(byDate.GroupBy("Agency").Last("Company"), "Company", "Agency")
	// The year with the most Phase II dollars per agency.
	best := all.Where("Phase", "==", "Phase II").GroupBy("Agency", "Award Year").Sum("Award Amount").GroupBy("Agency").IdxMax("Award Amount")
	var idx [][]any
	for _, p := range pairs(best, "Award Year", "Agency") {
		idx = append(idx, []any{p[0], p[1]})
	}
	out["idxmax"] = idx
	out["rank"] = pairs(all.GroupBy("Company").Sum("Award Amount").Rank("Award Amount", Descending, "min"), "Award Amount (rank)", "Company")
	out["group_rank"] = positionPairs(all.GroupBy("Agency").Rank("Award Amount", Descending, "first"), "Award Amount (rank)")
	out["head_per_group"] = rowIndexes(all.Sort("-Award Amount").GroupBy("Agency").Head(2))
	out["word_counts"] = counts(all.Where("Agency", "==", "Department of Defense").WordCounts("Abstract").Rename("Word", "Abstract"))
	out["lower"] = counts(all.Lower("Company").ValueCounts("Company"))
	out["extract"] = counts(all.Extract("Contact Email", "@(.+)$").ValueCounts("Contact Email (extract)"))
	out["explode"] = counts(all.Head(300).Explode("Award Title", " ").ValueCounts("Award Title"))
	out["month"] = counts(all.Month("Proposal Award Date").ValueCounts("Proposal Award Date (month)"))
	out["weekday"] = counts(all.DatePart("Proposal Award Date", "weekday").ValueCounts("Proposal Award Date (weekday)"))
	out["drop_duplicates"] = rowIndexes(all.DropDuplicates("Company", "Agency"))
	melted := all.GroupBy("Agency").Agg("sum(Award Amount) as Dollars", "count() as Awards").Melt([]string{"Agency"})
	var melt [][]any
	for k := 0; k < melted.Len(); k++ {
		r := melted.Row(k)
		melt = append(melt, []any{r.String("Agency"), r.String("variable"), r.Float("value")})
	}
	out["melt"] = melt
	wide := all.GroupBy("Agency", "Phase").Sum("Award Amount").Unstack("Phase")
	var unstack [][]any
	for k := 0; k < wide.Len(); k++ {
		i := wide.row(k)
		row := []any{}
		for _, ci := range wide.cols {
			row = append(row, cell(wide.t.Cols[ci], i))
		}
		unstack = append(unstack, row)
	}
	out["unstack"] = unstack
	out["corr"] = all.Corr("Number Employees", "Award Amount")
	out["compare_mean"] = pairs(all.Compute("Big", "Award Amount", ">", 1e6).GroupBy("Agency").Mean("Big"), "Big", "Agency")
	both := all.Compute("Big", "Award Amount", ">", 1e6).Compute("Phase II", "Phase", "==", "Phase II").Compute("Both", "Big", "and", "Phase II")
	out["and_sum"] = both.Sum("Both")
	out["contains_share"] = all.Compute("Lidar", "Abstract", "contains", "lidar").Mean("Lidar")
	// A hand-written mean over DropNull's values: no NaN poisons it.
	sum, n := 0.0, 0
	for _, v := range all.DropNull("Award Amount").Floats("Award Amount") {
		sum, n = sum+v, n+1
	}
	out["dropna_mean"] = sum / float64(n)
	out["fillna_mean"] = all.FillNull("Number Employees", 0).Mean("Number Employees")
	sums := all.GroupBy("Agency").Sum("Award Amount")
	out["group_sum"] = pairs(sums, "Award Amount", "Agency")
	// The sums print as the shortest exact decimal: no more than cents.
	for _, line := range strings.Split(strings.TrimSpace(sums.ToCSV()), "\n")[1:] {
		v := line[strings.LastIndexByte(line, ',')+1:]
		if dot := strings.IndexByte(v, '.'); dot >= 0 && len(v)-dot-1 > 2 {
			t.Errorf("ToCSV writes %s for a sum of amounts in cents", v)
		}
	}
	if math.IsNaN(out["dropna_mean"].(float64)) {
		t.Error("the mean over DropNull's values is NaN")
	}
	return out
}
