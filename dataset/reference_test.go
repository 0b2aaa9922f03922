package dataset

// The sequential converter and RFC 4180 record parser as they were before
// the conversion was parallelised and the parser's hot loops rewritten.
// They are kept here, unchanged but for their names and the split of the
// converter into functions that fit on a screen, as the reference the
// fast path is fuzzed against (FuzzParseMatchesReference,
// FuzzConvertMatchesReference).

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// refNext is csvReader.next with the reference parser.
func (c *csvReader) refNext() ([][]byte, int64, error) {
	for {
		n, ok, err := c.parseRef(c.buf[c.start:c.end], c.eof)
		if err != nil {
			return nil, 0, err
		}
		if ok {
			rec := c.buf[c.start : c.start+n]
			line := c.line + 1
			c.line += int64(bytes.Count(rec, []byte{'\n'}))
			c.fields = c.fields[:0]
			for _, sp := range c.spans {
				if sp.inScratch {
					c.fields = append(c.fields, c.scratch[sp.s:sp.e])
				} else {
					c.fields = append(c.fields, rec[sp.s:sp.e])
				}
			}
			c.start += n
			c.consumed += int64(n)
			c.lastByte = rec[n-1]
			return c.fields, line, nil
		}
		if c.eof {
			if c.start == c.end {
				return nil, 0, io.EOF
			}
			return nil, 0, &errUnterminated{line: c.line + 1}
		}
		if err := c.fill(); err != nil {
			return nil, 0, err
		}
	}
}

func (c *csvReader) parseRef(data []byte, atEOF bool) (int, bool, error) {
	c.spans = c.spans[:0]
	c.scratch = c.scratch[:0]
	c.malformed = ""
	if len(data) == 0 {
		return 0, false, nil
	}
	i := 0
	for {
		if i < len(data) && data[i] == '"' {
			// Quoted field.
			j := i + 1
			seg := j
			escaped := false
			sstart := len(c.scratch)
			for {
				k := bytes.IndexByte(data[j:], '"')
				if k < 0 {
					if atEOF {
						return 0, false, &errUnterminated{line: c.line + 1}
					}
					return 0, false, nil
				}
				q := j + k
				if q+1 == len(data) && !atEOF {
					return 0, false, nil // cannot tell "" from a closing quote yet
				}
				if q+1 < len(data) && data[q+1] == '"' {
					c.scratch = append(c.scratch, data[seg:q+1]...)
					escaped = true
					j = q + 2
					seg = j
					continue
				}
				// Closing quote.
				if escaped {
					c.scratch = append(c.scratch, data[seg:q]...)
				}
				i = q + 1
				break
			}
			// After the closing quote: separator, record end, or junk.
			crEnd := data[i:] // CR LF, or a final CR at the end of the input
			isCREnd := len(crEnd) > 0 && crEnd[0] == '\r' && ((len(crEnd) > 1 && crEnd[1] == '\n') || (len(crEnd) == 1 && atEOF))
			if i < len(data) && data[i] != ',' && data[i] != '\n' && !isCREnd {
				if data[i] == '\r' && i+1 == len(data) && !atEOF {
					return 0, false, nil
				}
				// Junk after the closing quote: keep it in the field, flag the record.
				if c.malformed == "" {
					c.malformed = fmt.Sprintf("field %d: unexpected %q after the closing quote", len(c.spans)+1, data[i])
				}
				if !escaped {
					c.scratch = append(c.scratch, data[seg:i-1]...)
					escaped = true
				}
				k := i
				for k < len(data) && data[k] != ',' && data[k] != '\n' {
					k++
				}
				if k == len(data) && !atEOF {
					return 0, false, nil
				}
				c.scratch = append(c.scratch, bytes.TrimSuffix(data[i:k], []byte{'\r'})...)
				i = k
			}
			if escaped {
				c.spans = append(c.spans, span{sstart, len(c.scratch), true})
			} else {
				c.spans = append(c.spans, span{seg, i - 1, false})
			}
			if i == len(data) {
				if !atEOF {
					return 0, false, nil
				}
				return i, true, nil
			}
			switch data[i] {
			case ',':
				i++
				continue
			case '\n':
				return i + 1, true, nil
			default: // CR LF, or CR at the end of the input
				return min(i+2, len(data)), true, nil
			}
		}
		// Unquoted field.
		k := i
		for k < len(data) && data[k] != ',' && data[k] != '\n' {
			k++
		}
		if k == len(data) {
			if !atEOF {
				return 0, false, nil
			}
			c.spans = append(c.spans, span{i, trimCR(data, i, k), false})
			return k, true, nil
		}
		if data[k] == ',' {
			c.spans = append(c.spans, span{i, k, false})
			i = k + 1
			continue
		}
		c.spans = append(c.spans, span{i, trimCR(data, i, k), false})
		return k + 1, true, nil
	}
}

