//go:build !go1.24

package interp

import "reflect"

// Before Go 1.24 (no weak pointers, no cleanups) the interpreter records
// no function values: interpreted code calls them through reflect, as it
// did before sbir patch S3.

type funcRecord struct{}

func (interp *Interpreter) recordFunc(v reflect.Value, def *node, anc *frame) {}

// funcCache is a call site's cache of records: none before Go 1.24.
type funcCache struct{}

func (interp *Interpreter) lookupFunc(v reflect.Value, cache *funcCache) (*node, *frame) {
	return nil, nil
}
