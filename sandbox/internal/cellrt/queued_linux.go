//go:build linux

package cellrt

import "golang.org/x/sys/unix"

// queued returns how many bytes the pipe on fd holds.
func queued(fd int) (int, error) { return unix.IoctlGetInt(fd, unix.TIOCINQ) }