func referenceConvert(ctx context.Context, src io.Reader, size int64, dst io.Writer, opts ConvertOptions) (*LoadReport, error) {
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	bufSize := readChunk
	if size > 0 && size < readChunk {
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
	report := &LoadReport{FormatVersion: FormatVersion}

	m, ncols, err := refReadHeader(rd, report)
	if err != nil {
		return nil, err
	}
	builders := make([]colBuilder, len(m.fields))
	for i, f := range m.fields {
		kind := kindText
		if i < len(canonical) {
			kind = canonical[i].kind
		}
		builders[i] = newColBuilder(f.Name, kind, report, nil)
	}
	lastShort, err := refScan(rd, m, ncols, builders, size, report)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	report.Bytes = rd.consumed
	if lastShort > 0 && rd.lastByte != '\n' && rd.lastByte != '\r' {
		report.TruncatedLine = lastShort
	}
	report.Lines = rd.line
	if rd.consumed > 0 && rd.lastByte != '\n' {
		report.Lines++ // last line without a terminator
	}
	if opts.Progress != nil {
		opts.Progress(rd.consumed, size)
	}
	rd.buf = nil // the input buffer is no longer needed while writing

	if err := refWrite(dst, m, builders, report, opts); err != nil {
		return nil, err
	}
	logger.Debug("converted awards CSV", "rows", report.Rows, "skipped", report.Skipped, "bytes", report.Bytes)
	return report, nil
}

// refReadHeader is referenceConvert's reading of the header line.
func refReadHeader(rd *csvReader, report *LoadReport) (*headerMap, int, error) {
	header, _, err := rd.refNext()
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

// refScan is referenceConvert's loop over the records: each field to its
// column's builder, one record after another. It returns the line of the
// last record if it had too few fields.
func refScan(rd *csvReader, m *headerMap, ncols int, builders []colBuilder, size int64, report *LoadReport) (lastShort int64, err error) {
	// Column of each CSV field, and the canonical columns the CSV lacks.
	target := make([]colBuilder, ncols)
	for i, ci := range m.fieldCol {
		target[i] = builders[ci]
	}
	var absent []colBuilder
	for _, ci := range m.missing {
		absent = append(absent, builders[ci])
	}

	reserved := size <= 0
	const sampleRecords = 2000
	for {
		fields, line, err := rd.refNext()
		if err == io.EOF {
			return lastShort, nil
		}
		if err != nil {
			return 0, err
		}
		if isBlank(fields) {
			report.BlankLines++
			continue
		}
		report.Records++
		lastShort = 0
		if len(fields) < ncols {
			lastShort = line
		}
		switch {
		case len(fields) != ncols:
			report.skip(line, fmt.Sprintf("%d fields, want %d", len(fields), ncols))
			continue
		case rd.malformed != "":
			report.skip(line, rd.malformed)
			continue
		}
		for i, f := range fields {
			if len(f) == 0 {
				target[i].addNull()
			} else {
				target[i].add(f, line)
			}
		}
		for _, b := range absent {
			b.addNull()
		}
		report.Rows++
		if !reserved && report.Rows == sampleRecords {
			reserved = true
			referenceReserve(builders, rd.consumed, size, report.Rows)
		}
	}
}

// refWrite is referenceConvert's writing of the Arrow file: the columns
// finished, the metadata, the indexes, one record batch.
func refWrite(dst io.Writer, m *headerMap, builders []colBuilder, report *LoadReport, opts ConvertOptions) error {
	var err error
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
			return err
		}
	}
	reportJSON, err := json.Marshal(report)
	if err != nil {
		return fmt.Errorf("encoding load report: %w", err)
	}
	keys := []string{MetaFormatVersion, MetaLoadReport}
	vals := []string{strconv.Itoa(FormatVersion), string(reportJSON)}
	for k, v := range opts.Metadata {
		if strings.HasPrefix(k, "sbir-kernel.") && k != MetaSource {
			return fmt.Errorf("ConvertOptions.Metadata: key %q is reserved", k)
		}
		keys = append(keys, k)
		vals = append(vals, v)
	}
	// The reference for the data columns; the index columns come from
	// the same code as Convert's.
	ixFields, ixCols, err := buildIndexes(m.fields, cols)
	if err != nil {
		return err
	}
	cols = append(cols, ixCols...)
	md := arrow.NewMetadata(keys, vals)
	schema := arrow.NewSchema(append(m.fields[:len(m.fields):len(m.fields)], ixFields...), &md)
	rec := array.NewRecordBatch(schema, cols, report.Rows)
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

func referenceReserve(builders []colBuilder, consumed, size, rows int64) {
	if consumed <= 0 || size <= consumed {
		return
	}
	scale := float64(size-consumed) / float64(consumed) * 1.05
	moreRows := int(float64(rows)*scale) + 1024
	for _, b := range builders {
		b.reserve(moreRows, int(float64(b.textBytes())*scale)+64<<10)
	}
}
