package award_data

import (
	"strings"
	"testing"
)

// TestArgumentHints checks that a misplaced or pandas-style argument gets
// an error saying what award_data expects instead, and names the argument
// (Error.Arg, where the kernel points).
func TestArgumentHints(t *testing.T) {
	loadFixture(t)
	tests := []struct {
		name string
		err  error
		want string
		arg  string
	}{
		{"sort desc", Sort("Award Amount", "desc").Err(), `Sort: "desc" is not a column; a direction follows the column as award_data.Descending`, "desc"},
		{"sort asc", Sort("Award Amount", "ascending").Err(), "award_data.Ascending", "ascending"},
		{"mean of a flag", GroupBy("State").Mean("Woman Owned").Err(), `use Share: GroupBy("State").Share("Woman Owned", "==", "Y")`, ""},
		{"join how", Head(3).Join(ValueCounts("Agency"), "Agency").Err(), `how comes before the keys: Join(other, "left", "Agency")`, "Agency"},
		{"unknown column", Where("Agncy", "==", 1).Err(), `did you mean "Agency"?`, "Agncy"},
		{"unknown operator", Where("Agency", "=>", "x").Err(), `unknown operator "=>"`, "=>"},
		{"rank direction", GroupBy("Agency").Count().Rank("Count", "desc").Err(), "award_data.Descending", ""},
		{"rolling stat", GroupBy("Award Year").Count().Rolling("Count", 3, "average").Err(), "", ""},
		{"agg alias", GroupBy("Agency").Agg("average(Award Amount)").Err(), "", ""},
		{"date part", DatePart("Proposal Award Date", "fortnight").Err(), "use one of year, quarter, month", ""},
		{"cut edges", Cut("Award Amount", []float64{10, 5}).Err(), "the edges must increase", ""},
	}
	for _, tt := range tests {
		if tt.want == "" {
			if tt.err != nil {
				t.Errorf("%s: %v, want it accepted (an alias)", tt.name, tt.err)
			}
			continue
		}
		if tt.err == nil || !strings.Contains(tt.err.Error(), tt.want) {
			t.Errorf("%s: %v, want it to contain %q", tt.name, tt.err, tt.want)
			continue
		}
		if e, _ := tt.err.(*Error); tt.arg != "" && (e == nil || e.Arg != tt.arg) {
			t.Errorf("%s: Arg %q, want %q", tt.name, e.Arg, tt.arg)
		}
	}
}
