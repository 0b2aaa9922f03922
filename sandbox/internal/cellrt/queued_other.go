//go:build !linux

package cellrt

import "errors"

// queued cannot tell here (compiled cells run on Linux only).
func queued(int) (int, error) { return 0, errors.ErrUnsupported }
