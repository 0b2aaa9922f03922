package award_data_test

import (
	"fmt"

	award_data "github.com/sbirtools/sbir-kernel/award_data"
)

// Examples of the functions a pandas user reaches for (issue 31), on the
// 400-award test fixture.

func ExampleFrame_PctChange() {
	growth := award_data.GroupBy("Award Year").Sum("Award Amount").PctChange("Award Amount")
	fmt.Println(growth.Where("Award Year", ">=", 2022))
	// Output:
	// Award Year  Award Amount  Award Amount (pct change)
	// 0        2022  4,223,111.18                      -0.63
	// 1        2023  9,946,834.59                       1.36
	// 2        2024  7,739,598.95                      -0.22
	// [3 rows x 3 columns]
}

func ExampleFrame_Rolling() {
	fmt.Println(award_data.GroupBy("Award Year").Count().Rolling("Count", 3, "mean").Tail(3))
	// Output:
	// Award Year  Count  Count (rolling mean 3)
	// 0        2022     17                   23.00
	// 1        2023     20                   21.67
	// 2        2024     18                   18.33
	// [3 rows x 3 columns]
}

func ExampleFrame_CumSum() {
	fmt.Println(award_data.GroupBy("Award Year").Count().CumSum("Count").Diff("Count").Tail(2))
	// Output:
	// Award Year  Count  Count (cumsum)  Count (diff)
	// 0        2023     20             382             3
	// 1        2024     18             400            -2
	// [2 rows x 4 columns]
}

func ExampleGrouped_PctChange() {
	f := award_data.GroupBy("Phase", "Award Year").Sum("Award Amount").Where("Award Year", ">=", 2023)
	fmt.Println(f.GroupBy("Phase").PctChange("Award Amount"))
	// Output:
	// Phase     Award Year  Award Amount  Award Amount (pct change)
	// 0  Phase I         2023  1,209,860.31
	// 1  Phase I         2024  1,088,884.54                    -0.1000
	// 2  Phase II        2023  8,736,974.28
	// 3  Phase II        2024  6,650,714.41                    -0.2388
	// [4 rows x 4 columns]
}

func ExampleFrame_Cut() {
	sizes := award_data.Cut("Number Employees", []float64{0, 10, 50, 500}, "small", "medium", "large")
	fmt.Println(sizes.GroupBy("Number Employees (bin)").Count())
	// Output:
	// Number Employees (bin)  Count
	// 0  small                      87
	// 1  medium                     96
	// 2  large                      73
	// 3                            144
	// [4 rows x 2 columns]
}

func ExampleFrame_QCut() {
	fmt.Println(award_data.QCut("Award Amount", 4, "Q1", "Q2", "Q3", "Q4").ValueCounts("Award Amount (q4)"))
	// Output:
	// Award Amount (q4)  Count
	// 0  Q1                    98
	// 1  Q2                    97
	// 2  Q3                    97
	// 3  Q4                    97
	// 4                        11
	// [5 rows x 2 columns]
}

func ExampleGrouped_IdxMax() {
	byYear := award_data.GroupBy("Phase", "Award Year").Sum("Award Amount")
	fmt.Println(byYear.GroupBy("Phase").IdxMax("Award Amount"))
	// Output:
	// Phase     Award Year   Award Amount
	// 0  Phase I         2008   2,153,877.90
	// 1  Phase II        2010  15,602,042.87
	// [2 rows x 3 columns]
}

func ExampleGrouped_Head() {
	fmt.Println(award_data.Sort("-Award Amount").GroupBy("Phase").Head(1).Select("Phase", "Company", "Award Amount"))
	// Output:
	// Phase     Company                Award Amount
	// 320  Phase II  Summit Acoustics       1,598,651.09
	//  50  Phase I   Orbital Micro Systems    149,764.56
	// [2 rows x 3 columns]
}

func ExampleGrouped_First() {
	fmt.Println(award_data.Sort("Proposal Award Date").GroupBy("Phase").First("Proposal Award Date"))
	// Output:
	// Phase     Proposal Award Date
	// 0  Phase I   2005-01-16
	// 1  Phase II  2005-02-10
	// [2 rows x 2 columns]
}

