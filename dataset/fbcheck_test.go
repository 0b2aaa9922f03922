package dataset

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// smallArrowFile is the Arrow file of 70 generated awards that the
// metadata tests damage; converted once.
var smallArrowFile = sync.OnceValues(func() ([]byte, error) {
	var csv, out bytes.Buffer
	if err := Generate(&csv, GenerateOptions{Rows: 70, Seed: 6}); err != nil {
		return nil, err
	}
	if _, err := Convert(context.Background(), bytes.NewReader(csv.Bytes()), int64(csv.Len()), &out, ConvertOptions{}); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
})

func smallArrow(t testing.TB) []byte {
	t.Helper()
	data, err := smallArrowFile()
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Clone(data)
}

// arrowLayout locates the flatbuffers of an undamaged Arrow file: each
// message's metadata and the footer. It reads them with its own minimal
// code so that the tests do not trust the checker they test.
type arrowLayout struct {
	msgs   []fbLoc // metadata of each message, in stream order
	footer fbLoc
}

// fbLoc is a flatbuffer inside the file and a table in it, as file
// offsets.
type fbLoc struct {
	file  []byte
	start int // of the flatbuffer
	table int // of the current table
}

func layoutOf(t testing.TB, file []byte) arrowLayout {
	t.Helper()
	var l arrowLayout
	n := len(file)
	footerLen := int(binary.LittleEndian.Uint32(file[n-10:]))
	footerStart := n - 10 - footerLen
	for off := 8; off < footerStart; {
		metaLen := int(binary.LittleEndian.Uint32(file[off+4:]))
		if metaLen == 0 {
			break
		}
		m := fbLoc{file: file, start: off + 8}
		m.table = m.start + int(binary.LittleEndian.Uint32(file[m.start:]))
		l.msgs = append(l.msgs, m)
		bodyLen := 0 // bodyLength is left out when 0
		if p := m.fieldPosOr0(3); p != 0 {
			bodyLen = int(binary.LittleEndian.Uint64(file[p:]))
		}
		off += 8 + metaLen + bodyLen
	}
	l.footer = fbLoc{file: file, start: footerStart}
	l.footer.table = footerStart + int(binary.LittleEndian.Uint32(file[footerStart:]))
	return l
}

// fieldPos returns the file offset of the field in slot of the table.
func (l fbLoc) fieldPos(t testing.TB, slot int) int {
	t.Helper()
	p := l.fieldPosOr0(slot)
	if p == 0 {
		t.Fatalf("table at %d has no slot %d", l.table, slot)
	}
	return p
}

// fieldPosOr0 returns the file offset of the field in slot, 0 if the
// table has none.
func (l fbLoc) fieldPosOr0(slot int) int {
	vt := l.table - int(int32(binary.LittleEndian.Uint32(l.file[l.table:])))
	vtLen := int(binary.LittleEndian.Uint16(l.file[vt:]))
	if 4+2*slot >= vtLen {
		return 0
	}
	o := int(binary.LittleEndian.Uint16(l.file[vt+4+2*slot:]))
	if o == 0 {
		return 0
	}
	return l.table + o
}

// target returns the file offset an uoffset field in slot points to.
func (l fbLoc) target(t testing.TB, slot int) int {
	p := l.fieldPos(t, slot)
	return p + int(binary.LittleEndian.Uint32(l.file[p:]))
}

// sub returns the table in slot.
func (l fbLoc) sub(t testing.TB, slot int) fbLoc {
	l.table = l.target(t, slot)
	return l
}

// vector returns the file offsets of the length of the vector in slot
// and of its first element.
func (l fbLoc) vector(t testing.TB, slot int) (lenPos, start int) {
	p := l.target(t, slot)
	return p, p + 4
}

// elem returns the table that element i of the vector of tables in slot
// points to.
func (l fbLoc) elem(t testing.TB, slot, i int) fbLoc {
	_, start := l.vector(t, slot)
	p := start + 4*i
	l.table = p + int(binary.LittleEndian.Uint32(l.file[p:]))
	return l
}

