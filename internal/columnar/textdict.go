package columnar

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// TextDict dictionary-encodes a text column: each row's code is the
// alphabetical rank of its value among the column's distinct values, so
// that groupings index arrays instead of hashing strings and sorts
// compare integers. The award data's dictionaries for the usual group
// keys are built when the CSV is converted and stored in the Arrow file
// (dataset), mapped like the data; for other columns one is built the
// first time a large part of the column is grouped or sorted on, and then
// kept (the award data never changes under a session). For Company,
// building costs ~20 ms.
type TextDict struct {
	codes    []int32 // per table row: the value's alphabetical rank; -1 for null
	distinct int     // distinct non-null values

	// The distinct values in code order, packed (value k is
	// data[offs[k]:offs[k+1]]), built by PackTextValues or the first
	// large Gather (values.go).
	valuesOnce sync.Once
	offs       []int32
	data       []byte
}

// Codes returns the code of every row: the alphabetical rank of its
// value among the distinct values, -1 for null. The slice must not be
// modified.
func (d *TextDict) Codes() []int32 { return d.codes }

// Distinct returns the number of distinct non-null values.
func (d *TextDict) Distinct() int { return d.distinct }

// NewTextDict wraps codes as stored by BuildTextDict (for example mapped
// from a file), checking that every code is -1 or below distinct.
func NewTextDict(codes []int32, distinct int) (*TextDict, error) {
	if distinct < 0 || int64(distinct) > math.MaxInt32 {
		return nil, fmt.Errorf("text dictionary: %d distinct values", distinct)
	}
	// The row-by-row search only to name the row of a bad code: the
	// largest code+1 (read as unsigned, so -2 and below count as huge)
	// decides, in a fraction of the time, at every worker start.
	if maxUnsigned(codes, 1) > uint64(distinct) {
		for i, k := range codes {
			if k < -1 || int(k) >= distinct {
				return nil, fmt.Errorf("text dictionary: row %d has code %d outside -1..%d", i, k, distinct-1)
			}
		}
	}
	return &TextDict{codes: codes, distinct: distinct}, nil
}

// NewTextDictPacked is NewTextDict with the packed copy of the distinct
// values given too (value k is data[offs[k]:offs[k+1]], in code order, as
// PackedValues returns them), for example mapped from a file: the
// dictionary then never builds its own. offs must hold distinct+1
// nondecreasing offsets from 0 to len(data).
func NewTextDictPacked(codes []int32, distinct int, offs []int32, data []byte) (*TextDict, error) {
	d, err := NewTextDict(codes, distinct)
	if err != nil {
		return nil, err
	}
	if len(offs) != distinct+1 || offs[0] != 0 || int(offs[distinct]) != len(data) {
		return nil, fmt.Errorf("text dictionary: %d packed offsets from %d to %d for %d values in %d bytes, want %d from 0 to %d",
			len(offs), first(offs), last(offs), distinct, len(data), distinct+1, len(data))
	}
	for k := range distinct {
		if offs[k+1] < offs[k] {
			return nil, fmt.Errorf("text dictionary: packed value %d ends at byte %d, before it starts at %d", k, offs[k+1], offs[k])
		}
	}
	d.valuesOnce.Do(func() { d.offs, d.data = offs, data })
	return d, nil
}

func first(s []int32) int32 {
	if len(s) == 0 {
		return 0
	}
	return s[0]
}

func last(s []int32) int32 {
	if len(s) == 0 {
		return 0
	}
	return s[len(s)-1]
}

// PackedValues returns the distinct values of c, the column d encodes,
// packed in code order (value k is data[offs[k]:offs[k+1]]), building the
// copy on first use; nil when they are too many to pack (see packed).
func (d *TextDict) PackedValues(c *Vector) (offs []int32, data []byte) { return d.packed(c) }

// BuildTextDict encodes text column c.
func BuildTextDict(c *Vector) *TextDict {
	codes := make([]int32, c.N)
	// Sized for a column of mostly repeated values (Company: ~1 in 5
	// distinct at full scale), so the map seldom grows.
	m := make(map[string]int32, min(c.N/4, 1<<16)+16)
	var values []string
	for i := 0; i < c.N; i++ {
		if c.IsNull(i) {
			codes[i] = -1
			continue
		}
		s := c.View(i)
		code, ok := m[s]
		if !ok {
			code = int32(len(values))
			m[s] = code
			values = append(values, s)
		}
		codes[i] = code
	}
	// Renumber the codes (first-appearance order) by alphabetical rank.
	order := make([]int32, len(values))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(values[a], values[b]) })
	rank := make([]int32, len(values))
	for r, code := range order {
		rank[code] = int32(r)
	}
	for i, k := range codes {
		if k >= 0 {
			codes[i] = rank[k]
		}
	}
	return &TextDict{codes: codes, distinct: len(values)}
}

// textDictState holds the dictionary of a text vector.
type textDictState struct {
	mu sync.Mutex
	d  atomic.Pointer[TextDict]
}

// TextDictionary returns the column's dictionary, building it if needed.
func (c *Vector) TextDictionary() *TextDict {
	if d := c.tdict.d.Load(); d != nil {
		return d
	}
	c.tdict.mu.Lock()
	defer c.tdict.mu.Unlock()
	if d := c.tdict.d.Load(); d != nil {
		return d
	}
	d := BuildTextDict(c)
	c.tdict.d.Store(d)
	return d
}

// SetTextDictionary gives text column c a dictionary built beforehand
// (by BuildTextDict on the same values), such as one stored in the data
// file. It fails if d does not cover c's rows or c already has one.
func (c *Vector) SetTextDictionary(d *TextDict) error {
	if c.Kind != KindText || len(d.codes) != c.N {
		return fmt.Errorf("column %q: a text dictionary of %d rows does not fit a %s column of %d rows", c.Name, len(d.codes), c.Kind, c.N)
	}
	if !c.tdict.d.CompareAndSwap(nil, d) {
		return fmt.Errorf("column %q already has a text dictionary", c.Name)
	}
	return nil
}

// CachedTextDictionary returns the dictionary if it was built, else nil.
func (c *Vector) CachedTextDictionary() *TextDict {
	if c.Kind != KindText {
		return nil
	}
	return c.tdict.d.Load()
}
