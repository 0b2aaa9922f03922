package wire_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"strings"
	"testing"
	"unsafe"

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
	buf.Reset()
	_ = c.SendStream("stderr", []byte("oops\n"))
	f.Add(buf.Bytes())
	f.Add([]byte{0x80, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := wire.ReadFrame(bytes.NewReader(b))
		if err == nil && m.Op == "" {
			t.Fatal("accepted a frame without an op")
		}
		if err == nil && len(b) >= 4 && binary.BigEndian.Uint32(b)&^(1<<31) > wire.MaxFrameBytes {
			t.Fatal("accepted an oversized frame")
		}
	})
}

// TestStreamFrames: stream frames and JSON frames interleave on one
// connection and arrive in order, with their text byte for byte.
func TestStreamFrames(t *testing.T) {
	var buf bytes.Buffer
	c := wire.NewConn(nil, &buf)
	big := bytes.Repeat([]byte("\x00\"\\ é\n"), 1<<16)
	sent := []wire.Message{
		{Op: wire.OpStream, Name: "stdout", Text: "a\n"},
		{Op: wire.OpStream, Name: "stderr", Text: string(big)},
		{Op: wire.OpResult, ID: 7},
		{Op: wire.OpStream, Name: "stdout", Text: ""},
	}
	for _, m := range sent {
		var err error
		if m.Op == wire.OpStream {
			err = c.SendStream(m.Name, []byte(m.Text))
		} else {
			err = c.Send(&m)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	r := wire.NewConn(&buf, nil)
	for i, want := range sent {
		got, err := r.Recv()
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if got.Op != want.Op || got.Name != want.Name || got.Text != want.Text || got.ID != want.ID {
			t.Fatalf("frame %d: %s %s %.20q %d, want %s %s %.20q %d", i, got.Op, got.Name, got.Text, got.ID, want.Op, want.Name, want.Text, want.ID)
		}
	}
	if err := c.SendStream("stdout", make([]byte, wire.MaxFrameBytes)); err == nil {
		t.Error("an oversized stream frame was sent")
	}
}

// TestRecycleReusesStreamFrames: after Recycle, the next stream frame that
// fits is read into the recycled buffer, and every text still arrives
// byte for byte; a frame too large for it gets a buffer of its own.
func TestRecycleReusesStreamFrames(t *testing.T) {
	var buf bytes.Buffer
	c := wire.NewConn(nil, &buf)
	texts := []string{strings.Repeat("a", 300<<10), strings.Repeat("b", 300<<10), strings.Repeat("c", 200<<10), strings.Repeat("d", 400<<10)}
	for _, text := range texts {
		if err := c.SendStream("stdout", []byte(text)); err != nil {
			t.Fatal(err)
		}
	}
	r := wire.NewConn(&buf, nil)
	var prev *byte
	for i, want := range texts {
		m, err := r.Recv()
		if err != nil {
			t.Fatal(err)
		}
		if m.Text != want {
			t.Fatalf("frame %d: %d bytes %.8q..., want %d bytes of %q", i, len(m.Text), m.Text, len(want), want[:1])
		}
		data := unsafe.StringData(m.Text)
		reused := prev != nil && uintptr(unsafe.Pointer(data)) == uintptr(unsafe.Pointer(prev))
		if wantReuse := i == 1 || i == 2; reused != wantReuse {
			t.Errorf("frame %d: read into the recycled buffer %v, want %v", i, reused, wantReuse)
		}
		prev = data
		r.Recycle(m)
		if m.Text != "" {
			t.Errorf("frame %d: Text still set after Recycle", i)
		}
	}
}

// TestBundleNumbersKeepTheirText: numbers in a MIME bundle cross the pipe
// as they were written, so that an int64 past 2^53 or a float's shortest
// decimal reaches clients unchanged; a frame with data after its message
// is refused.
func TestBundleNumbersKeepTheirText(t *testing.T) {
	var buf bytes.Buffer
	c := wire.NewConn(nil, &buf)
	table := `{"data":[{"f":0.30000000000000004,"n":9223372036854775807,"t":1e-7}]}` // keys in the order a map prints them
	err := c.Send(&wire.Message{Op: wire.OpResult, Result: &wire.Result{Value: map[string]any{
		"application/vnd.dataresource+json": json.RawMessage(table),
	}}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := wire.ReadFrame(&buf)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(m.Result.Value["application/vnd.dataresource+json"])
	if err != nil || string(got) != table {
		t.Errorf("the bundle came back as %s (%v), want %s", got, err, table)
	}
	frame := []byte(`{"op":"result"} {"op":"x"}`)
	var b bytes.Buffer
	binary.Write(&b, binary.BigEndian, uint32(len(frame)))
	b.Write(frame)
	if _, err := wire.ReadFrame(&b); err == nil || !strings.Contains(err.Error(), "after the message") {
		t.Errorf("a frame with two messages: %v", err)
	}
}
