package jsontext

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// marshal is encoding/json's encoding of s with HTML escaping off.
func marshal(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

func TestAppend(t *testing.T) {
	for _, s := range []string{"", "plain", "a\"b\\c", "\b\f\n\r\t\x00\x1f\x7f", "<a href='x'>&amp;</a>", "é ü 中文 🙂", "\u2028\u2029", "bad \xff\xfe utf8 \xe2\x82", strings.Repeat("x", 1<<16), strings.Repeat("0123456789abcde\n", 9)} {
		want := marshal(s)
		if got := Append(nil, s); string(got) != want {
			t.Errorf("Append(%q) = %s, want %s", s, got, want)
		}
		if got := Append(nil, []byte(s)); string(got) != want {
			t.Errorf("Append([]byte(%q)) = %s, want %s", s, got, want)
		}
	}
}

func TestAppendKeepsPrefix(t *testing.T) {
	if got := string(Append([]byte(`{"a":`), "x\ny")); got != `{"a":"x\ny"` {
		t.Errorf("got %s", got)
	}
}

// FuzzAppend checks the hand-written encoder against encoding/json byte
// for byte, for strings and byte slices.
func FuzzAppend(f *testing.F) {
	for _, s := range []string{"", "a\"\\<>&\u2028", "\xff\xed\xa0\x80", "\t\x01é", "\x00\x1f\x7f", "01234567\n01234567"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := marshal(s)
		if got := Append(nil, []byte(s)); string(got) != want {
			t.Fatalf("Append([]byte(%q)) = %s, want %s", s, got, want)
		}
		if got := Append(nil, s); string(got) != want {
			t.Fatalf("Append(%q) = %s, want %s", s, got, want)
		}
	})
}

func BenchmarkAppend1MiB(b *testing.B) {
	s := strings.Repeat("0123456789abcde\n", 1<<16)
	buf := make([]byte, 0, 2<<20)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		buf = Append(buf[:0], s)
	}
}

func ExampleAppend() {
	b := Append([]byte(`{"text":`), "line 1\n<b>é</b>\xff")
	b = append(b, '}')
	fmt.Println(string(b))
	// Output: {"text":"line 1\n<b>é</b>\ufffd"}
}
