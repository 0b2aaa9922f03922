package kernel

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestAppendJSONString(t *testing.T) {
	for _, s := range []string{"", "plain", "a\"b\\c", "\b\f\n\r\t\x00\x1f\x7f", "<a href='x'>&amp;</a>", "é ü 中文 🙂", "\u2028\u2029", "bad \xff\xfe utf8 \xe2\x82", strings.Repeat("x", 1<<16)} {
		want, _ := json.Marshal(s)
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Errorf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
	}
	c := streamContent{Name: "stdout", Text: "line\n<b>"}
	want, _ := json.Marshal(c)
	if got := appendStreamJSON(nil, c.Name, []byte(c.Text)); string(got) != string(want) {
		t.Errorf("streamContent = %s, want %s", got, want)
	}
}

// FuzzAppendJSONString checks the hand-written encoder against
// encoding/json byte for byte.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "a\"\\<>&\u2028", "\xff\xed\xa0\x80", "\t\x01é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := appendJSONString(nil, []byte(s)); string(got) != string(want) {
			t.Fatalf("appendJSONString([]byte(%q)) = %s, want %s", s, got, want)
		}
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Fatalf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
	})
}

func BenchmarkEncodeStream1MiB(b *testing.B) {
	p := &publisher{codec: Codec{Key: []byte(testKey), pool: newHMACPool([]byte(testKey))}, session: "s"}
	c := streamContent{Name: "stdout", Text: strings.Repeat("0123456789abcde\n", 1<<16)}
	b.SetBytes(1 << 20)
	for b.Loop() {
		if _, ok := p.encodeRaw("stream", nil, appendStreamJSON(nil, c.Name, c.Text)); !ok {
			b.Fatal("encode failed")
		}
	}
}
