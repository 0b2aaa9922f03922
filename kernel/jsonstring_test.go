package kernel

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestAppendStreamJSON(t *testing.T) {
	for _, c := range []streamContent{{"stdout", "line\n<b>&amp;</b>"}, {"stderr", "bad \xff utf8\u2028"}, {"stdout", ""}} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.Encode(c)
		if got := appendStreamJSON(nil, c.Name, []byte(c.Text)); string(got) != strings.TrimSuffix(want.String(), "\n") {
			t.Errorf("streamContent = %s, want %s", got, want.String())
		}
	}
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
