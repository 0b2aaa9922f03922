package award_data

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// golden compares got with testdata/golden/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (run go test -update after checking):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func renderCases() []struct {
	name string
	f    Frame
} {
	return []struct {
		name string
		f    Frame
	}{
		{"all_columns_head", Head(5)},
		{"rows_truncated", Where("Phase", "==", "Phase II").Select("Company", "Award Year", "Award Amount", "Abstract", "Proposal Award Date", "Number Employees")},
		{"group_sum", GroupBy("Agency").Sum("Award Amount").Sort("-Award Amount")},
		{"group_two_keys", GroupBy("Award Year", "Phase").Count().Head(6)},
		{"share", GroupBy("State").Share("Woman Owned", "==", "Y")},
		{"value_counts_with_null", ValueCounts("Branch")},
		{"describe", Select("Company", "Agency", "Award Year", "Award Amount", "Proposal Award Date", "Number Employees").Describe()},
		{"empty", Where("Agency", "==", "nobody").Select("Company", "Award Amount")},
		{"error", Where("Agncy", "==", "x")},
		{"html_escaping", Where("Company", "contains", `"Quantum"`).Select("Company", "City").Head(2)},
	}
}

func TestRenderGolden(t *testing.T) {
	loadFixture(t)
	for _, c := range renderCases() {
		t.Run(c.name, func(t *testing.T) {
			golden(t, c.name+".txt", c.f.String()+"\n")
			golden(t, c.name+".html", c.f.HTML()+"\n")
			b := c.f.MIMEBundle()
			if r, ok := b[dataResourceMIME].(json.RawMessage); ok {
				var ind bytes.Buffer
				if err := json.Indent(&ind, r, "", " "); err != nil {
					t.Fatal(err)
				}
				golden(t, c.name+".json", ind.String()+"\n")
			} else if c.f.Err() == nil {
				t.Error("no table representation")
			}
			if b["text/plain"] != c.f.String() {
				t.Error("MIMEBundle text/plain differs from String")
			}
			if c.f.Err() == nil && b["text/html"] != c.f.HTML() {
				t.Error("MIMEBundle text/html differs from HTML")
			}
			if c.f.Err() != nil {
				if _, ok := b["text/html"]; ok {
					t.Error("error frame has text/html")
				}
			}
		})
	}
}

func TestRenderLimits(t *testing.T) {
	loadFixture(t)
	s := All().String()
	lines := strings.Split(s, "\n")
	// header + 10 + "..." + 10 + size line
	if len(lines) != 23 {
		t.Errorf("%d lines, want 23", len(lines))
	}
	for _, l := range lines {
		if n := len([]rune(l)); n > maxTextWidth {
			t.Errorf("line of %d runes exceeds %d: %q", n, maxTextWidth, l)
		}
	}
	if !strings.HasSuffix(s, "[400 rows x 42 columns]") {
		t.Errorf("size line: %q", lines[len(lines)-1])
	}
	if got := groupThousands("-1234567"); got != "-1,234,567" {
		t.Errorf("groupThousands = %q", got)
	}
	if got := abbreviate("a\nb  c", 10); got != "a b c" {
		t.Errorf("abbreviate = %q", got)
	}
	if got := abbreviate(strings.Repeat("é", 40), 10); got != strings.Repeat("é", 7)+"..." {
		t.Errorf("abbreviate = %q", got)
	}
}

func TestCharts(t *testing.T) {
	loadFixture(t)
	tests := []struct {
		name     string
		chart    Chart
		mark     string
		points   int
		x, y     string
		xType    string
		color    string
		textHead string
	}{
		{"bar", GroupBy("Agency").Sum("Award Amount").Sort("-Award Amount").Bar("Agency", "Award Amount").Title("Dollars"),
			"bar", 7, "Award Amount", "Agency", "quantitative", "", "Bar chart of Award Amount by Agency: Dollars"},
		{"bar by year", GroupBy("Award Year").Count().Bar("Award Year", "Count"), "bar", 20, "Award Year", "Count", "ordinal", "", "Bar chart of Count by Award Year"},
		{"line colored", GroupBy("Award Year", "Phase").Sum("Award Amount").Line("Award Year", "Award Amount").Color("Phase"),
			"line", 40, "Award Year", "Award Amount", "quantitative", "Phase", "Line chart of Award Amount by Award Year, colored by Phase"},
		{"scatter", Scatter("Number Employees", "Award Amount"), "point", 400, "Number Employees", "Award Amount", "quantitative", "", "Scatter chart of Award Amount by Number Employees"},
		{"histogram", Histogram("Award Amount", 8), "bar", 8, "Award Amount", "Count", "quantitative", "", "Histogram of Award Amount"},
		{"dates", GroupBy("Proposal Award Date").Count().Line("Proposal Award Date", "Count"), "line", GroupBy("Proposal Award Date").Len(), "Proposal Award Date", "Count", "temporal", "", "Line chart of Count"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.chart.Err(); err != nil {
				t.Fatal(err)
			}
			b := tt.chart.MIMEBundle()
			raw, ok := b[VegaLiteMIME].(json.RawMessage)
			if !ok {
				t.Fatalf("no %s in bundle", VegaLiteMIME)
			}
			var spec struct {
				Schema string `json:"$schema"`
				Data   struct {
					Values []map[string]any `json:"values"`
				} `json:"data"`
				Mark struct {
					Type string `json:"type"`
				} `json:"mark"`
				Encoding map[string]struct {
					Field string `json:"field"`
					Type  string `json:"type"`
				} `json:"encoding"`
			}
			if err := json.Unmarshal(raw, &spec); err != nil {
				t.Fatal(err)
			}
			if spec.Schema != "https://vega.github.io/schema/vega-lite/v5.json" {
				t.Errorf("$schema = %q", spec.Schema)
			}
			if spec.Mark.Type != tt.mark {
				t.Errorf("mark %q, want %q", spec.Mark.Type, tt.mark)
			}
			if len(spec.Data.Values) != tt.points {
				t.Errorf("%d data values, want %d", len(spec.Data.Values), tt.points)
			}
			x, y := spec.Encoding["x"], spec.Encoding["y"]
			if x.Field != tt.x || y.Field != tt.y || x.Type != tt.xType && y.Type != tt.xType {
				t.Errorf("encoding x=%+v y=%+v", x, y)
			}
			for _, ch := range []string{"x", "y", "color"} {
				e, ok := spec.Encoding[ch]
				if !ok {
					continue
				}
				for _, v := range spec.Data.Values {
					if _, ok := v[e.Field]; !ok {
						t.Fatalf("data value %v lacks encoded field %q", v, e.Field)
					}
				}
			}
			if tt.color != "" && spec.Encoding["color"].Field != tt.color {
				t.Errorf("color %+v", spec.Encoding["color"])
			}
			text, _ := b["text/plain"].(string)
			if !strings.HasPrefix(text, tt.textHead) || text != tt.chart.String() {
				t.Errorf("text/plain %q", text)
			}
		})
	}
}

