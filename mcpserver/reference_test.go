package mcpserver

import (
	"strings"
	"testing"
)

// TestReferenceByMeaning: api_reference finds names by what they do, in
// pandas' words and in plain ones, and answers a name that does not exist
// with the nearest ones.
func TestReferenceByMeaning(t *testing.T) {
	_, cs := connect(t, nil)
	for _, tc := range []struct {
		query, first, note string
	}{
		{"merge", "Frame.Join", ""},
		{"crosstab", "Frame.Pivot", ""},
		{"pivot_table", "Frame.Pivot", ""},
		{"value counts", "Frame.ValueCounts", ""},
		{"how many of each agency", "Frame.ValueCounts", ""},
		{"cross tabulation", "Frame.Pivot", ""},
		{"average award by group", "Grouped.Mean", ""},
		{"percentile", "Frame.Quantile", ""},
		{"frequency", "Frame.ValueCounts", ""},
		{"count distinct", "Frame.CountDistinct", ""},
		{"to_dict", "Frame.Records", ""},
		{"sort_values", "Frame.Sort", ""},
		{"largest", "Frame.NLargest", ""},
		{"group sum", "Grouped.Sum", ""},
		{"Where", "Where", ""},
		{"Frame.Where", "Frame.Where", ""},
		{"GroupBuy", "GroupBy", "no entry named GroupBuy; did you mean award_data.GroupBy, award_data.Frame.GroupBy?"},
		{"Frame.Summ", "Frame.Sum", "no entry named Frame.Summ; did you mean award_data.Frame.Sum"},
		{"hist", "Frame.Histogram", ""},
		{"Histgram", "Histogram", "no entry named Histgram; did you mean award_data.Histogram, award_data.Frame.Histogram"},
		// The words issue 29 found nothing for.
		{"percent change", "Frame.PctChange", ""},
		{"year over year", "Frame.PctChange", ""},
		{"bucket", "Frame.Cut", ""},
		{"cut", "Frame.Cut", ""},
		{"moving average", "Frame.Rolling", ""},
		{"most common words", "Frame.WordCounts", ""},
	} {
		var ref ReferenceOutput
		call(t, cs, "api_reference", map[string]any{"query": tc.query, "package": "award_data"}, &ref)
		if len(ref.Entries) == 0 || ref.Entries[0].Name != tc.first || !strings.HasPrefix(ref.Note, tc.note) || (tc.note == "") != (ref.Note == "") {
			var names []string
			for _, e := range ref.Entries {
				names = append(names, e.Name)
			}
			t.Errorf("%q: %v, note %q; want %s first, note %q", tc.query, names, ref.Note, tc.first, tc.note)
		}
	}
	var ref ReferenceOutput
	call(t, cs, "api_reference", map[string]any{"query": "merge"}, &ref)
	if len(ref.Entries) == 0 || len(ref.Entries[0].Pandas) == 0 || !strings.Contains(ref.Entries[0].Pandas[0], "df.merge(") {
		t.Errorf("merge: the entry does not show the pandas idiom: %+v", ref.Entries)
	}
}

// TestHostHooksHidden: the functions only the worker calls are not in the
// reference agents read.
func TestHostHooksHidden(t *testing.T) {
	d, err := loadAPIDocs()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range d.entries("") {
		if e.Name == "Use" || e.Name == "SetRecordWindow" || e.Name == "SetSink" {
			t.Errorf("%s.%s is documented for agents, who cannot call it", e.Package, e.Name)
		}
	}
}