func ExampleFrame_Rank() {
	firms := award_data.GroupBy("Agency").Count().Rank("Count", award_data.Descending, "min")
	fmt.Println(firms.Sort("Count (rank)").Head(3))
	// Output:
	// Agency                                   Count  Count (rank)
	// 0  Department of Defense                      213             1
	// 1  Department of Health and Human Services     93             2
	// 2  Department of Energy                        34             3
	// [3 rows x 3 columns]
}

func ExampleFrame_WordCounts() {
	fmt.Println(award_data.WordCounts("Award Title").Head(3))
	// Output:
	// Word      Count
	// 0  project     400
	// 1  lidar        52
	// 2  spectral     39
	// [3 rows x 2 columns]
}

func ExampleFrame_Extract() {
	f := award_data.Head(3).Extract("Award Title", `^Project (\d+)`)
	fmt.Println(f.Strings("Award Title (extract)"))
	// Output: [0 1 2]
}

func ExampleFrame_Explode() {
	fmt.Println(award_data.Head(1).Select("Award Title").Explode("Award Title", " ").Len())
	// Output: 4
}

func ExampleFrame_Lower() {
	fmt.Println(award_data.Head(2).Lower("Company").Strings("Company"))
	// Output: [nimbus software, llc lumen devices]
}

func ExampleFrame_DatePart() {
	fmt.Println(award_data.DatePart("Proposal Award Date", "quarter").ValueCounts("Proposal Award Date (quarter)"))
	// Output:
	// Proposal Award Date (quarter)  Count
	// 0                                   149
	// 1                              1     71
	// 2                              2     68
	// 3                              4     63
	// 4                              3     49
	// [5 rows x 2 columns]
}

func ExampleFrame_DropDuplicates() {
	fmt.Println(award_data.Count(), award_data.DropDuplicates("Agency").Len(), award_data.DropDuplicates("Agency", "Phase").Len())
	// Output: 400 7 13
}

func ExampleFrame_Melt() {
	fmt.Println(award_data.GroupBy("Phase").Agg("count() as Awards", "nunique(Agency) as Agencies").Melt([]string{"Phase"}))
	// Output:
	// Phase     variable  value
	// 0  Phase I   Awards      274
	// 1  Phase II  Awards      126
	// 2  Phase I   Agencies      7
	// 3  Phase II  Agencies      6
	// [4 rows x 3 columns]
}

func ExampleFrame_Unstack() {
	fmt.Println(award_data.GroupBy("Program", "Phase").Count().Unstack("Phase"))
	// Output:
	// Program  Phase I  Phase II
	// 0  SBIR         260       112
	// 1  STTR          14        14
	// [2 rows x 3 columns]
}

func ExampleFrame_Corr() {
	fmt.Printf("%.4f\n", award_data.Corr("Award Year", "Award Amount"))
	// Output: 0.0533
}

func ExampleFrame_Compute_comparison() {
	big := award_data.Compute("Big", "Award Amount", ">", 500000)
	fmt.Println(big.GroupBy("Phase").Mean("Big"))
	both := big.Compute("Phase I", "Phase", "==", "Phase I").Compute("Big Phase I", "Big", "and", "Phase I")
	fmt.Println(both.Sum("Big Phase I"), both.Head(2).Select("Big", "Phase I", "Big Phase I"))
	// Output:
	// Phase        Big
	// 0  Phase I   0.0000
	// 1  Phase II  0.9603
	// [2 rows x 2 columns]
	// 0      Big  Phase I  Big Phase I
	// 0  false     true        false
	// 1  false     true        false
	// [2 rows x 3 columns]
}

func ExampleFrame_DropNull() {
	amounts := award_data.DropNull("Number Employees").Floats("Number Employees")
	sum := 0.0
	for _, v := range amounts {
		sum += v // no NaN: nulls were dropped
	}
	fmt.Printf("%.2f %.2f\n", sum/float64(len(amounts)), award_data.Mean("Number Employees"))
	// Output: 1442.86 1442.86
}

func ExampleFrame_FillNull() {
	fmt.Println(award_data.FillNull("Number Employees", 0).Nulls("Number Employees")[:3])
	// Output: [false false false]
}

func ExampleRow_FloatOK() {
	f := award_data.Head(20)
	n := 0
	for i := 0; i < f.Len(); i++ {
		if _, ok := f.Row(i).FloatOK("Number Employees"); ok {
			n++
		}
	}
	fmt.Println(n, "of", f.Len())
	// Output: 16 of 20
}
