package kernel

import "sync"

// minPooledContent is the smallest stream content worth a pooled buffer:
// the 256 KiB batches of a cell printing fast, not its occasional line.
const minPooledContent = 64 << 10

// contentPool recycles the buffers that large stream messages are encoded
// into, once the iopub socket has written them (freeingSender). A cell
// printing 1 MiB otherwise left ~1 MiB of garbage in the kernel process,
// and the collections it caused were ~20% of the process's CPU (perf, 600
// cells printing 1 MiB).
type contentPool struct{ p sync.Pool }

// get returns an empty buffer with room for at least n bytes.
func (c *contentPool) get(n int) []byte {
	if b, _ := c.p.Get().(*[]byte); b != nil && cap(*b) >= n {
		return (*b)[:0]
	}
	// Round up so that the 256 KiB batches, whose escaped size varies a
	// little, share buffers.
	return make([]byte, 0, (n+minPooledContent-1)/minPooledContent*minPooledContent)
}

// put hands a buffer back; nothing may use it afterwards.
func (c *contentPool) put(b []byte) {
	c.p.Put(&b)
}
