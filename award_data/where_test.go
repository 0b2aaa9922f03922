package award_data

import (
	"errors"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// expectRows returns the fixture rows (ordinals) where keep holds.
func expectRows(rows []fixtureRow, keep func(r fixtureRow) bool) []int32 {
	out := []int32{}
	for i, r := range rows {
		if keep(r) {
			out = append(out, int32(i))
		}
	}
	return out
}

func frameRows(f Frame) []int32 {
	if f.Len() == 0 {
		return []int32{}
	}
	return slices.Clone(f.rowList())
}

func reMatch(pattern string) func(string) bool {
	re := regexp.MustCompile(pattern)
	return re.MatchString
}

// whereCase is a filtered frame and, for each row of the fixture, whether
// it must keep it. Frames are made on the loaded fixture: call the cases'
// functions after loadFixture.
type whereCase struct {
	name  string
	frame Frame
	keep  func(r fixtureRow) bool
}

// fold matches text holding needle under Unicode case folding.
func fold(needle string) func(string) bool {
	return reMatch("(?i)" + regexp.QuoteMeta(needle))
}

func TestWhere(t *testing.T) {
	rows := loadFixture(t)
	var tests []whereCase
	for _, cases := range [][]whereCase{whereCategoryCases(), whereNumberCases(), whereTextCases(), whereCombinedCases()} {
		tests = append(tests, cases...)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.frame.Err(); err != nil {
				t.Fatal(err)
			}
			got := frameRows(tt.frame)
			want := expectRows(rows, tt.keep)
			if !slices.Equal(got, want) {
				t.Errorf("got %d rows %v\nwant %d rows %v", len(got), head(got), len(want), head(want))
			}
			if tt.frame.Count() != len(want) {
				t.Errorf("Count = %d, want %d", tt.frame.Count(), len(want))
			}
		})
	}
}

// whereCategoryCases filter a category (dictionary) column, nulls included.
func whereCategoryCases() []whereCase {
	return []whereCase{
		{"category ==", Where("Phase", "==", "Phase II"), func(r fixtureRow) bool { return r["Phase"] == "Phase II" }},
		{"category == is exact", Where("Phase", "==", "phase ii"), func(r fixtureRow) bool { return false }},
		{"category != skips nulls", Where("Branch", "!=", "Navy"), func(r fixtureRow) bool { return r["Branch"] != "" && r["Branch"] != "Navy" }},
		{"category in", Where("Agency", "in", []string{"Department of Energy", "National Science Foundation"}), func(r fixtureRow) bool {
			return r["Agency"] == "Department of Energy" || r["Agency"] == "National Science Foundation"
		}},
		{"category not in", Where("State", "not in", []string{"Texas", "Ohio"}), func(r fixtureRow) bool {
			return r["State"] != "" && r["State"] != "Texas" && r["State"] != "Ohio"
		}},
		{"category contains", Where("Agency", "contains", "DEFENSE"), func(r fixtureRow) bool { return fold("defense")(r["Agency"]) }},
		{"category prefix", Where("State", "prefix", "new"), func(r fixtureRow) bool { return strings.HasPrefix(strings.ToLower(r["State"]), "new") }},
		{"category is null", Where("State", "is null", nil), func(r fixtureRow) bool { return r["State"] == "" }},
		{"== nil means is null", Where("HUBZone Owned", "==", nil), func(r fixtureRow) bool { return r["HUBZone Owned"] == "" }},
		{"!= nil means not null", Where("HUBZone Owned", "!=", nil), func(r fixtureRow) bool { return r["HUBZone Owned"] != "" }},
	}
}