// header returns the header table of message i.
func (l arrowLayout) header(t testing.TB, i int) fbLoc { return l.msgs[i].sub(t, 2) }

// headerType returns the header type of message i.
func (l arrowLayout) headerType(t testing.TB, i int) byte {
	return l.msgs[i].file[l.msgs[i].fieldPos(t, 1)]
}

// firstMessage returns the index of the first message with header type ht.
func (l arrowLayout) firstMessage(t testing.TB, ht byte) int {
	t.Helper()
	for i := range l.msgs {
		if l.headerType(t, i) == ht {
			return i
		}
	}
	t.Fatalf("no message of header type %d", ht)
	return 0
}

// metadataSeed is a damage to an Arrow file: val, little-endian, written
// over width bytes at off.
type metadataSeed struct {
	name  string
	off   int
	val   uint64
	width uint8
	want  string // the checker's error must contain this
}

// metadataSeeds are damages that OpenFile did not survive before
// fbcheck.go. Three made it allocate far more than the file's size:
//   - a field count in the footer's schema: 1.4 GB for a 165 kB file;
//   - a dictionary batch's buffer length and
//   - a record batch's buffer length, which arrow-go v18.8.0 slices
//     from the body unchecked (a recovered panic there, no allocation,
//     but the checker must stop them before it).
//
// Two crashed the process with errors no recover catches:
//   - a schema message saying big-endian: arrow-go byte-swaps the
//     dictionaries in place, writing to the read-only mapping (SIGSEGV);
//   - a negative null count in a record batch's field node: the array's
//     NullN counts bits of a bitmap that is not there, a panic in
//     readIndex outside nextRecord's recover.
func metadataSeeds(t testing.TB, file []byte) []metadataSeed {
	l := layoutOf(t, file)
	fields, _ := l.footer.sub(t, 1).vector(t, 1)
	dict := l.firstMessage(t, fbHeaderDictionaryBatch)
	_, dictBufs := l.header(t, dict).sub(t, 1).vector(t, 2)
	rec := l.firstMessage(t, fbHeaderRecordBatch)
	nodesLen, nodes := l.header(t, rec).vector(t, 1)
	lastNode := nodes + 16*(int(binary.LittleEndian.Uint32(file[nodesLen:]))-1)
	_, recBufs := l.header(t, rec).vector(t, 2)
	schema := l.header(t, 0)
	fieldsEntry := schema.vtableEntry(t, 1)
	return []metadataSeed{
		{"footer schema field count", fields, 1 << 24, 4, "footer: Footer.schema.fields (file offset "},
		{"dictionary buffer length", dictBufs + 16 + 8, 1 << 40, 8, "Message.header(DictionaryBatch).data.buffers[1] (file offset"},
		{"record batch buffer length", recBufs + 16 + 8, 1 << 40, 8, "Message.header(RecordBatch).buffers[1] (file offset"},
		{"big-endian schema message", schema.vtableEntry(t, 0), uint64(binary.LittleEndian.Uint16(file[fieldsEntry:])), 2, "Message.header(Schema).endianness (file offset"},
		{"negative null count", lastNode + 8 + 4, 0xffffffff, 4, "Message.header(RecordBatch).nodes["},
	}
}

func (s metadataSeed) apply(file []byte) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], s.val)
	copy(file[s.off:], b[:s.width])
}

// openDamaged writes file to dir and opens it, reporting the bytes the
// Go heap allocated meanwhile.
func openDamaged(t *testing.T, dir string, file []byte) (d *Dataset, allocated uint64, err error) {
	t.Helper()
	path := filepath.Join(dir, "damaged.arrow")
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	d, err = OpenFile(path)
	runtime.ReadMemStats(&after)
	return d, after.TotalAlloc - before.TotalAlloc, err
}

// allocBound is what opening a file of n bytes may allocate, damaged or
// not.
func allocBound(n int) uint64 { return 8*uint64(n) + 32<<20 }

