//go:build !cgo

package cellguard

// cgoThreadSlack is 0: the Go runtime allocates its threads' stacks from
// the heap it accounts.
const cgoThreadSlack = 0