// whereNumberCases filter integer, float and date columns, with Go values of any numeric type, strings and times.
func whereNumberCases() []whereCase {
	dayOf := func(s string) time.Time {
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			panic(err)
		}
		return d
	}
	return []whereCase{
		{"int >=", Where("Award Year", ">=", 2015), func(r fixtureRow) bool { v, _ := num(r["Award Year"]); return v >= 2015 }},
		{"int < float", Where("Award Year", "<", 2010.5), func(r fixtureRow) bool { v, _ := num(r["Award Year"]); return v < 2010.5 }},
		{"int == non-integral", Where("Award Year", "==", 2010.5), func(r fixtureRow) bool { return false }},
		{"int between", Where("Award Year", "between", []int{2010, 2012}), func(r fixtureRow) bool {
			v, _ := num(r["Award Year"])
			return v >= 2010 && v <= 2012
		}},
		{"int in", Where("Award Year", "in", []int64{2005, 2024}), func(r fixtureRow) bool { return r["Award Year"] == "2005" || r["Award Year"] == "2024" }},
		{"int with nulls >", Where("Number Employees", ">", 100), func(r fixtureRow) bool { v, ok := num(r["Number Employees"]); return ok && v > 100 }},
		{"int with nulls ==", Where("Number Employees", "==", 0), func(r fixtureRow) bool { v, ok := num(r["Number Employees"]); return ok && v == 0 }},
		{"int with nulls !=", Where("Number Employees", "!=", 9999), func(r fixtureRow) bool { v, ok := num(r["Number Employees"]); return ok && v != 9999 }},
		{"int not in", Where("Number Employees", "not in", []int{0, 9999}), func(r fixtureRow) bool {
			v, ok := num(r["Number Employees"])
			return ok && v != 0 && v != 9999
		}},
		{"float >", Where("Award Amount", ">", 1e6), func(r fixtureRow) bool { v, ok := num(r["Award Amount"]); return ok && v > 1e6 }},
		{"float <=", Where("Award Amount", "<=", 100000), func(r fixtureRow) bool { v, ok := num(r["Award Amount"]); return ok && v <= 100000 }},
		{"float == 0", Where("Award Amount", "==", 0), func(r fixtureRow) bool { v, ok := num(r["Award Amount"]); return ok && v == 0 }},
		{"float between uint8", Where("Award Amount", "between", []any{uint8(0), 60000.0}), func(r fixtureRow) bool {
			v, ok := num(r["Award Amount"])
			return ok && v >= 0 && v <= 60000
		}},
		{"float is null", Where("Award Amount", "is null", nil), func(r fixtureRow) bool { return r["Award Amount"] == "" }},
		{"date >= string", Where("Proposal Award Date", ">=", "2020-01-01"), func(r fixtureRow) bool { return r["Proposal Award Date"] >= "2020-01-01" }},
		{"date < time", Where("Proposal Award Date", "<", dayOf("2010-06-15")), func(r fixtureRow) bool {
			return r["Proposal Award Date"] != "" && r["Proposal Award Date"] < "2010-06-15"
		}},
		{"date between", Where("Contract End Date", "between", []string{"2015-01-01", "2016-12-31"}), func(r fixtureRow) bool {
			d := r["Contract End Date"]
			return d != "" && d >= "2015-01-01" && d <= "2016-12-31"
		}},
		{"date != skips nulls", Where("Proposal Award Date", "!=", "2005-12-21"), func(r fixtureRow) bool {
			return r["Proposal Award Date"] != "" && r["Proposal Award Date"] != "2005-12-21"
		}},
	}
}

