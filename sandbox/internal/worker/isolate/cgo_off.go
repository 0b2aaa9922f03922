//go:build !cgo

package isolate

// builtWithCgo is false in the static (CGO_ENABLED=0) build, where
// Landlock restricts every thread through the Go runtime.
const builtWithCgo = false
