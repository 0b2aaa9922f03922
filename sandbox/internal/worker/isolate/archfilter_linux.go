//go:build linux

package isolate

import (
	"fmt"
	"unsafe"

	"github.com/elastic/go-seccomp-bpf/arch"
	"golang.org/x/sys/unix"
)

// retKillProcess is SECCOMP_RET_KILL_PROCESS (Linux 4.14; older kernels
// read it as SECCOMP_RET_KILL, which kills the thread).
const retKillProcess = 0x80000000

// nativeOnlyFilter is a seccomp program that kills the process on a
// system call made through another architecture's entry point. On
// x86-64 a process can enter the kernel through the 32-bit ABI (int
// 0x80), whose calls carry AUDIT_ARCH_I386 and other numbers:
// go-seccomp-bpf's filters, like most deny-lists, allow every call whose
// architecture is not theirs, so the deny-list's execve (59) would pass as
// the 32-bit execve (11). Go code never makes such calls; only code that
// took over the process (through a data race in a compiled cell) could.
func nativeOnlyFilter(native uint32) []unix.SockFilter {
	return []unix.SockFilter{
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 4}, // seccomp_data.arch
		{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, K: native, Jt: 1},
		{Code: unix.BPF_RET | unix.BPF_K, K: retKillProcess},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ALLOW},
	}
}

// loadNativeOnly loads nativeOnlyFilter for this architecture on every
// thread of the process. The kernel applies the most restrictive verdict
// of all filters, so it stands beside the deny-lists.
func loadNativeOnly() error {
	info, err := arch.GetInfo("")
	if err != nil {
		return fmt.Errorf("this architecture's seccomp identifier: %w", err)
	}
	prog := nativeOnlyFilter(uint32(info.ID))
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	tid, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&fprog)))
	switch {
	case e != 0:
		return fmt.Errorf("loading the native-architecture filter: %w", e)
	case tid != 0:
		return fmt.Errorf("loading the native-architecture filter: thread %d could not be synchronised", tid)
	}
	return nil
}
