//go:build !cgo

package isolate

// builtWithCgo is false in the static (CGO_ENABLED=0) build, where
// Landlock restricts every thread through the Go runtime.
const builtWithCgo = false

// cgoThreadSlack is 0: the Go runtime allocates its threads' stacks from
// the heap it accounts.
const cgoThreadSlack = 0