// whereTextCases filter text columns: comparisons, Unicode case folding, regular expressions.
func whereTextCases() []whereCase {
	return []whereCase{
		{"text ==", Where("Company", "==", `Delta "Quantum" Labs`), func(r fixtureRow) bool { return r["Company"] == `Delta "Quantum" Labs` }},
		{"text <", Where("Company", "<", "G"), func(r fixtureRow) bool { return r["Company"] < "G" }},
		{"text in", Where("City", "in", []string{"Austin", "San José"}), func(r fixtureRow) bool { return r["City"] == "Austin" || r["City"] == "San José" }},
		{"text contains ASCII", Where("Abstract", "contains", "lidar"), func(r fixtureRow) bool { return fold("lidar")(r["Abstract"]) }},
		{"text contains upper", Where("Abstract", "contains", "LIDAR SYSTEM"), func(r fixtureRow) bool { return fold("lidar system")(r["Abstract"]) }},
		{"text contains Kelvin sign via k", Where("Abstract", "contains", "kelvin"), func(r fixtureRow) bool { return fold("kelvin")(r["Abstract"]) }},
		{"text contains long s via s", Where("Abstract", "contains", "sensor."), func(r fixtureRow) bool { return fold("sensor.")(r["Abstract"]) }},
		{"text contains non-ASCII", Where("Abstract", "contains", "ÜNÏCÖDÉ"), func(r fixtureRow) bool { return fold("ünïcödé")(r["Abstract"]) }},
		{"text contains quote", Where("Abstract", "contains", `"lidar"`), func(r fixtureRow) bool { return fold(`"lidar"`)(r["Abstract"]) }},
		{"text contains newline", Where("Abstract", "contains", "\nsecond"), func(r fixtureRow) bool { return fold("\nsecond")(r["Abstract"]) }},
		{"text contains nothing", Where("Abstract", "contains", "zebra"), func(r fixtureRow) bool { return false }},
		{"text contains empty", Where("Abstract", "contains", ""), func(r fixtureRow) bool { return r["Abstract"] != "" }},
		{"text not contains", Where("Abstract", "not contains", "lidar"), func(r fixtureRow) bool { return r["Abstract"] != "" && !fold("lidar")(r["Abstract"]) }},
		{"text prefix", Where("Award Title", "prefix", "PROJECT 1"), func(r fixtureRow) bool { return strings.HasPrefix(r["Award Title"], "Project 1") }},
		{"text suffix", Where("Company", "suffix", "inc."), func(r fixtureRow) bool { return strings.HasSuffix(strings.ToLower(r["Company"]), "inc.") }},
		{"text matches", Where("Award Title", "matches", `^Project \d{2}:`), func(r fixtureRow) bool { return reMatch(`^Project \d{2}:`)(r["Award Title"]) }},
		{"matches with a folded literal", Where("Abstract", "matches", `(?i)li(dar)+\s`), func(r fixtureRow) bool { return reMatch(`(?i)li(dar)+\s`)(r["Abstract"]) }},
		{"matches with an exact literal", Where("Abstract", "matches", `Lidar \w+`), func(r fixtureRow) bool { return reMatch(`Lidar \w+`)(r["Abstract"]) }},
		{"matches an alternation", Where("Abstract", "matches", `lidar|radar`), func(r fixtureRow) bool { return reMatch(`lidar|radar`)(r["Abstract"]) }},
		{"matches anchored", Where("Abstract", "matches", `^(?i)laser`), func(r fixtureRow) bool { return reMatch(`^(?i)laser`)(r["Abstract"]) }},
		{"matches Kelvin sign", Where("Abstract", "matches", `(?i)kelvin`), func(r fixtureRow) bool { return reMatch(`(?i)kelvin`)(r["Abstract"]) }},
		{"matches across lines", Where("Abstract", "matches", `(?s)straße.*`), func(r fixtureRow) bool { return reMatch(`(?s)straße.*`)(r["Abstract"]) }},
		{"text not null", Where("UEI", "not null", nil), func(r fixtureRow) bool { return r["UEI"] != "" }},
		{"text is null", Where("Contact Name", "is null", nil), func(r fixtureRow) bool { return true }},
	}
}