func TestChartGolden(t *testing.T) {
	loadFixture(t)
	golden(t, "chart_bar.txt", GroupBy("Agency").Sum("Award Amount").Sort("-Award Amount").Bar("Agency", "Award Amount").String()+"\n")
	golden(t, "chart_histogram.txt", Histogram("Award Amount", 8).String()+"\n")
	golden(t, "chart_line.txt", GroupBy("Award Year", "Phase").Sum("Award Amount").Line("Award Year", "Award Amount").Color("Phase").String()+"\n")
	golden(t, "chart_bar.vl.json", GroupBy("Phase").Count().Bar("Phase", "Count").Spec()+"\n")
	// Every chart also draws itself as SVG, in Go.
	for name, c := range map[string]Chart{
		"bar_horizontal":  GroupBy("Agency").Sum("Award Amount").Sort("-Award Amount").Bar("Agency", "Award Amount").Title("Dollars by agency"),
		"bar_years":       GroupBy("Award Year").Count().Bar("Award Year", "Count"),
		"bar_share":       GroupBy("Phase").Share("Woman Owned", "==", "Y").Bar("Phase", "Share"),
		"histogram":       Histogram("Award Amount", 8),
		"histogram_range": Histogram("Award Amount", 10).Range(0, 500000),
		"line_color":      GroupBy("Award Year", "Phase").Sum("Award Amount").Line("Award Year", "Award Amount").Color("Phase"),
		"line_log":        GroupBy("Award Year").Sum("Award Amount").Line("Award Year", "Award Amount").LogY().XRange(2000, 2020),
		"scatter":         Scatter("Number Employees", "Award Amount").LogX(),
		"bar_grouped":     GroupBy("Agency", "Phase").Count().Where("Count", ">", 5).Bar("Agency", "Count").Color("Phase"),
	} {
		svg := c.SVG()
		if err := xml.Unmarshal([]byte(svg), new(struct{})); err != nil {
			t.Errorf("%s: the SVG is not well-formed XML: %v", name, err)
		}
		if _, ok := c.MIMEBundle()[SVGMIME]; ok {
			t.Errorf("%s: the bundle has an SVG, which nbconvert prefers to the PNG (and 6.5 strips to text)", name)
		}
		golden(t, "chart_"+name+".svg", svg+"\n")
	}
}

func TestChartErrors(t *testing.T) {
	loadFixture(t)
	tests := []struct {
		c    Chart
		want string
	}{
		{ValueCounts("Agency").Bar("Agncy", "Count"), `award_data: Bar: unknown column "Agncy"`},
		{Head(5).Bar("Company", "Agency"), `award_data: Bar: column "Agency" is category, not int or float`},
		{Histogram("Agency", 5), `award_data: Histogram: column "Agency" is category, not int or float; for text or categories, use ValueCounts`},
		{Histogram("Award Amount", 5000), "award_data: Histogram: bins is 5000"},
		{Histogram("Award Amount", 5).Color("Phase"), "award_data: Color: a histogram has one series"},
		{ValueCounts("Phase").Bar("Phase", "Count").Size(0, 10), "award_data: Size: 0 × 10"},
		{Where("x", "==", 1).Line("a", "b").Title("t"), `award_data: Where: unknown column "x"`},
	}
	for _, tt := range tests {
		if tt.c.Err() == nil || !strings.HasPrefix(tt.c.Err().Error(), tt.want) {
			t.Errorf("error %v, want prefix %q", tt.c.Err(), tt.want)
		}
		if tt.c.String() != tt.c.Err().Error() || tt.c.Spec() != "" {
			t.Errorf("error chart renders %q / %q", tt.c.String(), tt.c.Spec())
		}
	}
}