// FuzzOpenFileCorruptMetadata writes a value over 1 to 8 bytes anywhere
// in a small converted file, its flatbuffer metadata included: the
// schema and dictionary messages, the record batch's metadata and the
// footer. OpenFile must return an error or a Dataset, never panic, and
// allocate no more than allocBound whatever the damage.
func FuzzOpenFileCorruptMetadata(f *testing.F) {
	good := smallArrow(f)
	for _, s := range metadataSeeds(f, good) {
		f.Add(uint32(s.off), s.val, s.width)
	}
	l := layoutOf(f, good)
	for _, m := range append(l.msgs, l.footer) {
		for _, d := range []int{0, 4, 12, 20, 40, 100} {
			f.Add(uint32(m.start+d), uint64(0xffffffff), uint8(3))
			f.Add(uint32(m.table+d), uint64(0x7f), uint8(0))
		}
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, off uint32, val uint64, width uint8) {
		file := bytes.Clone(good)
		metadataSeed{off: int(off % uint32(len(file))), val: val, width: width%8 + 1}.apply(file)
		d, allocated, err := openDamaged(t, dir, file)
		if err == nil {
			d.Close()
		} else if !errors.Is(err, ErrInvalidArrow) {
			t.Fatalf("error %v does not wrap ErrInvalidArrow", err)
		}
		if bound := allocBound(len(file)); allocated > bound {
			t.Fatalf("opening the damaged %d-byte file allocated %d bytes, more than %d", len(file), allocated, bound)
		}
	})
}

// TestOpenFileMetadataSeeds opens the files damaged by metadataSeeds:
// each fails with the checker's error, allocating little.
func TestOpenFileMetadataSeeds(t *testing.T) {
	good := smallArrow(t)
	dir := t.TempDir()
	for _, s := range metadataSeeds(t, good) {
		t.Run(s.name, func(t *testing.T) {
			file := bytes.Clone(good)
			s.apply(file)
			d, allocated, err := openDamaged(t, dir, file)
			t.Logf("allocated %d bytes; %v", allocated, err)
			if err == nil {
				d.Close()
				t.Fatal("no error")
			}
			if !errors.Is(err, ErrInvalidArrow) || !strings.Contains(err.Error(), s.want) {
				t.Fatalf("error %q, want one wrapping ErrInvalidArrow containing %q", err, s.want)
			}
			if bound := allocBound(len(file)); allocated > bound {
				t.Fatalf("allocated %d bytes, more than %d", allocated, bound)
			}
		})
	}
}

// vtableEntry returns the file offset of the vtable entry for slot.
func (l fbLoc) vtableEntry(t testing.TB, slot int) int {
	t.Helper()
	vt := l.table - int(int32(binary.LittleEndian.Uint32(l.file[l.table:])))
	if vtLen := int(binary.LittleEndian.Uint16(l.file[vt:])); 4+2*slot+2 > vtLen {
		t.Fatalf("vtable at %d has no slot %d", vt, slot)
	}
	return vt + 4 + 2*slot
}

func put32(file []byte, off int, v uint32) { binary.LittleEndian.PutUint32(file[off:], v) }
func put64(file []byte, off int, v uint64) { binary.LittleEndian.PutUint64(file[off:], v) }

