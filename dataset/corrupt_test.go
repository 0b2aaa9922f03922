package dataset

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"strings"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
)

// corruption changes the bytes of a converted file that one column's
// buffer holds: it gets the column's data and returns the buffer to
// change (a slice of the mapping) and what to write at what offset in it.
type corruption struct {
	name   string
	column string
	buffer func(d arrow.ArrayData) []byte
	at     func(buf []byte) int // offset in the buffer
	value  uint32               // little-endian, written at that offset
	shape  bool                 // OpenFile refuses it; otherwise only Verify does
}

// corruptCopy returns the bytes of the Arrow file at path with c applied.
func corruptCopy(t *testing.T, path string, c corruption) []byte {
	t.Helper()
	d, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	i := d.Schema().FieldIndices(c.column)
	if len(i) != 1 {
		t.Fatalf("no column %q", c.column)
	}
	buf := c.buffer(d.Record().Column(i[0]).Data())
	// The buffer is a slice of the mapping: its offset in the file.
	at := int(uintptr(unsafe.Pointer(unsafe.SliceData(buf)))-uintptr(unsafe.Pointer(unsafe.SliceData(d.data)))) + c.at(buf)
	if at < 0 || at+4 > len(d.data) {
		t.Fatalf("%s: offset %d outside the file", c.name, at)
	}
	out := append([]byte(nil), d.data...)
	binary.LittleEndian.PutUint32(out[at:], c.value)
	return out
}

// TestCorruptCacheConvertedAgain: a cached Arrow file changed after its
// conversion (its durable marker intact) was used as it was, and every
// cell, or every worker's start, panicked in arrow-go with a Go stack
// trace, for good. OpenFile refuses what would panic at a worker's start,
// Verify what would panic later, and Locate converts the CSV again, once,
// and says so.
func TestCorruptCacheConvertedAgain(t *testing.T) {
	// corruptions are single values changed on disk after the conversion, in
	// the places where arrow-go or the engine index without bounds checks.
	corruptions := []corruption{
		{
			// Issue 30, hole 6: a byte of the dictionary batch (the category
			// dictionary's offsets): every worker start panicked in arrow-go.
			name: "category dictionary's last offset", column: ColPhase,
			buffer: func(d arrow.ArrayData) []byte { return d.Dictionary().Buffers()[1].Bytes() },
			at:     func(buf []byte) int { return 4 * (len(buf)/4 - 1) },
			value:  0x7f000000, shape: true,
		},
		{
			name: "text column's offset in the middle", column: ColAbstract,
			buffer: func(d arrow.ArrayData) []byte { return d.Buffers()[1].Bytes() },
			at:     func(buf []byte) int { return 4 * 100 },
			value:  0x7f000000,
		},
		{
			name: "category index past its dictionary", column: ColAgency,
			buffer: func(d arrow.ArrayData) []byte { return d.Buffers()[1].Bytes() },
			at:     func(buf []byte) int { return 2 * 50 },
			value:  0x7f7f, // two int16 indices of 32,639
		},
	}
	csv := awardsCSV(t, 300, 7)
	for _, c := range corruptions {
		t.Run(c.name, func(t *testing.T) {
			cfg := Config{CacheDir: t.TempDir(), CSVPath: csv}
			src, err := Locate(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			good, err := os.ReadFile(src.ArrowPath)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(src.ArrowPath, corruptCopy(t, src.ArrowPath, c), 0o644); err != nil {
				t.Fatal(err)
			}
			d, err := OpenFile(src.ArrowPath)
			if c.shape {
				if !errors.Is(err, ErrInvalidArrow) || !strings.Contains(err.Error(), c.column) {
					t.Fatalf("OpenFile: %v; want ErrInvalidArrow naming column %q", err, c.column)
				}
			} else {
				if err != nil {
					t.Fatalf("OpenFile: %v", err)
				}
				err = d.Verify()
				d.Close()
				if !errors.Is(err, ErrInvalidArrow) || !strings.Contains(err.Error(), c.column) {
					t.Fatalf("Verify: %v; want ErrInvalidArrow naming column %q", err, c.column)
				}
			}

			again, err := Locate(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if !again.Converted || len(again.Warnings) != 1 || !strings.Contains(again.Warnings[0], "was corrupt") {
				t.Fatalf("Locate: converted %v, warnings %q; want the file converted again, saying why", again.Converted, again.Warnings)
			}
			if b, _ := os.ReadFile(again.ArrowPath); string(b) != string(good) {
				t.Error("the file converted again differs from the first conversion")
			}
			if third, err := Locate(context.Background(), cfg); err != nil || third.Converted || len(third.Warnings) != 0 {
				t.Fatalf("the next Locate: %v, converted %v, warnings %q; want the new file used as it is", err, third.Converted, third.Warnings)
			}
		})
	}
}
