package sandbox

import (
	"strings"
	"testing"
)

// TestCompiledCellEndToEnd runs a compiled cell through a session: built
// with gc, run under the isolation layers, its output, display and value
// relayed as an interpreted cell's are.
func TestCompiledCellEndToEnd(t *testing.T) {
	s := newCompiledSession(t, nil)
	var events []string
	h := &Handlers{
		Stream:  func(name, text string) { events = append(events, name+":"+text) },
		Display: func(d Display) { events = append(events, "display:"+d.Data["text/plain"].(string)) },
	}
	res, err := s.Run(t.Context(), "//sbir:compile\nfmt.Println(\"before\")\ndisplay.Markdown(\"**shown**\")\nfmt.Fprintln(os.Stderr, \"after\")\naward_data.Count()", h)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Success {
		t.Fatalf("the compiled cell failed: %s: %s\n%s", res.ErrorName, res.ErrorMessage, res.Stderr)
	}
	if got := strings.Join(events, "|"); got != "stdout:before\n|display:**shown**|stderr:after\n" {
		t.Errorf("events in order: %q", got)
	}
	if value(res) != "2000" {
		t.Errorf("value %q; want the sample's 2000 awards", value(res))
	}
}
