package dataset

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// Schema metadata keys of a converted Arrow file.
const (
	// MetaFormatVersion holds FormatVersion as a decimal string.
	MetaFormatVersion = "sbir-kernel.format_version"
	// MetaLoadReport holds the LoadReport as JSON.
	MetaLoadReport = "sbir-kernel.load_report"
	// MetaSource holds the identity of the source CSV (see Locate) as JSON.
	MetaSource = "sbir-kernel.source"
)

// ConvertOptions configures Convert. The zero value is ready to use.
type ConvertOptions struct {
	// Logger receives progress and diagnostics at debug level; nil discards.
	Logger *slog.Logger
	// Progress, if set, is called as input is read with the bytes read so
	// far and the size passed to Convert (0 if unknown).
	Progress func(bytesRead, total int64)
	// Metadata is added to the Arrow schema metadata (keys starting with
	// "sbir-kernel." are reserved).
	Metadata map[string]string
}

// ErrNotAwardsCSV is wrapped by the errors Convert returns for input that
// is not an SBIR awards CSV (an HTML page, another table, an empty file).
var ErrNotAwardsCSV = errors.New("not an SBIR awards CSV")

// readChunk is the size of reads from the CSV.
const readChunk = 4 << 20

// Convert reads an SBIR awards CSV from src and writes it to dst as an
// Arrow IPC file holding one record batch with every row, in the layout of
// Schema plus any extra CSV columns. size is the input size in bytes if
// known (0 otherwise); it is used to pre-size buffers and for progress.
//
// Records with the wrong number of fields are skipped; unparseable numbers
// and dates become null; invalid UTF-8 is replaced. All of it is counted in
// the returned LoadReport, which is also stored in the file. Convert fails
// if the header lacks the core award columns (the error wraps
// ErrNotAwardsCSV and names them), if a quoted field is still open at the
// end of the input, if reading or writing fails, or if ctx is cancelled.
// On failure dst may hold a partial file.
func Convert(ctx context.Context, src io.Reader, size int64, dst io.Writer, opts ConvertOptions) (*LoadReport, error) {
	mem := &columnMemory{}
	defer mem.release()
	return convert(ctx, src, size, dst, opts, defaultTuning(), mem)
}