// TestCheckArrowMetadata damages the flatbuffers of a converted file by
// hand, one way per case, and checks the error each damage gets.
func TestCheckArrowMetadata(t *testing.T) {
	tests := []struct {
		name   string
		damage func(t *testing.T, f []byte, l arrowLayout)
		want   string
	}{
		{"footer length past the start", func(t *testing.T, f []byte, l arrowLayout) {
			put32(f, len(f)-10, uint32(len(f)))
		}, "does not fit in the"},
		{"no continuation marker", func(t *testing.T, f []byte, l arrowLayout) {
			put32(f, 8, 0x12345678)
		}, "message 0 at file offset 8: no continuation marker"},
		{"metadata length past the footer", func(t *testing.T, f []byte, l arrowLayout) {
			put32(f, 12, 0x7fffffff)
		}, "message 0 at file offset 8: metadata length 2147483647 outside 4.."},
		{"root offset outside the flatbuffer", func(t *testing.T, f []byte, l arrowLayout) {
			put32(f, l.msgs[0].start, 0xfffffff0)
		}, "message 0 at file offset 8: Message (file offset 4294967296): table at 4294967280 runs past the end"},
		{"vtable outside the flatbuffer", func(t *testing.T, f []byte, l arrowLayout) {
			put32(f, l.msgs[1].table, 0x7fffffff)
		}, "message 1 at file offset"},
		{"odd vtable size", func(t *testing.T, f []byte, l arrowLayout) {
			vt := l.footer.vtableEntry(t, 0) - 4
			f[vt] = 5
		}, "footer: Footer (file offset"},
		{"field outside its table", func(t *testing.T, f []byte, l arrowLayout) {
			f[l.footer.vtableEntry(t, 1)] = 0xf0
			f[l.footer.vtableEntry(t, 1)+1] = 0xff
		}, "field slot 1 at table offset 65520, outside the table's"},
		{"tensor message", func(t *testing.T, f []byte, l arrowLayout) {
			f[l.msgs[0].fieldPos(t, 1)] = 4
		}, "Message.header_type (file offset"},
		{"body past the footer", func(t *testing.T, f []byte, l arrowLayout) {
			rec := l.firstMessage(t, fbHeaderRecordBatch)
			put64(f, l.msgs[rec].fieldPos(t, 3), 1<<40)
		}, "Message.bodyLength (file offset"},
		{"schema field count past the footer", func(t *testing.T, f []byte, l arrowLayout) {
			n, _ := l.footer.sub(t, 1).vector(t, 1)
			put32(f, n, 1<<30)
		}, "footer: Footer.schema.fields (file offset"},
		{"no field type", func(t *testing.T, f []byte, l arrowLayout) {
			f[l.footer.sub(t, 1).elem(t, 1, 2).fieldPos(t, 2)] = 0
		}, `Footer.schema.fields[2]("Agency").type_type (file offset`},
		{"field name past the schema", func(t *testing.T, f []byte, l arrowLayout) {
			n, _ := l.header(t, 0).elem(t, 1, 3).vector(t, 0)
			put32(f, n, 1<<20)
		}, "Message.header(Schema).fields[3].name (file offset"},
		{"big-endian schema", func(t *testing.T, f []byte, l arrowLayout) {
			// endianness is left out when Little (0): its slot gets the
			// fields offset's place, whose value is not 0.
			s := l.header(t, 0)
			copy(f[s.vtableEntry(t, 0):], f[s.vtableEntry(t, 1):s.vtableEntry(t, 1)+2])
		}, "Message.header(Schema).endianness (file offset"},
		{"metadata value past the schema", func(t *testing.T, f []byte, l arrowLayout) {
			n, _ := l.header(t, 0).elem(t, 2, 0).vector(t, 1)
			put32(f, n, 1<<20)
		}, "Message.header(Schema).custom_metadata[0].value (file offset"},
		{"negative buffer offset", func(t *testing.T, f []byte, l arrowLayout) {
			_, bufs := l.header(t, l.firstMessage(t, fbHeaderRecordBatch)).vector(t, 2)
			put64(f, bufs, 1<<63)
		}, "Message.header(RecordBatch).buffers[0] (file offset"},
		{"dictionary buffer past its body", func(t *testing.T, f []byte, l arrowLayout) {
			_, bufs := l.header(t, l.firstMessage(t, fbHeaderDictionaryBatch)).sub(t, 1).vector(t, 2)
			put64(f, bufs+16+8, 1<<40)
		}, "Message.header(DictionaryBatch).data.buffers[1] (file offset"},
		{"null count above length", func(t *testing.T, f []byte, l arrowLayout) {
			_, nodes := l.header(t, l.firstMessage(t, fbHeaderRecordBatch)).vector(t, 1)
			put64(f, nodes+8, 1<<20)
		}, "Message.header(RecordBatch).nodes[0] (file offset"},
		{"row count beyond the body", func(t *testing.T, f []byte, l arrowLayout) {
			put64(f, l.header(t, l.firstMessage(t, fbHeaderRecordBatch)).fieldPos(t, 0), 1<<50)
		}, "Message.header(RecordBatch).length (file offset"},
		{"block not at a message", func(t *testing.T, f []byte, l arrowLayout) {
			_, blocks := l.footer.vector(t, 3)
			put64(f, blocks, 16)
		}, "footer: Footer.recordBatches[0] (file offset"},
		{"block body length", func(t *testing.T, f []byte, l arrowLayout) {
			_, blocks := l.footer.vector(t, 2)
			put64(f, blocks+16, 8)
		}, "footer: Footer.dictionaries[0] (file offset"},
		{"dictionary block at a record batch", func(t *testing.T, f []byte, l arrowLayout) {
			_, dicts := l.footer.vector(t, 2)
			_, recs := l.footer.vector(t, 3)
			copy(f[dicts:dicts+24], f[recs:recs+24])
		}, "is a RecordBatch message, want DictionaryBatch"},
	}
	good := smallArrow(t)
	if _, err := checkArrowMetadata(good); err != nil {
		t.Fatalf("undamaged file: %v", err)
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := bytes.Clone(good)
			tt.damage(t, f, layoutOf(t, good))
			_, err := checkArrowMetadata(f)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
			// OpenFile reports it as such.
			d, _, oerr := openDamaged(t, dir, f)
			if oerr == nil {
				d.Close()
				t.Fatal("OpenFile: no error")
			}
			if !errors.Is(oerr, ErrInvalidArrow) || !strings.Contains(oerr.Error(), err.Error()) {
				t.Fatalf("OpenFile: %v, want ErrInvalidArrow with %v", oerr, err)
			}
		})
	}
}