// whereCombinedCases are the spellings a user may use, chains of filters, and Filter with a Go function.
func whereCombinedCases() []whereCase {
	return []whereCase{
		{"case-insensitive column name", Where("award year", ">", 2020), func(r fixtureRow) bool { v, _ := num(r["Award Year"]); return v > 2020 }},
		{"operator spelling", Where("Phase", "EQ", "Phase I"), func(r fixtureRow) bool { return r["Phase"] == "Phase I" }},
		{"chained", Where("Award Year", ">=", 2015).Where("Phase", "==", "Phase II").Where("Abstract", "contains", "laser"), func(r fixtureRow) bool {
			v, _ := num(r["Award Year"])
			return v >= 2015 && r["Phase"] == "Phase II" && fold("laser")(r["Abstract"])
		}},
		{"chained to empty", Where("Phase", "==", "Phase III").Where("Award Year", ">", 2000), func(r fixtureRow) bool { return false }},
		{"filter func", Filter(func(r Row) bool { return r.Float("Award Amount") > 500000 && !r.IsNull("UEI") }), func(r fixtureRow) bool {
			v, ok := num(r["Award Amount"])
			return ok && v > 500000 && r["UEI"] != ""
		}},
		{"filter on a selection", Where("Agency", "==", "Department of Energy").Filter(func(r Row) bool { return r.Int("Award Year")%2 == 0 }), func(r fixtureRow) bool {
			v, _ := num(r["Award Year"])
			return r["Agency"] == "Department of Energy" && math.Mod(v, 2) == 0
		}},
		{"contains on a small selection", Where("Agency", "==", "Environmental Protection Agency").Where("Abstract", "contains", "SENSOR"), func(r fixtureRow) bool {
			return r["Agency"] == "Environmental Protection Agency" && fold("sensor")(r["Abstract"])
		}},
	}
}

func head(x []int32) []int32 {
	if len(x) > 12 {
		return x[:12]
	}
	return x
}

func TestWhereErrors(t *testing.T) {
	loadFixture(t)
	tests := []struct {
		name  string
		frame Frame
		want  string
	}{
		{"unknown column", Where("Agncy", "==", "x"), `award_data: Where: unknown column "Agncy" (did you mean "Agency"?)`},
		{"unknown column, no close name", Where("zzzzzzzz", "==", "x"), `award_data: Where: unknown column "zzzzzzzz"; the columns are "Company", "Award Title"`},
		{"unknown operator", Where("Agency", "~", "x"), `award_data: Where: unknown operator "~"; use one of "==", "!="`},
		{"string for int", Where("Award Year", ">=", "2015"), `award_data: Where: column "Award Year" is int: ">=" needs a number, not the string "2015"; write the number without quotes`},
		{"number for category", Where("Phase", "==", 2), `award_data: Where: column "Phase" is category: "==" needs a string, not int 2`},
		{"contains on int", Where("Award Year", "contains", "20"), `award_data: Where: "contains" does not apply to int column "Award Year"`},
		{"bad date", Where("Proposal Award Date", ">", "yesterday"), `award_data: Where: column "Proposal Award Date" is date: ">" needs a date`},
		{"between needs two", Where("Award Year", "between", []int{1}), `award_data: Where: column "Award Year": "between" needs a slice of two values`},
		{"in needs a slice", Where("Agency", "in", "NASA"), `award_data: Where: column "Agency" is category: "in" needs a slice of strings`},
		{"bad regexp", Where("Abstract", "matches", "("), `award_data: Where: bad regular expression "(": error parsing regexp`},
		{"nil for <", Where("Award Amount", "<", nil), `award_data: Where: "<" needs a value`},
		{"error sticks", Where("Agncy", "==", "x").Where("Phase", "==", "Phase I").Head(3), `award_data: Where: unknown column "Agncy"`},
		{"nil filter", Filter(nil), "award_data: Filter: the function is nil"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.frame.Err()
			if err == nil {
				t.Fatal("no error")
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T is not *Error", err)
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error:\n %s\nwant prefix:\n %s", err, tt.want)
			}
			if tt.frame.String() != err.Error() {
				t.Errorf("String() = %q, want the error", tt.frame.String())
			}
			if tt.frame.Len() != 0 {
				t.Errorf("Len() = %d on an error frame", tt.frame.Len())
			}
			defer func() {
				if r := recover(); r != err {
					t.Errorf("Count panicked with %v, want the frame's error", r)
				}
			}()
			tt.frame.Count()
		})
	}
}

func TestFilterRowErrors(t *testing.T) {
	loadFixture(t)
	defer func() {
		r := recover()
		err, ok := r.(*Error)
		if !ok || !strings.Contains(err.Error(), `column "Agency" is category, not int or float`) {
			t.Errorf("recovered %v, want a wrong-type *Error", r)
		}
	}()
	Filter(func(r Row) bool { return r.Float("Agency") > 0 })
	t.Error("no panic")
}
