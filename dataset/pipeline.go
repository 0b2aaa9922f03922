package dataset

import (
	"cmp"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// The conversion runs as a pipeline so that it uses every core while its
// output stays exactly what a sequential conversion would write:
//
//   - one goroutine (the scanner) reads the CSV and splits it into records
//     with the RFC 4180 reader, deciding which records are kept; it hands
//     the kept records on in batches, each holding the input buffer it
//     points into, so no field is copied;
//   - a few column workers each own a fixed set of columns and append every
//     batch's values to them, in batch order. A column is only ever touched
//     by one goroutine and always in row order, so its values, dictionary
//     order and first reported issue are those of the sequential reader.
//
// Profiling the sequential converter on the full-scale file showed the
// time split about evenly between splitting records (csvReader.parse) and
// appending values (text copies, UTF-8 checks, validity bits, dictionary
// lookups), which is what the two stages divide.

// tuning sizes the pipeline; tests shrink it to force many batches.
type tuning struct {
	batchBytes int // input bytes read per batch (grown for a longer record)
	workers    int // column workers
	buffers    int // input buffers in flight (bounds memory)
}

func defaultTuning() tuning {
	w := min(max(runtime.GOMAXPROCS(0), 1), 4)
	return tuning{batchBytes: 512 << 10, workers: w, buffers: w + 2}
}

// fieldSpan locates a kept record's field in its batch: in buf, or in
// scratch for quoted fields that had to be unescaped.
type fieldSpan struct {
	s, e      int32
	inScratch bool
}

// batch is a run of kept records and the input they point into.
type batch struct {
	buf     []byte
	scratch []byte
	spans   []fieldSpan // ncols per row
	lines   []int64     // line each row starts on
	// reserveRow is the row after which builders are pre-sized for the
	// whole input (see reserve), -1 if not in this batch.
	reserveRow  int
	reserveRows int          // rows to reserve for
	reserveText float64      // factor applied to a column's text so far
	pending     atomic.Int32 // workers still converting the batch
	used        int          // bytes of buf holding the batch's records
	utf8Once    sync.Once
	utf8Valid   bool
}

// isValidUTF8 reports whether the batch's input is valid UTF-8, checked
// once for all columns. Fields are cut at ASCII bytes (separators, quotes,
// line ends), which never occur inside a multi-byte sequence, so every
// field of valid input is valid and needs no per-field check.
func (b *batch) isValidUTF8() bool {
	b.utf8Once.Do(func() { b.utf8Valid = validUTF8(b.buf[:b.used]) })
	return b.utf8Valid
}

// reset empties b for reuse, keeping its allocations.
func (b *batch) reset() {
	b.buf = nil
	b.scratch = b.scratch[:0]
	b.spans = b.spans[:0]
	b.lines = b.lines[:0]
	b.reserveRow = -1
	b.used = 0
	b.utf8Once = sync.Once{}
	b.utf8Valid = false
}

func (b *batch) rows() int { return len(b.lines) }

func (b *batch) field(row, ncols, col int) []byte {
	sp := b.spans[row*ncols+col]
	if sp.inScratch {
		return b.scratch[sp.s:sp.e]
	}
	return b.buf[sp.s:sp.e]
}

// colJob is one output column and the CSV field it is read from (-1 for a
// canonical column the CSV lacks).
type colJob struct {
	b     colBuilder
	field int
}

// run appends the batch's rows to the column.
func (j colJob) run(b *batch, ncols int) {
	va, _ := j.b.(validAdder)
	if va != nil && !b.isValidUTF8() {
		va = nil
	}
	for r := range b.rows() {
		if j.field < 0 {
			j.b.addNull()
		} else if f := b.field(r, ncols, j.field); len(f) == 0 {
			j.b.addNull()
		} else if va != nil {
			va.addValid(f, b.lines[r])
		} else {
			j.b.add(f, b.lines[r])
		}
		if r == b.reserveRow {
			j.b.reserve(b.reserveRows, int(float64(j.b.textBytes())*b.reserveText)+64<<10)
		}
	}
}

// columnWorkers converts batches on a few goroutines, each owning some
// columns. Batches must be sent in input order.
type columnWorkers struct {
	ncols int
	in    []chan *batch
	free  chan *batch
	wg    sync.WaitGroup
}

// startColumnWorkers splits jobs among n workers so that each gets about
// the same amount of work, estimated from the first batch (bytes of text
// plus a fixed cost per value).
func startColumnWorkers(jobs []colJob, first *batch, ncols, n int, free chan *batch) *columnWorkers {
	cost := make([]int64, len(jobs))
	for i, j := range jobs {
		cost[i] = int64(first.rows()) * 16
		if j.field >= 0 {
			for r := range first.rows() {
				cost[i] += int64(len(first.field(r, ncols, j.field)))
			}
		}
	}
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(cost[b], cost[a]) })
	n = max(min(n, len(jobs)), 1)
	shares := make([][]colJob, n)
	load := make([]int64, n)
	for _, i := range order {
		w := slices.Index(load, slices.Min(load))
		shares[w] = append(shares[w], jobs[i])
		load[w] += cost[i]
	}
	cw := &columnWorkers{ncols: ncols, free: free}
	for _, share := range shares {
		ch := make(chan *batch, cap(free))
		cw.in = append(cw.in, ch)
		cw.wg.Add(1)
		go func() {
			defer cw.wg.Done()
			for b := range ch {
				for _, j := range share {
					j.run(b, ncols)
				}
				if b.pending.Add(-1) == 0 {
					cw.free <- b
				}
			}
		}()
	}
	return cw
}

