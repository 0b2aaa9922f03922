package dataset

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteBehind writes several chunks' worth of data in uneven pieces
// through writeBehind (which starts writeback behind them on Linux) and
// reads back exactly what was written, also when the file is closed right
// after the last write.
func TestWriteBehind(t *testing.T) {
	data := make([]byte, 2*writeBehindChunk+12345)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	path := filepath.Join(t.TempDir(), "out")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := newWriteBehind(f)
	for rest := data; len(rest) > 0; {
		n := min(len(rest), 1+rng.IntN(3<<20))
		if m, err := w.Write(rest[:n]); m != n || err != nil {
			t.Fatalf("Write(%d bytes) = %d, %v", n, m, err)
		}
		rest = rest[n:]
	}
	w.stop()
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("read back %d bytes that differ from the %d written", len(got), len(data))
	}
}
