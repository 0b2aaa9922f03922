package dataset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"golang.org/x/sys/unix"
)

// ErrInvalidArrow is wrapped by the errors OpenFile returns for a file that
// is not a complete Arrow file written by this version of Convert
// (truncated, corrupt, or from another format version).
var ErrInvalidArrow = errors.New("invalid awards Arrow file")

var arrowMagic = []byte("ARROW1")

// Dataset is a converted awards file, memory-mapped read-only. Its columns
// point into the mapping: they are valid until Close and must not be used
// afterwards. A Dataset is safe for concurrent reads.
type Dataset struct {
	path   string
	data   []byte
	reader *ipc.Reader
	rec    arrow.RecordBatch
	report *LoadReport
	meta   arrow.Metadata
	// indexes are decoded from the index fields after the data columns,
	// whose arrays indexArrays holds; rec holds only the data columns.
	indexes     []Index
	indexArrays []arrow.Array
}

// OpenFile memory-maps an Arrow file written by Convert and validates its
// structure: the Arrow magic at both ends, one record batch, the canonical
// columns with their types, the format version and the stored load report,
// whose row count must match, and the shape of every column's data
// (validate.go; Verify reads every row's offsets and indices). Column data
// is not read otherwise: its pages are loaded by the kernel when a column
// is first used, and shared between processes mapping the same file.
// Errors for files that fail validation wrap ErrInvalidArrow.
func OpenFile(path string) (*Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Open(f, path)
}

// Open is OpenFile for a file already open for reading, named name in
// errors and by Path: a process that may open no file (a compiled cell,
// under Landlock from its first instruction) maps the descriptor it
// inherited. The mapping outlives f, which the caller may close.
func Open(f *os.File, name string) (*Dataset, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s: is a directory, not an Arrow file", name)
	}
	size := st.Size()
	if size < int64(2*len(arrowMagic)+8) {
		return nil, fmt.Errorf("%w: %s: %d bytes is too short", ErrInvalidArrow, name, size)
	}
	if size != int64(int(size)) {
		return nil, fmt.Errorf("%s: file too large to map", name)
	}
	data, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("mapping %s: %w", name, err)
	}
	d := &Dataset{path: name, data: data}
	if err := d.init(); err != nil {
		d.Close()
		return nil, fmt.Errorf("%w: %s: %w", ErrInvalidArrow, name, err)
	}
	return d, nil
}

func (d *Dataset) init() error {
	if !bytes.HasPrefix(d.data, arrowMagic) || !bytes.HasSuffix(d.data, arrowMagic) {
		return errors.New("no Arrow file magic at the start and end (truncated or not an Arrow file)")
	}
	// Before arrow-go reads any of it (fbcheck.go): it sizes allocations
	// from the flatbuffers unchecked.
	framed, err := checkArrowMetadata(d.data)
	if err != nil {
		return err
	}
	// ipc.NewMappedFileReader (arrow-go v18.8.0) panics on schemas with
	// dictionary fields: it never initialises its dictionary memo. The
	// stream reader fed with messages sliced from the mapping is just as
	// zero-copy, so the file is read as the stream it embeds.
	if err := checkFooter(d.data); err != nil {
		return err
	}
	msgs := newMappedMessages(d.data, framed)
	r, err := ipc.NewReaderFromMessageReader(msgs, ipc.WithAllocator(memory.DefaultAllocator))
	if err != nil {
		return err
	}
	d.reader = r
	d.meta = r.Schema().Metadata()
	v, ok := d.meta.GetValue(MetaFormatVersion)
	if !ok {
		return errors.New("no format version in the schema metadata (not written by sbir-kernel)")
	}
	if v != strconv.Itoa(FormatVersion) {
		return fmt.Errorf("format version %s, want %d", v, FormatVersion)
	}
	rj, ok := d.meta.GetValue(MetaLoadReport)
	if !ok {
		return errors.New("no load report in the schema metadata")
	}
	d.report = new(LoadReport)
	if err := json.Unmarshal([]byte(rj), d.report); err != nil {
		return fmt.Errorf("decoding the stored load report: %w", err)
	}
	if err := checkSchema(r.Schema()); err != nil {
		return err
	}
	rec, err := nextRecord(r)
	if err != nil {
		return err
	}
	if rec == nil {
		return errors.New("no record batch")
	}
	// The reader releases its record when it moves on; the Dataset's own
	// record (below) holds the columns.
	rec.Retain()
	defer rec.Release()
	more, err := nextRecord(r)
	if err != nil {
		return err
	}
	if more != nil {
		return errors.New("more than one record batch")
	}
	if rec.NumRows() != d.report.Rows {
		return fmt.Errorf("%d rows, but the load report says %d", rec.NumRows(), d.report.Rows)
	}
	fields := r.Schema().Fields()
	if int(rec.NumCols()) != len(fields) {
		return fmt.Errorf("%d columns in the record batch, %d in the schema", rec.NumCols(), len(fields))
	}
	if err := validateColumns(rec, checkShape); err != nil {
		return err
	}
	// The data columns, then the indexes (indexes.go); checkSchema made
	// sure no data column follows an index.
	nd := len(fields)
	for nd > 0 && isIndexField(fields[nd-1]) {
		nd--
	}
	d.rec = array.NewRecordBatch(arrow.NewSchema(fields[:nd], &d.meta), rec.Columns()[:nd], rec.NumRows())
	for i := nd; i < len(fields); i++ {
		ix, err := readIndex(fields[i], rec.Column(i), int(rec.NumRows()))
		if err != nil {
			return err
		}
		if d.rec.Schema().FieldIndices(ix.Column) == nil {
			return fmt.Errorf("index field %q indexes %q, which is not a column", fields[i].Name, ix.Column)
		}
		a := rec.Column(i)
		a.Retain()
		d.indexArrays = append(d.indexArrays, a)
		d.indexes = append(d.indexes, ix)
	}
	return nil
}