// send hands a batch to every worker; it returns to the free list when
// all are done with it.
func (cw *columnWorkers) send(b *batch) {
	b.pending.Store(int32(len(cw.in)))
	for _, ch := range cw.in {
		ch <- b
	}
}

// wait stops the workers once they have converted every batch sent.
func (cw *columnWorkers) wait() {
	for _, ch := range cw.in {
		close(ch)
	}
	cw.wg.Wait()
}

// sampleRecords is how many rows are read before the builders are
// pre-sized for the whole input from what those rows used.
const sampleRecords = 2000

// scanRecords reads the records after the header, counts them in report,
// and has the column workers convert the kept ones. It returns the line of
// the last record if that record had too few fields (0 otherwise), for
// LoadReport.TruncatedLine.
func scanRecords(rd *csvReader, ncols int, size int64, report *LoadReport, jobs []colJob, tune tuning) (lastShort int64, err error) {
	free := make(chan *batch, max(tune.buffers, 2))
	for range cap(free) - 1 { // the reader holds the other buffer
		free <- &batch{reserveRow: -1}
	}
	cur := &batch{reserveRow: -1}
	var workers *columnWorkers
	dispatch := func(buf []byte, used int) {
		cur.buf, cur.used = buf, used
		if workers == nil {
			workers = startColumnWorkers(jobs, cur, ncols, tune.workers, free)
		}
		workers.send(cur)
	}
	defer func() {
		if workers != nil {
			workers.wait()
		}
	}()
	rd.detach = func(buf []byte, used int) []byte {
		dispatch(buf, used)
		next := <-free
		nb := next.buf
		next.reset()
		cur = next
		if cap(nb) < len(buf) {
			nb = make([]byte, len(buf))
		}
		return nb[:cap(nb)]
	}
	reserved := size <= 0
	for {
		recStart, line, err := rd.nextRecord()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, err
		}
		spans := rd.spans
		if len(spans) == 1 && spans[0].s == spans[0].e {
			report.BlankLines++
			continue
		}
		report.Records++
		lastShort = 0
		if len(spans) < ncols {
			lastShort = line
		}
		switch {
		case len(spans) != ncols:
			report.skip(line, fmt.Sprintf("%d fields, want %d", len(spans), ncols))
			continue
		case rd.malformed != "":
			report.skip(line, rd.malformed)
			continue
		}
		for _, sp := range spans {
			if sp.inScratch {
				off := int32(len(cur.scratch))
				cur.scratch = append(cur.scratch, rd.scratch[sp.s:sp.e]...)
				cur.spans = append(cur.spans, fieldSpan{off, off + int32(sp.e-sp.s), true})
			} else {
				cur.spans = append(cur.spans, fieldSpan{int32(recStart + sp.s), int32(recStart + sp.e), false})
			}
		}
		cur.lines = append(cur.lines, line)
		report.Rows++
		if !reserved && report.Rows == sampleRecords {
			reserved = true
			if consumed := rd.consumed; consumed > 0 && size > consumed {
				scale := float64(size-consumed) / float64(consumed) * 1.05
				cur.reserveRow = cur.rows() - 1
				cur.reserveRows = int(float64(report.Rows)*scale) + 1024
				cur.reserveText = scale
			}
		}
	}
	dispatch(rd.buf, rd.start)
	rd.buf = nil // the input buffer is no longer needed while writing
	return lastShort, nil
}
