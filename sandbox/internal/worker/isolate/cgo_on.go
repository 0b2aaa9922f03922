//go:build cgo

package isolate

// builtWithCgo is true in cgo builds, where Landlock cannot restrict every
// thread of the worker (the psx library needs every thread to be created
// through its wrapper) and is therefore not applied.
const builtWithCgo = true
