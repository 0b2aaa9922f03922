package mcpserver

// cheatSheet is the award_data API agents use most, one line per call
// with an example: run_go's description carries it so that an agent can
// write code without looking names up (api_reference has the rest). Each
// line is Go code, then "//" and a note; TestCheatSheetRuns runs every
// line in a session where f is all awards, other a small frame, and a and
// b two frames.
const cheatSheet = `award_data.Count()                                   // rows of all awards; package functions work on all awards, methods on a Frame f
award_data.Columns()                                 // column names: "Company", "Agency", "Phase", "Award Year", "Award Amount", ...
f.Head(5)                                            // also f.Tail(5), f.Slice(10, 20), f.Sample(5, 1)
f.Select("Company", "Award Amount")                  // columns in this order; f.Drop("Abstract") removes
f.Where("Award Year", ">=", 2015)                    // ops: == != < <= > >=, in, not in, between, contains, not contains, prefix, suffix, matches, is null, not null
f.Where("Agency", "in", []string{"Department of Energy", "National Science Foundation"})
f.Where("Award Year", "between", []int{2010, 2015})  // inclusive
f.Where("Abstract", "contains", "lidar")             // text, case ignored; "matches" takes a Go regexp
f.Where("UEI", "is null", nil)                       // empty CSV fields are null
f.Sort("-Award Amount")                              // "-" or award_data.Descending: largest first; f.Sort("Agency", "Award Year", award_data.Descending)
f.NLargest(10, "Award Amount")                       // also NSmallest
f.Len()                                              // also f.Count()
f.Sum("Award Amount")                                // float64; also Mean, Median, Min, Max, Quantile("Award Amount", 0.9); nulls skipped
f.CountDistinct("Company")                           // distinct non-null values
f.ValueCounts("Agency")                              // columns Agency, Count; most frequent first
f.Unique("Phase")                                    // sorted distinct values, one column
f.GroupBy("Agency").Count()                          // columns Agency, Count
f.GroupBy("Agency", "Phase").Sum("Award Amount")     // result column keeps its name: Award Amount; also Mean, Median, Min, Max
f.GroupBy("Agency").Quantile("Award Amount", 0.9)    // per group
f.GroupBy("Company").CountDistinct("Agency")         // column "Distinct Agency"
f.GroupBy("Agency").Agg("count() as Awards", "sum(Award Amount) as Dollars", "nunique(Company) as Firms")  // also mean median min max std var first last quantile(col, 0.9)
f.GroupBy("State").Share("Woman Owned", "==", "Y")   // columns State, Count, Share (0 to 1)
f.Pivot(award_data.PivotOptions{Rows: "Agency", Columns: "Phase", Values: "Award Amount", Agg: "sum", Margins: true})
f.Join(other, "left", "Agency")                      // inner, left, right, outer; like pandas merge
award_data.Concat(a, b)                              // rows of a then b
f.Compute("Per Employee", "Award Amount", "/", "Number Employees")  // + - * / with a column or a number; compiled, fast
f.Rename("Award Amount", "Dollars")                  // old, new pairs
f.Describe()                                         // per column: type, count, nulls, distinct, min, max, mean
f.Strings("Company")                                 // a column as a Go slice; also Floats, Ints, Times
f.Row(0).String("Company")                           // one value; also Row.Float, Row.Int, Row.Time, Row.IsNull
award_data.NewFrame(award_data.Col("x", []string{"a", "b"}), award_data.Col("n", []int{1, 2}))  // a frame from Go slices; also FromRecords
f.ToCSV()                                            // also f.ToJSON(), f.Records()
f.GroupBy("Award Year").Sum("Award Amount").Line("Award Year", "Award Amount")  // also Bar(x, y), Scatter(x, y), Histogram(col, bins)`
