package dataset

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
)

// maxRecordBytes bounds one CSV record. The longest real record is a few
// tens of kilobytes; a record that grows past this is an unbalanced quote
// swallowing the rest of the file, reported instead of buffered.
const maxRecordBytes = 16 << 20

// csvReader is an RFC 4180 record reader tuned for the awards file. Unlike
// encoding/csv it is lossless (a CR LF inside a quoted field stays CR LF),
// returns fields as byte slices into its buffer without allocating, and
// reports where records start in physical lines.
//
// Outside quotes a record ends at LF or CR LF. A quote inside an unquoted
// field is kept literally. A field that starts with a quote runs to the
// matching closing quote; "" inside it is one quote.
type csvReader struct {
	r         io.Reader
	buf       []byte
	start     int   // first unconsumed byte in buf
	end       int   // end of valid data in buf
	eof       bool  // r returned io.EOF
	consumed  int64 // bytes consumed before buf[start]
	line      int64 // physical lines consumed before buf[start]
	spans     []span
	fields    [][]byte
	scratch   []byte // unescaped quoted fields
	malformed string // why the last record is malformed, "" if well formed
	readErr   error
	onRead    func(total int64) // called after each read from r
	readTotal int64
	lastByte  byte // last byte consumed
	// detach, if set, is called before more input is read when records
	// have been consumed from buf: it takes over buf (whose first used
	// bytes hold those records) and returns an empty buffer at least as
	// large to continue in.
	detach func(buf []byte, used int) []byte
}

// span locates one field, in buf (relative to the record start) or in scratch.
type span struct {
	s, e      int
	inScratch bool
}

// errUnterminated reports a quoted field still open at the end of input.
type errUnterminated struct{ line int64 }

func (e *errUnterminated) Error() string {
	return fmt.Sprintf("line %d: quoted field is not closed before the end of the file (the file is probably truncated)", e.line)
}

type errRecordTooLong struct{ line int64 }

func (e *errRecordTooLong) Error() string {
	return fmt.Sprintf("line %d: record is longer than %d MiB (probably an unbalanced quote)", e.line, maxRecordBytes>>20)
}

func newCSVReader(r io.Reader, bufSize int) *csvReader {
	return &csvReader{r: r, buf: make([]byte, bufSize), spans: make([]span, 0, 64), fields: make([][]byte, 0, 64)}
}

// next returns the fields of the next record and the physical line it
// starts on. The slices are valid until the next call. At the end of input
// it returns io.EOF. c.malformed is non-empty if the record broke the
// quoting rules (it is still returned, so that the caller can count it).
func (c *csvReader) next() ([][]byte, int64, error) {
	recStart, line, err := c.nextRecord()
	if err != nil {
		return nil, 0, err
	}
	rec := c.buf[recStart:]
	c.fields = c.fields[:0]
	for _, sp := range c.spans {
		if sp.inScratch {
			c.fields = append(c.fields, c.scratch[sp.s:sp.e])
		} else {
			c.fields = append(c.fields, rec[sp.s:sp.e])
		}
	}
	return c.fields, line, nil
}

// nextRecord reads the next record and returns where it starts in c.buf
// and the physical line it starts on. Its fields are described by c.spans
// (relative to the record start, or in c.scratch) until the next call. At
// the end of input it returns io.EOF.
func (c *csvReader) nextRecord() (int, int64, error) {
	for {
		n, ok, err := c.parse(c.buf[c.start:c.end], c.eof)
		if err != nil {
			return 0, 0, err
		}
		if ok {
			recStart := c.start
			rec := c.buf[recStart : recStart+n]
			line := c.line + 1
			c.line += int64(bytes.Count(rec, []byte{'\n'}))
			c.start += n
			c.consumed += int64(n)
			c.lastByte = rec[n-1]
			return recStart, line, nil
		}
		if c.eof {
			if c.start == c.end {
				return 0, 0, io.EOF
			}
			// parse only fails at EOF for an open quote, handled above.
			return 0, 0, &errUnterminated{line: c.line + 1}
		}
		if err := c.fill(); err != nil {
			return 0, 0, err
		}
	}
}

// fill reads more input, compacting or growing the buffer as needed.
func (c *csvReader) fill() error {
	if c.readErr != nil {
		return c.readErr
	}
	if c.start > 0 {
		if c.detach != nil {
			// The consumed records stay where they are, for their batch:
			// move only the unconsumed rest into a buffer of our own.
			nb := c.detach(c.buf, c.start)
			c.end = copy(nb, c.buf[c.start:c.end])
			c.buf = nb
		} else {
			c.end = copy(c.buf, c.buf[c.start:c.end])
		}
		c.start = 0
	}
	if c.end == len(c.buf) {
		if len(c.buf) >= maxRecordBytes {
			return &errRecordTooLong{line: c.line + 1}
		}
		nb := make([]byte, 2*len(c.buf))
		copy(nb, c.buf[:c.end])
		c.buf = nb
	}
	for {
		n, err := c.r.Read(c.buf[c.end:])
		c.end += n
		c.readTotal += int64(n)
		if c.onRead != nil && n > 0 {
			c.onRead(c.readTotal)
		}
		if err == io.EOF {
			c.eof = true
			return nil
		}
		if err != nil {
			c.readErr = fmt.Errorf("reading CSV: %w", err)
			return c.readErr
		}
		if n > 0 {
			return nil
		}
	}
}

// parse parses one record at the start of data. It returns the record's
// length including its terminator and ok=false if data does not hold a
// complete record (more input is needed, or at EOF an open quote).
func (c *csvReader) parse(data []byte, atEOF bool) (int, bool, error) {
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
		k := indexSep(data, i)
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

// indexSepLong is indexSep for a field that is long: bytes.IndexByte, in
// assembly, finds the next ',' several times faster than eight bytes at a
// time, then the next '\n' is looked for only before it.
func indexSepLong(data []byte, i int) int {
	end := len(data)
	if c := bytes.IndexByte(data[i:], ','); c >= 0 {
		end = i + c
	}
	if n := bytes.IndexByte(data[i:end], '\n'); n >= 0 {
		return i + n
	}
	return end
}

// trimCR returns the end of data[s:e] without a trailing CR.
func trimCR(data []byte, s, e int) int {
	if e > s && data[e-1] == '\r' {
		return e - 1
	}
	return e
}

// isBlank reports whether a record is an empty line.
func isBlank(fields [][]byte) bool {
	return len(fields) == 1 && len(fields[0]) == 0
}

var errEmpty = errors.New("the file is empty: no header line")

// indexSep returns the index of the first ',' or '\n' in data at or after
// i, or len(data). It tests eight bytes at a time (the classic "has a zero
// byte" bit trick on the word XORed with each separator): the byte loop it
// replaced was most of the time spent splitting records.
func indexSep(data []byte, i int) int {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	for n := 0; i+8 <= len(data); i += 8 {
		if n++; n > 4 {
			return indexSepLong(data, i)
		}
		w := binary.LittleEndian.Uint64(data[i:])
		x := w ^ (',' * lo)
		y := w ^ ('\n' * lo)
		// The lowest flagged byte of each mask is exact (later ones may be
		// false positives of the borrow), which is all that is used.
		if t := ((x-lo)&^x | (y-lo)&^y) & hi; t != 0 {
			return i + bits.TrailingZeros64(t)/8
		}
	}
	for ; i < len(data); i++ {
		if data[i] == ',' || data[i] == '\n' {
			return i
		}
	}
	return len(data)
}
