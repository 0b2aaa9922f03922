package worker

import (
	"context"
	"io"
	"testing"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/cellprep"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// benchmarkCell runs one cell in an in-process interpreter whose output
// goes through the real batching and framing to a discarding pipe: the
// worker's half of Session.Run, where a profile can see it.
func benchmarkCell(b *testing.B, code string) {
	c := wire.NewConn(eofReader{}, io.Discard)
	out := newCellOutput(c.Send, c.SendStream, 1<<20+1)
	s, err := newInterpreter(out, eofReader{}, "")
	if err != nil {
		b.Fatal(err)
	}
	prep, err := cellprep.Prepare(code, cellprep.NewState())
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		res := &wire.Result{}
		out.begin()
		s.run(context.Background(), prep.Chunks, res)
		out.end(res)
		if !res.Success || res.Truncated {
			b.Fatalf("%+v", res)
		}
	}
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

func BenchmarkCellPrintLines(b *testing.B) {
	benchmarkCell(b, `for i := 0; i < 16384; i++ { fmt.Println(strings.Repeat("x", 63)) }`)
}

func BenchmarkCellPrintOneMiB(b *testing.B) {
	benchmarkCell(b, `fmt.Print(strings.Repeat("x", 1<<20))`)
}

// BenchmarkCellLoopOnly is the 16,384-line cell without the printing: the
// interpreter's share of BenchmarkCellPrintLines.
func BenchmarkCellLoopOnly(b *testing.B) {
	benchmarkCell(b, `n := 0
for i := 0; i < 16384; i++ { n += len(strings.Repeat("x", 63)) }`)
}
