//go:build !linux

package dataset

// mapColumn reports false: other systems take column buffers from the heap.
func mapColumn(size int) ([]byte, bool) { return nil, false }

func unmapColumn(b []byte) {}

func dropPages(b []byte) {}
