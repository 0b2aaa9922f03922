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
