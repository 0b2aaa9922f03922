//go:build cgo

package cellguard

// cgoThreadSlack is the address space of the C library's stacks of the
// threads a cgo build's worker may add once it runs cells (16 of 8 MiB).
const cgoThreadSlack = 16 * 8 << 20
