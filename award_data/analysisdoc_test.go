package award_data_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	award_data "github.com/sbirtools/sbir-kernel/award_data"
	"github.com/sbirtools/sbir-kernel/dataset"
	"github.com/sbirtools/sbir-kernel/sandbox"
)

const analysisDoc = "../docs/analysis.md"

// codeBlock matches a ```go block and the ```text block that may follow it.
var codeBlock = regexp.MustCompile("(?s)```go\n(.*?)```\n(\n```text\n.*?```\n)?")

// TestAnalysisDoc runs every Go block of docs/analysis.md as a cell in a
// sandbox session on the embedded sample (cells of one page share a
// session, as in a notebook) and checks the ```text block after it: the
// cell's output and value as the `run` command prints them. With -update
// it rewrites the text blocks.
func TestAnalysisDoc(t *testing.T) {
	doc, err := os.ReadFile(analysisDoc)
	if err != nil {
		t.Fatal(err)
	}
	src, err := dataset.Locate(context.Background(), dataset.Config{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if !src.Synthetic {
		t.Fatalf("expected the embedded sample, got %s", src.Describe())
	}
	s, err := sandbox.NewSession(context.Background(), sandbox.Options{DataPath: src.ArrowPath})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var out strings.Builder
	last := 0
	for _, m := range codeBlock.FindAllSubmatchIndex(doc, -1) {
		code := string(doc[m[2]:m[3]])
		res, err := s.Run(context.Background(), code, nil)
		if err != nil {
			t.Fatalf("%s: %v", code, err)
		}
		var got strings.Builder
		got.WriteString(res.Stdout)
		if !res.Success {
			got.WriteString(res.ErrorName + ": " + res.ErrorMessage + "\n")
		} else if v, ok := res.Value["text/plain"].(string); ok {
			got.WriteString(v + "\n")
		}
		block := "\n```text\n" + got.String() + "```\n"
		if m[4] >= 0 && string(doc[m[4]:m[5]]) != block {
			t.Errorf("output of\n%s\ndiffers from docs/analysis.md (go test -run TestAnalysisDoc -update):\n--- got%s--- doc%s", code, block, doc[m[4]:m[5]])
		} else if m[4] < 0 && !*award_data.UpdateGolden {
			t.Errorf("no output block after\n%s(go test -run TestAnalysisDoc -update)", code)
		}
		out.Write(doc[last:m[3]])
		out.WriteString("```\n" + block)
		last = m[1]
	}
	out.Write(doc[last:])
	if *award_data.UpdateGolden {
		if err := os.WriteFile(filepath.Clean(analysisDoc), []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
