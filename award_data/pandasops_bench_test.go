package award_data_test

import (
	"testing"

	award_data "github.com/sbirtools/sbir-kernel/award_data"
)

// pandasOps are the cells of bench/pandas_ops.py (issue 31) as compiled
// Go, each ending in the value a notebook displays: the engine's share
// of what bench/compare.sh times against pandas, without the interpreter
// and the kernel's round trip.
var pandasOps = []struct {
	name string
	cell func() award_data.Frame
}{
	{"PctChange", func() award_data.Frame {
		return award_data.GroupBy("Award Year").Sum("Award Amount").PctChange("Award Amount")
	}},
	{"Rolling", func() award_data.Frame {
		return award_data.GroupBy("Agency", "Award Year").Sum("Award Amount").GroupBy("Agency").Rolling("Award Amount", 3, "mean")
	}},
	{"Cut", func() award_data.Frame {
		return award_data.Cut("Number Employees", []float64{0, 10, 50, 250, 500}).ValueCounts("Number Employees (bin)")
	}},
	{"QCut", func() award_data.Frame {
		return award_data.QCut("Award Amount", 4).ValueCounts("Award Amount (q4)")
	}},
	{"IdxMax", func() award_data.Frame {
		return award_data.Where("Phase", "==", "Phase II").GroupBy("Agency", "Award Year").Sum("Award Amount").GroupBy("Agency").IdxMax("Award Amount")
	}},
	{"Rank", func() award_data.Frame {
		return award_data.GroupBy("Agency").Rank("Award Amount", award_data.Descending, "first")
	}},
	{"HeadPerGroup", func() award_data.Frame {
		return award_data.Sort("-Award Amount").GroupBy("Agency").Head(3)
	}},
	{"Lower", func() award_data.Frame {
		return award_data.Lower("Company").ValueCounts("Company").Head(10)
	}},
	{"Extract", func() award_data.Frame {
		return award_data.Extract("Contact Email", `@(.+)$`).ValueCounts("Contact Email (extract)").Head(10)
	}},
	{"Month", func() award_data.Frame {
		return award_data.Month("Proposal Award Date").ValueCounts("Proposal Award Date (month)")
	}},
	{"DropDuplicates", func() award_data.Frame {
		return award_data.DropDuplicates("Company", "Agency")
	}},
	{"Unstack", func() award_data.Frame {
		return award_data.GroupBy("Agency", "Phase").Sum("Award Amount").Unstack("Phase")
	}},
	{"Compare", func() award_data.Frame {
		return award_data.Compute("Big", "Award Amount", ">", 1e6).GroupBy("Agency").Mean("Big")
	}},
}

// BenchmarkPandasOps runs the operations of bench/pandas_ops.py on the
// full-scale data and renders each result as a notebook displays it
// (MIMEBundle), reporting CPU time per operation next to wall time: on
// a shared machine other processes stretch wall time, not CPU time.
// WordCounts (seconds) and Corr (a number) are measured by
// BenchmarkPandasOpsScalar.
func BenchmarkPandasOps(b *testing.B) {
	useFullScale(b)
	for _, op := range pandasOps {
		b.Run(op.name, func(b *testing.B) {
			run := func() {
				f := op.cell()
				if err := f.Err(); err != nil {
					b.Fatal(err)
				}
				_ = f.MIMEBundle()
			}
			run() // touch the mapped pages and build any cached dictionary once
			b.ResetTimer()
			cpu := cpuTime()
			faults := minorFaults()
			for i := 0; i < b.N; i++ {
				run()
			}
			reportCPU(b, cpu)
			b.ReportMetric(float64(minorFaults()-faults)/float64(b.N), "faults/op")
		})
	}
}

// BenchmarkPandasOpsScalar is BenchmarkPandasOps for the operations
// whose answer is a number, and WordCounts.
func BenchmarkPandasOpsScalar(b *testing.B) {
	useFullScale(b)
	ops := []struct {
		name string
		run  func() any
	}{
		{"Corr", func() any { return award_data.Corr("Number Employees", "Award Amount") }},
		{"WordCounts", func() any {
			return award_data.Where("Agency", "==", "Department of Defense").WordCounts("Abstract").Head(10).MIMEBundle()
		}},
	}
	for _, op := range ops {
		b.Run(op.name, func(b *testing.B) {
			op.run()
			b.ResetTimer()
			cpu := cpuTime()
			for i := 0; i < b.N; i++ {
				op.run()
			}
			reportCPU(b, cpu)
		})
	}
}