// Verify reads every string offset and dictionary index of the file's
// columns and indexes, which OpenFile checks only at their ends
// (validate.go): Locate calls it before it uses a cached file, so that one
// changed on disk is converted again rather than making cells panic. The
// error wraps ErrInvalidArrow.
func (d *Dataset) Verify() error {
	if err := validateColumns(d.rec, checkRows); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrInvalidArrow, d.path, err)
	}
	for i, a := range d.indexArrays {
		if err := validateData(a.Data(), checkRows); err != nil {
			return fmt.Errorf("%w: %s: index %q: %w", ErrInvalidArrow, d.path, d.indexes[i].Column, err)
		}
	}
	return nil
}

// Indexes returns the indexes stored in the file (see indexes.go): the
// bitmap indexes of its category and small-range int columns and the
// dictionary encodings of the usual text group keys, their memory in the
// mapping, valid until Close. OpenFile checked their shape and the
// dictionary codes' range; that they describe the data is Convert's word.
func (d *Dataset) Indexes() []Index { return d.indexes }

// checkFooter validates the file footer (schema and block index) with
// ipc.FileReader, which reads only the footer and the small dictionary
// blocks here: record batch bodies are never touched.
func checkFooter(data []byte) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("corrupt footer: %v", p)
		}
	}()
	fr, err := ipc.NewFileReader(bytes.NewReader(data), ipc.WithBodySizeLimit(int64(len(data))))
	if err != nil {
		return err
	}
	defer fr.Close()
	if n := fr.NumRecords(); n != 1 {
		return fmt.Errorf("the footer lists %d record batches, want 1", n)
	}
	return nil
}

// checkSchema verifies that s starts with the canonical fields and that
// any extra fields are utf8.
func checkSchema(s *arrow.Schema) error {
	want := canonicalFields()
	got := s.Fields()
	if len(got) < len(want) {
		return fmt.Errorf("%d columns, want at least %d", len(got), len(want))
	}
	for i, w := range want {
		if got[i].Name != w.Name || !arrow.TypeEqual(got[i].Type, w.Type) {
			return fmt.Errorf("column %d is %q %s, want %q %s", i, got[i].Name, got[i].Type, w.Name, w.Type)
		}
	}
	indexes := false
	for _, f := range got[len(want):] {
		if isIndexField(f) {
			indexes = true
			continue
		}
		if indexes {
			return fmt.Errorf("column %q follows an index", f.Name)
		}
		if !arrow.TypeEqual(f.Type, arrow.BinaryTypes.String) {
			return fmt.Errorf("extra column %q is %s, want utf8", f.Name, f.Type)
		}
	}
	return nil
}

// Record returns the single record batch holding every row. It is owned by
// the Dataset: do not Release it, and do not use it after Close.
func (d *Dataset) Record() arrow.RecordBatch { return d.rec }

// NumRows returns the number of awards.
func (d *Dataset) NumRows() int { return int(d.rec.NumRows()) }

// Schema returns the file's schema, metadata included.
func (d *Dataset) Schema() *arrow.Schema { return d.rec.Schema() }

// Report returns the load report stored when the file was converted.
func (d *Dataset) Report() *LoadReport { return d.report }

// Path returns the path of the mapped file.
func (d *Dataset) Path() string { return d.path }

// Metadata returns the value of a schema metadata key, such as MetaSource.
func (d *Dataset) Metadata(key string) (string, bool) { return d.meta.GetValue(key) }

// Close releases the record and unmaps the file. Arrays obtained from the
// Dataset must not be used afterwards.
func (d *Dataset) Close() error {
	if d.rec != nil {
		d.rec.Release()
		d.rec = nil
	}
	for _, a := range d.indexArrays {
		a.Release()
	}
	d.indexes, d.indexArrays = nil, nil
	if d.reader != nil {
		d.reader.Release()
		d.reader = nil
	}
	if d.data != nil {
		err := unix.Munmap(d.data)
		d.data = nil
		return err
	}
	return nil
}