// convert is Convert with the pipeline's sizes and the memory the columns'
// large buffers come from (nil: the Go heap). The caller releases mem once
// convert returns, when it likes: nothing convert made uses it any more.
func convert(ctx context.Context, src io.Reader, size int64, dst io.Writer, opts ConvertOptions, tune tuning, mem *columnMemory) (*LoadReport, error) {
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	rd := convertReader(ctx, src, size, opts, tune)
	report := &LoadReport{FormatVersion: FormatVersion}
	m, ncols, err := readHeader(rd, report)
	if err != nil {
		return nil, err
	}
	builders, colReports, jobs := columnJobs(m, mem)
	start := time.Now()
	lastShort, err := scanRecords(rd, ncols, size, report, jobs, tune)
	if err != nil {
		return nil, err
	}
	scanned := time.Now()
	for _, cr := range colReports {
		report.mergeColumn(cr)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	report.countInput(rd, lastShort)
	if opts.Progress != nil {
		opts.Progress(rd.consumed, size)
	}
	rd.buf = nil // the input buffer is no longer needed while writing

	cols := make([]arrow.Array, len(builders))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, b := range builders {
		if cols[i], err = b.finish(); err != nil {
			return nil, err
		}
	}
	md, err := fileMetadata(report, opts.Metadata)
	if err != nil {
		return nil, err
	}
	// The indexes follow the data columns (indexes.go): the data columns
	// are written exactly as without them.
	finished := time.Now()
	ixFields, ixCols, err := buildIndexes(m.fields, cols)
	if err != nil {
		return nil, err
	}
	indexed := time.Now()
	cols = append(cols, ixCols...) // released with the data columns
	schema := arrow.NewSchema(append(m.fields[:len(m.fields):len(m.fields)], ixFields...), &md)
	if err := writeArrow(dst, schema, cols, report.Rows); err != nil {
		return nil, err
	}
	logger.Debug("converted awards CSV", "rows", report.Rows, "skipped", report.Skipped, "bytes", report.Bytes,
		"scan", scanned.Sub(start), "finish", finished.Sub(scanned), "indexes", indexed.Sub(finished), "write", time.Since(indexed))
	return report, nil
}

// headerMap says where each CSV field goes.
type headerMap struct {
	fields   []arrow.Field // canonical fields, then extras
	fieldCol []int         // CSV field index → output column index
	missing  []int         // canonical columns absent from the CSV
}

// maxCSVColumns bounds the fields of an awards CSV's header (the real file
// has 42): each column costs memory when the Arrow file is opened, and
// OpenFile refuses schemas much wider than this (fbcheck.go).
const maxCSVColumns = 1024

// convertReader reads src (size bytes, or -1 when unknown) for convert,
// ending the read once ctx is done and reporting progress every readChunk.
func convertReader(ctx context.Context, src io.Reader, size int64, opts ConvertOptions, tune tuning) *csvReader {
	bufSize := tune.batchBytes
	if size > 0 && size < int64(bufSize) {
		bufSize = int(size) + 512 // small inputs: no 4 MiB buffer
	}
	rd := newCSVReader(src, bufSize)
	lastProgress := int64(-1)
	rd.onRead = func(total int64) {
		if err := ctx.Err(); err != nil && rd.readErr == nil {
			rd.readErr = err
		}
		if opts.Progress != nil && total-lastProgress >= readChunk {
			lastProgress = total
			opts.Progress(total, size)
		}
	}
	return rd
}

// readHeader reads and maps the CSV's header line, noting a byte-order
// mark in report, and returns the mapping and the header's field count.
func readHeader(rd *csvReader, report *LoadReport) (*headerMap, int, error) {
	header, _, err := rd.next()
	if err == io.EOF {
		return nil, 0, fmt.Errorf("%w: %w", ErrNotAwardsCSV, errEmpty)
	}
	if err != nil {
		return nil, 0, err
	}
	if len(header) > 0 && len(header[0]) >= 3 && string(header[0][:3]) == "\uFEFF" {
		header[0] = header[0][3:]
		report.BOM = true
	}
	m, err := mapHeader(header, report)
	if err != nil {
		return nil, 0, err
	}
	return m, len(header), nil // header points into the reader's buffer: keep only its length
}

// columnJobs makes a builder for each column of m, and the job that
// feeds it its CSV field. Each column counts its issues in a report of
// its own (columns are converted concurrently), merged at the end.
func columnJobs(m *headerMap, mem *columnMemory) ([]colBuilder, []*LoadReport, []colJob) {
	builders := make([]colBuilder, len(m.fields))
	colReports := make([]*LoadReport, len(m.fields))
	jobs := make([]colJob, len(m.fields))
	for i, f := range m.fields {
		kind := kindText
		if i < len(canonical) {
			kind = canonical[i].kind
		}
		colReports[i] = &LoadReport{}
		builders[i] = newColBuilder(f.Name, kind, colReports[i], mem)
		jobs[i] = colJob{b: builders[i], field: -1}
	}
	for field, ci := range m.fieldCol {
		jobs[ci].field = field
	}
	return builders, colReports, jobs
}

// countInput records in r what was read: bytes, lines, and a last line
// cut short (lastShort, its number) without a line terminator.
func (r *LoadReport) countInput(rd *csvReader, lastShort int64) {
	r.Bytes = rd.consumed
	if lastShort > 0 && rd.lastByte != '\n' && rd.lastByte != '\r' {
		r.TruncatedLine = lastShort
	}
	r.Lines = rd.line
	if rd.consumed > 0 && rd.lastByte != '\n' {
		r.Lines++ // last line without a terminator
	}
}

// fileMetadata is the Arrow file's schema metadata: the format version,
// the load report, and the caller's keys, which may not take the
// sbir-kernel. prefix (but MetaSource).
func fileMetadata(report *LoadReport, extra map[string]string) (arrow.Metadata, error) {
	reportJSON, err := json.Marshal(report)
	if err != nil {
		return arrow.Metadata{}, fmt.Errorf("encoding load report: %w", err)
	}
	keys := []string{MetaFormatVersion, MetaLoadReport}
	vals := []string{strconv.Itoa(FormatVersion), string(reportJSON)}
	for k, v := range extra {
		if strings.HasPrefix(k, "sbir-kernel.") && k != MetaSource {
			return arrow.Metadata{}, fmt.Errorf("ConvertOptions.Metadata: key %q is reserved", k)
		}
		keys = append(keys, k)
		vals = append(vals, v)
	}
	return arrow.NewMetadata(keys, vals), nil
}

// writeArrow writes cols, rows long, to dst as an Arrow IPC file of one
// record batch.
func writeArrow(dst io.Writer, schema *arrow.Schema, cols []arrow.Array, rows int64) error {
	rec := array.NewRecordBatch(schema, cols, rows)
	defer rec.Release()
	w, err := ipc.NewFileWriter(dst, ipc.WithSchema(schema))
	if err != nil {
		return fmt.Errorf("writing Arrow file: %w", err)
	}
	if err := w.Write(rec); err != nil {
		return fmt.Errorf("writing Arrow file: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("writing Arrow file: %w", err)
	}
	return nil
}

func mapHeader(header [][]byte, report *LoadReport) (*headerMap, error) {
	if len(header) > maxCSVColumns {
		return nil, fmt.Errorf("%w: the header has %d fields, more than the %d an awards CSV may have; %s",
			ErrNotAwardsCSV, len(header), maxCSVColumns, describeStart(header))
	}
	m := &headerMap{fields: canonicalFields(), fieldCol: make([]int, len(header))}
	report.CSVColumns = len(header)
	seen := make([]bool, len(canonical))
	names := make(map[string]bool)
	for _, c := range canonical {
		names[c.name] = true
	}
	if len(header) == 1 && len(header[0]) == 0 {
		return nil, fmt.Errorf("%w: the first line is empty", ErrNotAwardsCSV)
	}
	for i, h := range header {
		name := strings.TrimSpace(strings.ToValidUTF8(string(h), "\uFFFD"))
		if ci, ok := canonicalIndex[normalizeHeader(name)]; ok && !seen[ci] {
			seen[ci] = true
			m.fieldCol[i] = ci
			if name != canonical[ci].name {
				if report.RenamedColumns == nil {
					report.RenamedColumns = make(map[string]string)
				}
				report.RenamedColumns[name] = canonical[ci].name
			}
			continue
		}
		// Unknown or repeated name: keep the column as text under a unique name.
		if name == "" {
			name = fmt.Sprintf("Column %d", i+1)
		}
		unique := name
		for n := 2; names[unique]; n++ {
			unique = fmt.Sprintf("%s (%d)", name, n)
		}
		names[unique] = true
		m.fieldCol[i] = len(m.fields)
		m.fields = append(m.fields, arrow.Field{Name: unique, Type: arrow.BinaryTypes.String, Nullable: true})
		report.ExtraColumns = append(report.ExtraColumns, unique)
	}
	var missingRequired []string
	for _, r := range requiredColumns {
		if !seen[canonicalIndex[normalizeHeader(r)]] {
			missingRequired = append(missingRequired, r)
		}
	}
	if len(missingRequired) > 0 {
		return nil, fmt.Errorf("%w: %s; the header has no %s column%s", ErrNotAwardsCSV, describeStart(header),
			quoteList(missingRequired), plural(len(missingRequired)))
	}
	for ci, ok := range seen {
		if !ok {
			m.missing = append(m.missing, ci)
			report.MissingColumns = append(report.MissingColumns, canonical[ci].name)
		}
	}
	report.Columns = len(m.fields)
	switch {
	case len(header) == 42 && len(report.MissingColumns) == 0 && len(report.ExtraColumns) == 0:
		report.HeaderShape = ShapeBulk42
	case len(header) == 41 && len(report.MissingColumns) == 1 && report.MissingColumns[0] == ColUEI && len(report.ExtraColumns) == 0:
		report.HeaderShape = ShapeLegacy41
	default:
		report.HeaderShape = ShapeOther
	}
	return m, nil
}

// describeStart says what the first line looks like, for errors about
// files that are not award CSVs: HTML pages are the common case.
func describeStart(header [][]byte) string {
	var b []byte
	for i, h := range header {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, h...)
		if len(b) > 60 {
			break
		}
	}
	return "starts with " + truncate(strings.TrimSpace(strings.ToValidUTF8(string(b), "\uFFFD")), 60)
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// convertTo converts r into the new file tmp, buffered, and makes it
// readable by everyone (workers may run as another user). The file is
// neither synced nor closed, nor mem released: the callers decide when
// its bytes must be durable and when the columns' memory goes back.
func convertTo(ctx context.Context, r io.Reader, size int64, tmp *os.File, opts ConvertOptions, mem *columnMemory) (*LoadReport, error) {
	// Large writes pass bufio straight through: dropWriter sees the column
	// buffers themselves.
	var w io.Writer = tmp
	if mem != nil {
		w = dropWriter{w: tmp, mem: mem}
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	report, err := convert(ctx, bufio.NewReaderSize(r, 64<<10), size, bw, opts, defaultTuning(), mem)
	if err != nil {
		return nil, err
	}
	if err := bw.Flush(); err != nil {
		return nil, fmt.Errorf("writing %s: %w", tmp.Name(), err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return nil, err
	}
	return report, nil
}

// syncClose syncs and closes f, a file convertTo wrote.
func syncClose(f *os.File) error {
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", f.Name(), err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", f.Name(), err)
	}
	return nil
}

// ConvertFile converts the awards CSV at csvPath into the Arrow file
// arrowPath, atomically and durably: the result is synced, then appears
// under arrowPath complete or not at all. It is Convert for files, handy
// for fixtures and tools; Locate adds caching and locking on top (a file
// ConvertFile writes is not a cache entry: it has no durability marker).
func ConvertFile(ctx context.Context, csvPath, arrowPath string, opts ConvertOptions) (*LoadReport, error) {
	f, err := os.Open(csvPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s is a directory, not an awards CSV", csvPath)
	}
	tmp, err := os.CreateTemp(filepath.Dir(arrowPath), filepath.Base(arrowPath)+".tmp-*")
	if err != nil {
		return nil, err
	}
	defer func() {
		if tmp != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	mem := &columnMemory{}
	report, err := convertTo(ctx, f, st.Size(), tmp, opts, mem)
	mem.release()
	if err != nil {
		return nil, fmt.Errorf("converting %s: %w", csvPath, err)
	}
	if err := syncClose(tmp); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp.Name(), arrowPath); err != nil {
		return nil, err
	}
	tmp = nil
	return report, nil
}
