//go:build linux

package cellrt

import (
	"syscall"
	"unsafe"
)

// queued returns how many bytes the pipe on fd holds (TIOCINQ; package
// syscall rather than x/sys/unix, which every cell's program would link
// for it).
func queued(fd int) (int, error) {
	var n int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.TIOCINQ, uintptr(unsafe.Pointer(&n))); e != 0 {
		return 0, e
	}
	return int(n), nil
}
