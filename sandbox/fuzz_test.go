package sandbox

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
)

// FuzzReadFrame checks that the frame decoder never panics and rejects
// oversized or malformed frames with an error.
func FuzzReadFrame(f *testing.F) {
	var buf bytes.Buffer
	c := newConn(nil, &buf)
	_ = c.send(&message{Op: opStream, Name: "stdout", Text: "hello"})
	f.Add(buf.Bytes())
	f.Add([]byte{0, 0, 0, 2, '{', '}'})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := readFrame(bytes.NewReader(b))
		if err == nil && m.Op == "" {
			t.Fatal("accepted a frame without an op")
		}
		if err == nil && len(b) >= 4 && binary.BigEndian.Uint32(b) > maxFrameBytes {
			t.Fatal("accepted an oversized frame")
		}
	})
}

// FuzzPrepare checks that checking and splitting any cell never panics and
// that the chunks keep every line of the cell where it was.
func FuzzPrepare(f *testing.F) {
	for _, s := range []string{
		"var y = 3; y", "for i := range 10 { fmt.Println(i) }", "import \"os\"",
		"func f() {}\nf()", "x := min(1, 2.5)\nclear(m)", "type T struct{ a T }",
		"for i := 0; i < 3; i++ {}", "if x := 1; x > 0 {}", "`raw\nstring`", "go f()",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		p, err := prepare(code, newSessionState())
		if err != nil {
			return
		}
		for _, ch := range p.chunks {
			if strings.Count(ch.Code, "\n") > strings.Count(code, "\n")+1 {
				t.Fatalf("chunk has more lines than the cell:\n%q\n%q", code, ch.Code)
			}
		}
		IsComplete(code)
	})
}
