package kernel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
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
		f[1] = []byte(hexOf(Codec{Key: key}.sign(f[2], f[3], f[4], f[5])))
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
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	now := start
	g := newReplayGuard(start, time.Minute, 3)
	g.now = func() time.Time { return now }
	at := func(d time.Duration) string { return start.Add(d).Format(isoDate) }
	steps := []struct {
		name    string
		advance time.Duration // of the kernel's clock before the step
		sig     string
		date    string
		want    error
	}{
		{"first", 0, "aa", at(time.Second), nil},
		{"same again", 0, "aa", at(time.Second), errReplayed},
		{"same, other hex case", 0, "AA", at(time.Second), errReplayed},
		{"before the kernel started", 0, "bb", at(-time.Hour), errStale},
		{"just before start, within the slack", 0, "bc", at(-10 * time.Second), nil},
		{"far future", 0, "cc", at(2 * time.Minute), errFuture},
		{"no date", 0, "dd", "", errNoDate},
		{"naive date is UTC", 0, "ee", start.Add(2 * time.Second).Format("2006-01-02T15:04:05.000000"), nil},
		// The set holds 3: a fourth evicts the oldest ("bc", at -10 s)
		// and floor rises to its date.
		{"fourth", 0, "ff", at(3 * time.Second), nil},
		{"evicted stays refused", 0, "bc", at(-10 * time.Second), errStale},
		{"first still refused", 0, "aa", at(time.Second), errReplayed},
		// An hour later every entry left the window; floor covers them.
		{"expired stays refused", time.Hour, "aa", at(time.Second), errStale},
		{"fresh accepted", 0, "gg", at(time.Hour), nil},
		{"no signature", 0, "", at(time.Hour), errNoReplaySig},
	}
	for _, st := range steps {
		now = now.Add(st.advance)
		err := g.check([]byte(st.sig), st.date)
		if !errors.Is(err, st.want) || (st.want == nil && err != nil) {
			t.Errorf("%s: check = %v, want %v", st.name, err, st.want)
		}
	}
	if len(g.seen) > 3 || len(g.byDate) != len(g.seen) {
		t.Errorf("guard holds %d signatures (%d by date), max 3", len(g.seen), len(g.byDate))
	}
}

// TestReplayNeverForgets is the reported attack at the guard: a captured
// message replayed after 16,384 (and 100,000) newer messages.
func TestReplayNeverForgets(t *testing.T) {
	g := newReplayGuard(time.Now(), DefaultReplayWindow, maxReplayEntries)
	captured := time.Now().UTC().Format(isoDate)
	if err := g.check([]byte("c0ffee"), captured); err != nil {
		t.Fatal(err)
	}
	for i := range 100_000 {
		if err := g.check([]byte(fmt.Sprintf("%08x", i)), time.Now().UTC().Format(isoDate)); err != nil {
			t.Fatalf("fresh message %d refused: %v", i, err)
		}
		if i == 16_384 || i == 99_999 {
			if err := g.check([]byte("c0ffee"), captured); err == nil {
				t.Fatalf("captured message accepted after %d newer ones", i+1)
			}
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

// TestReplayGuardClientClockBehind checks that a client whose clock is
// behind the kernel's (JupyterLab dates messages with the browser's clock)
// can use a new kernel, and that its messages still cannot be replayed.
func TestReplayGuardClientClockBehind(t *testing.T) {
	g := newReplayGuard(time.Now(), DefaultReplayWindow, maxReplayEntries)
	behind := func(d time.Duration) string { return time.Now().Add(-2*time.Minute + d).UTC().Format(isoDate) }
	first := behind(0)
	if err := g.check([]byte("aa01"), first); err != nil {
		t.Fatalf("first message of a client 2 minutes behind: %v", err)
	}
	for i := 1; i <= 3; i++ {
		if err := g.check([]byte(fmt.Sprintf("aa%02x", i+1)), behind(time.Duration(i)*time.Millisecond)); err != nil {
			t.Fatalf("message %d of a client 2 minutes behind: %v", i, err)
		}
	}
	if err := g.check([]byte("aa01"), first); !errors.Is(err, errReplayed) {
		t.Fatalf("replay of the first message: %v, want errReplayed", err)
	}
	if err := g.check([]byte("bb01"), time.Now().Add(-2*DefaultReplayWindow).UTC().Format(isoDate)); !errors.Is(err, errStale) {
		t.Fatalf("a message dated two windows before the kernel started: %v, want errStale", err)
	}
}
