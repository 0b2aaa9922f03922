package columnar

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// TextDict dictionary-encodes a text column. It is built the first time a
// large part of the column is grouped on and then kept (the award data
// never changes under a session), so that later groupings index arrays
// instead of hashing strings. For Company, building costs ~20 ms once;
// grouping then costs what it does for a category column.
type TextDict struct {
	codes  []int32  // per table row; -1 for null
	values []string // distinct values (views of the column's bytes)
	rank   []int32  // alphabetical rank of each code
}

// textDictState holds the lazily built dictionary of a text vector.
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
	d := &TextDict{codes: make([]int32, c.N)}
	m := make(map[string]int32, 1024)
	for i := 0; i < c.N; i++ {
		if c.IsNull(i) {
			d.codes[i] = -1
			continue
		}
		s := c.View(i)
		code, ok := m[s]
		if !ok {
			code = int32(len(d.values))
			m[s] = code
			d.values = append(d.values, s)
		}
		d.codes[i] = code
	}
	order := make([]int32, len(d.values))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(d.values[a], d.values[b]) })
	d.rank = make([]int32, len(d.values))
	for r, code := range order {
		d.rank[code] = int32(r)
	}
	c.tdict.d.Store(d)
	return d
}

// CachedTextDictionary returns the dictionary if it was built, else nil.
func (c *Vector) CachedTextDictionary() *TextDict {
	if c.Kind != KindText {
		return nil
	}
	return c.tdict.d.Load()
}
