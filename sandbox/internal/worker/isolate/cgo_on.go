//go:build cgo

package isolate

// builtWithCgo is true in cgo builds, where Landlock cannot restrict every
// thread of the worker (the psx library needs every thread to be created
// through its wrapper) and is therefore not applied.
const builtWithCgo = true

// cgoThreadSlack is the address space of the C library's stacks of the
// threads a cgo build's worker may add once it runs cells (16 of 8 MiB).
const cgoThreadSlack = 16 * 8 << 20
