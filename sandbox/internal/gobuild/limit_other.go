//go:build !linux

package gobuild

import (
	"syscall"
	"time"
)

// procAttr puts the build in its own process group.
func procAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// limit does nothing: only the build's time limit holds here (compiled
// cells run on Linux only).
func limit(int, Limits, time.Duration) {}
