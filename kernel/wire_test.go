package kernel

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func testMessage() *Message {
	return &Message{
		Identities:   [][]byte{[]byte("id-1"), []byte("id-2")},
		Header:       Header{MsgID: "m1", Session: "s1", Username: "u", Date: "2026-01-02T03:04:05.000000Z", MsgType: "execute_request", Version: "5.3"},
		ParentHeader: &Header{MsgID: "p1", MsgType: "x"},
		Metadata:     map[string]any{"k": "v"},
		Content:      json.RawMessage(`{"code":"1+1"}`),
		Buffers:      [][]byte{{0, 1, 2}},
	}
}

func TestCodecRoundTrip(t *testing.T) {
	for _, key := range []string{"", "secret"} {
		c := Codec{Key: []byte(key)}
		frames, err := c.Encode(testMessage())
		if err != nil {
			t.Fatal(err)
		}
		if key == "" && len(frames[3]) != 0 {
			t.Errorf("unsigned message has signature %q", frames[3])
		}
		m, err := c.Decode(frames)
		if err != nil {
			t.Fatalf("key %q: %v", key, err)
		}
		want := testMessage()
		if m.Header != want.Header || *m.ParentHeader != *want.ParentHeader || string(m.Content) != string(want.Content) ||
			len(m.Identities) != 2 || string(m.Identities[1]) != "id-2" || len(m.Buffers) != 1 || m.Metadata["k"] != "v" {
			t.Errorf("key %q: round trip = %+v", key, m)
		}
	}
}

func TestEncodeEmptyParts(t *testing.T) {
	frames, err := Codec{}.Encode(&Message{Header: Header{MsgType: "status"}})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"{}", "{}", "{}"} {
		if got := string(frames[3+i]); got != want {
			t.Errorf("frame %d = %s, want %s", 3+i, got, want)
		}
	}
	m, err := Codec{}.Decode(frames)
	if err != nil || m.ParentHeader != nil {
		t.Errorf("decode = %+v, %v; want no parent", m, err)
	}
}

func TestDecodeErrors(t *testing.T) {
	key := []byte("secret")
	c := Codec{Key: key, MaxFrameBytes: 100}
	good := func() [][]byte {
		f, _ := Codec{Key: key}.Encode(&Message{Header: Header{MsgID: "a", MsgType: "kernel_info_request"}, Content: []byte(`{}`)})
		return f
	}
	resign := func(f [][]byte) [][]byte {
		f[1] = []byte(hexOf(sign(key, f[2], f[3], f[4], f[5])))
		return f
	}
	tests := []struct {
		name    string
		frames  [][]byte
		wantErr error  // checked with errors.Is when set
		wantMsg string // substring of the error otherwise
	}{
		{"empty", nil, ErrNoDelimiter, ""},
		{"no delimiter", good()[1:], ErrNoDelimiter, ""},
		{"short", good()[:5], ErrShortMessage, ""},
		{"oversized", append(good(), bytes.Repeat([]byte("x"), 101)), ErrFrameTooLarge, ""},
		{"bad signature", func() [][]byte { f := good(); f[1] = bytes.Repeat([]byte("0"), 64); return f }(), ErrBadSignature, ""},
		{"odd hex", func() [][]byte { f := good(); f[1] = []byte("abc"); return f }(), ErrBadSignature, ""},
		{"tampered content", func() [][]byte { f := good(); f[5] = []byte(`{"x":1}`); return f }(), ErrBadSignature, ""},
		{"header not JSON", func() [][]byte { f := good(); f[2] = []byte(`{`); return resign(f) }(), nil, "decode header"},
		{"header an array", func() [][]byte { f := good(); f[2] = []byte(`[]`); return resign(f) }(), nil, "decode header: not a JSON object"},
		{"no msg_type", func() [][]byte { f := good(); f[2] = []byte(`{"msg_id":"a"}`); return resign(f) }(), nil, "msg_type is missing"},
		{"header wrong type", func() [][]byte { f := good(); f[2] = []byte(`{"msg_type":5}`); return resign(f) }(), nil, "decode header"},
		{"parent not object", func() [][]byte { f := good(); f[3] = []byte(`null`); return resign(f) }(), nil, "decode parent_header"},
		{"metadata not object", func() [][]byte { f := good(); f[4] = []byte(`"x"`); return resign(f) }(), nil, "decode metadata"},
		{"content not object", func() [][]byte { f := good(); f[5] = []byte(`[1]`); return resign(f) }(), nil, "decode content"},
		{"content trailing garbage", func() [][]byte { f := good(); f[5] = []byte(`{} x`); return resign(f) }(), nil, "decode content"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Decode(tt.frames)
			switch {
			case err == nil:
				t.Fatal("decode succeeded")
			case tt.wantErr != nil && !errors.Is(err, tt.wantErr):
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			case tt.wantMsg != "" && !strings.Contains(err.Error(), tt.wantMsg):
				t.Errorf("err = %v, want it to mention %q", err, tt.wantMsg)
			}
		})
	}
}

func TestReplayGuard(t *testing.T) {
	g := newReplayGuard(2)
	for i, tc := range []struct {
		sig     string
		wantErr bool
	}{{"a", false}, {"a", true}, {"b", false}, {"c", false}, {"a", false}, {"c", true}, {"", false}, {"", false}} {
		if err := g.check([]byte(tc.sig)); (err != nil) != tc.wantErr {
			t.Errorf("step %d check(%q) = %v", i, tc.sig, err)
		}
	}
}

func hexOf(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}

// FuzzDecode checks that Decode never panics and that whatever it accepts
// survives a round trip through Encode.
func FuzzDecode(f *testing.F) {
	key := []byte("fuzz-key")
	for _, m := range []*Message{testMessage(), {Header: Header{MsgType: "status"}}} {
		for _, k := range [][]byte{key, nil} {
			frames, _ := Codec{Key: k}.Encode(m)
			f.Add(bytes.Join(frames, []byte{0xff}), k != nil)
		}
	}
	f.Add([]byte("<IDS|MSG>"), false)
	f.Add([]byte("\xff\xff<IDS|MSG>\xff\xff{}\xff{}\xff{}\xff{}"), false)
	f.Fuzz(func(t *testing.T, data []byte, signed bool) {
		var k []byte
		if signed {
			k = key
		}
		c := Codec{Key: k, MaxFrameBytes: 1 << 16}
		frames := bytes.Split(data, []byte{0xff})
		m, err := c.Decode(frames)
		if err != nil {
			return
		}
		again, err := c.Encode(m)
		if err != nil {
			t.Fatalf("re-encode of a decoded message: %v", err)
		}
		m2, err := c.Decode(again)
		if err != nil {
			t.Fatalf("decode of a re-encoded message: %v", err)
		}
		if m2.Header != m.Header || string(m2.Content) != string(m.Content) || len(m2.Buffers) != len(m.Buffers) {
			t.Fatalf("round trip changed the message: %+v != %+v", m2, m)
		}
	})
}