// BenchmarkCheckArrowMetadata checks the full-scale file's metadata, the
// cost checkArrowMetadata adds to OpenFile.
func BenchmarkCheckArrowMetadata(b *testing.B) {
	d, err := OpenFile(fullScaleArrow(b))
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := checkArrowMetadata(d.data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCheckArrowMetadataNesting writes, with arrow-go, a file whose
// field is nested in structs deeper than fbMaxDepth: the checker stops
// at the limit.
func TestCheckArrowMetadataNesting(t *testing.T) {
	for _, tt := range []struct {
		depth int
		want  string
	}{
		{fbMaxDepth - 1, ""},
		{fbMaxDepth + 5, "fields nested deeper than 64"},
	} {
		typ := arrow.DataType(arrow.PrimitiveTypes.Int32)
		for range tt.depth {
			typ = arrow.StructOf(arrow.Field{Name: "s", Type: typ, Nullable: true})
		}
		schema := arrow.NewSchema([]arrow.Field{{Name: "deep", Type: typ, Nullable: true}}, nil)
		_, err := checkArrowMetadata(arrowFile(t, schema, nil))
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("depth %d: %v", tt.depth, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("depth %d: error %v, want one containing %q", tt.depth, err, tt.want)
		}
	}
}

// TestCheckArrowMetadataCompressed writes a record batch compressed by
// arrow-go: refused, since arrow-go would allocate the uncompressed size
// the body claims.
func TestCheckArrowMetadataCompressed(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "n", Type: arrow.PrimitiveTypes.Int64}}, nil)
	b := array.NewInt64Builder(memory.DefaultAllocator)
	b.AppendValues([]int64{1, 2, 3}, nil)
	col := b.NewArray()
	defer col.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, 3)
	defer rec.Release()
	_, err := checkArrowMetadata(arrowFile(t, schema, []arrow.RecordBatch{rec}, ipc.WithLZ4()))
	if want := "Message.header(RecordBatch).compression (file offset"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want one containing %q", err, want)
	}
}
