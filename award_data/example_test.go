package award_data_test

import (
	"fmt"
	"math"

	award_data "github.com/sbirtools/sbir-kernel/award_data"
)

// The examples run on the 400-award test fixture (testdata/awards.csv).

func ExampleCount() {
	fmt.Println(award_data.Count())
	// Output: 400
}

func ExampleColumns() {
	fmt.Println(award_data.Columns()[:5])
	// Output: ["Company", "Award Title", "Agency", "Branch", "Phase"]
}

func ExampleHead() {
	fmt.Println(award_data.Head(3).Select("Company", "Agency", "Award Amount"))
	// Output:
	// Company               Agency                                    Award Amount
	// 0  Nimbus Software, LLC  National Aeronautics and Space Admini...    108,648.44
	// 1  Lumen Devices         Department of Defense                       110,820.84
	// 2  Keystone Optics       Department of Health and Human Services     118,017.97
	// [3 rows x 3 columns]
}

func ExampleWhere() {
	n := award_data.Where("Award Year", ">=", 2015).Where("Phase", "==", "Phase II").Count()
	lidar := award_data.Where("Abstract", "contains", "LIDAR").Count()
	fmt.Println(n, lidar)
	// Output:
	// 65 276
}

func ExampleFrame_Where_errors() {
	f := award_data.Where("Agncy", "==", "Department of Energy")
	fmt.Println(f.Err())
	fmt.Println(f) // printing shows the error too
	// Output:
	// award_data: Where: unknown column "Agncy" (did you mean "Agency"?)
	// award_data: Where: unknown column "Agncy" (did you mean "Agency"?)
}

func ExampleGroupBy() {
	fmt.Println(award_data.GroupBy("Agency").Sum("Award Amount").Sort("-Award Amount").Head(3))
	// Output:
	// Agency                                    Award Amount
	// 0  Department of Defense                    84,533,347.44
	// 1  Department of Health and Human Services  32,790,825.91
	// 2  Department of Energy                     14,844,824.49
	// [3 rows x 2 columns]
}

func ExampleGrouped_Share() {
	fmt.Println(award_data.GroupBy("Program").Share("Woman Owned", "==", "Y"))
	// Output:
	// Program  Count  Share
	// 0  SBIR       372  12.9%
	// 1  STTR        28  14.3%
	// [2 rows x 3 columns]
}

func ExampleFrame_ValueCounts() {
	fmt.Println(award_data.ValueCounts("Phase"))
	// Output:
	// Phase     Count
	// 0  Phase I     274
	// 1  Phase II    126
	// [2 rows x 2 columns]
}

func ExampleFrame_Floats() {
	amounts := award_data.Head(4).Floats("Award Amount")
	total := 0.0
	for _, v := range amounts {
		if !math.IsNaN(v) { // NaN marks a null
			total += v
		}
	}
	fmt.Printf("%.2f\n", total)
	// Output:
	// 1301810.02
}

func ExampleFrame_Filter() {
	big := award_data.Filter(func(r award_data.Row) bool {
		return r.Float("Award Amount") > 1_500_000 && r.String("Program") == "STTR"
	})
	fmt.Println(big.Count())
	// Output:
	// 1
}

func ExampleFrame_Bar() {
	chart := award_data.ValueCounts("Phase").Bar("Phase", "Count").Title("Awards by phase")
	fmt.Println(chart)
	// Output:
	// Bar chart of Count by Phase: Awards by phase
	// Phase I   ████████████████████████████████████████ 274
	// Phase II  ██████████████████                       126
}

func ExampleGrouped_Agg() {
	fmt.Println(award_data.GroupBy("Phase").Agg("count()", "sum(Award Amount) as Dollars", "nunique(Company) as Firms"))
	// Output:
	// Phase     Count         Dollars  Firms
	// 0  Phase I     274   26,634,548.72     20
	// 1  Phase II    126  128,531,781.49     20
	// [2 rows x 4 columns]
}

func ExampleFrame_Pivot() {
	fmt.Println(award_data.Where("Award Year", ">=", 2020).Pivot(award_data.PivotOptions{Rows: "Phase", Columns: "Program", Agg: "count", Margins: true}))
	// Output:
	// Phase     SBIR  STTR  All
	// 0  Phase I     63     7   70
	// 1  Phase II    33     4   37
	// 2  All         96    11  107
	// [3 rows x 4 columns]
}

func ExampleFrame_Join() {
	firms := award_data.GroupBy("Company").Agg("count() as Awards")
	fmt.Println(award_data.Where("Phase", "==", "Phase II").Select("Company", "Award Year").Join(firms, "inner", "Company").Head(3))
	// Output:
	// Company           Award Year  Awards
	// 0  Pioneer Coatings        2013      25
	// 1  Quasar Imaging          2017      22
	// 2  Helix Analytics         2022      22
	// [3 rows x 3 columns]
}

func ExampleSort() {
	fmt.Println(award_data.Sort("Award Amount", award_data.Descending).Select("Company", "Award Amount").Head(2))
	// Output:
	// Company               Award Amount
	// 320  Summit Acoustics      1,598,651.09
	//  73  Nimbus Software, LLC  1,594,556.17
	// [2 rows x 2 columns]
}

func ExampleNewFrame() {
	f := award_data.NewFrame(
		award_data.Col("Agency", []string{"DOE", "NSF", "DOD"}),
		award_data.Col("Awards", []int{120, 80, 400}),
	)
	fmt.Println(f.Sort("Awards", award_data.Descending))
	// Output:
	// Agency  Awards
	// 0  DOD        400
	// 1  DOE        120
	// 2  NSF         80
	// [3 rows x 2 columns]
}

func ExampleFrame_ToCSV() {
	fmt.Print(award_data.ValueCounts("Phase").ToCSV())
	// Output:
	// Phase,Count
	// Phase I,274
	// Phase II,126
}

func ExampleFrame_Compute() {
	fmt.Println(award_data.Head(2).Compute("Award (k$)", "Award Amount", "/", 1000).Select("Company", "Award (k$)"))
	// Output:
	// Company               Award (k$)
	// 0  Nimbus Software, LLC      108.65
	// 1  Lumen Devices             110.82
	// [2 rows x 2 columns]
}

func ExampleWhere_missingValue() {
	fmt.Println(award_data.Where("Agency", "==", "NASA").Select("Company"))
	// Output:
	// Company
	// [0 rows x 1 columns]
	// note: no row has Agency == "NASA"; did you mean "National Aeronautics and Space Administration"?
}
