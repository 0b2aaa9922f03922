package wire_test

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// FuzzReadFrame checks that the frame decoder never panics and rejects
// oversized or malformed frames with an error.
func FuzzReadFrame(f *testing.F) {
	var buf bytes.Buffer
	c := wire.NewConn(nil, &buf)
	_ = c.Send(&wire.Message{Op: wire.OpStream, Name: "stdout", Text: "hello"})
	f.Add(buf.Bytes())
	f.Add([]byte{0, 0, 0, 2, '{', '}'})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := wire.ReadFrame(bytes.NewReader(b))
		if err == nil && m.Op == "" {
			t.Fatal("accepted a frame without an op")
		}
		if err == nil && len(b) >= 4 && binary.BigEndian.Uint32(b) > wire.MaxFrameBytes {
			t.Fatal("accepted an oversized frame")
		}
	})
}
