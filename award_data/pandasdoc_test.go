package award_data_test

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"

	award_data "github.com/sbirtools/sbir-kernel/award_data"
	"github.com/sbirtools/sbir-kernel/sandbox"
)

// tableRow matches a row of the cheat sheet's table: | pandas | award_data |.
var tableRow = regexp.MustCompile("(?m)^\\| (.+?) \\| (.+) \\|$")

// TestPandasDoc runs the award_data side of every row of docs/pandas.md's
// table as a cell, so the cheat sheet cannot drift from the API.
func TestPandasDoc(t *testing.T) {
	doc, err := os.ReadFile("../docs/pandas.md")
	if err != nil {
		t.Fatal(err)
	}
	s, err := sandbox.NewSession(context.Background(), sandbox.Options{DataPath: award_data.FixtureArrow()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	run := func(code string) {
		t.Helper()
		res, err := s.Run(context.Background(), code, nil)
		if err != nil {
			t.Fatalf("%s: %v", code, err)
		}
		if !res.Success {
			t.Errorf("%s: %s: %s", code, res.ErrorName, res.ErrorMessage)
		}
	}
	run(`f := award_data.All(); other := award_data.ValueCounts("Agency"); _, _ = f, other`)
	n := 0
	for _, m := range tableRow.FindAllStringSubmatch(string(doc), -1) {
		cell := m[2]
		if cell == "award_data" || strings.HasPrefix(cell, "---") {
			continue
		}
		// Each Go snippet is a backquoted span; ``...`` holds backquotes.
		for _, code := range regexp.MustCompile("``(.+?)``|`([^`]+)`").FindAllStringSubmatch(cell, -1) {
			c := code[1] + code[2]
			if strings.HasPrefix(c, "f = ") {
				c = "g := " + c[4:] + "; _ = g"
			}
			if !strings.Contains(c, "award_data") && !strings.HasPrefix(c, "f.") && !strings.HasPrefix(c, "g :=") {
				continue
			}
			run(c)
			n++
		}
	}
	if n < 50 {
		t.Errorf("ran %d snippets; the table has more (is the pattern broken?)", n)
	}
}
