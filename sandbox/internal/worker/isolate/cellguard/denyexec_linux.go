//go:build linux && (amd64 || arm64)

package cellguard

import (
	"fmt"
	"syscall"
	"unsafe"
)

// DenyExec forbids execve and execveat to every thread of the process,
// for good: a compiled cell's runtime calls it first, so that the one
// exec its launcher was allowed cannot be used again. The filter is the
// one go-seccomp-bpf assembles for that policy (denied calls fail with
// EPERM, x32 calls with ENOSYS; TestDenyExecFilterIsTheLibrarys compares
// them), written out here so that the programs of compiled cells, which
// all link this package, need neither that library nor x/sys/unix.
func DenyExec() error {
	if !seccompSupported() {
		return nil // the launcher reported seccomp as missing
	}
	prog := execFilter()
	fprog := syscall.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if _, _, e := syscall.RawSyscall6(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0, 0, 0, 0); e != 0 {
		return fmt.Errorf("failed to set no_new_privs with prctl: %w", e)
	}
	tid, _, e := syscall.RawSyscall(sysSeccomp, seccompSetModeFilter, seccompFilterFlagTSync, uintptr(unsafe.Pointer(&fprog)))
	switch {
	case e != 0:
		return fmt.Errorf("failed loading seccomp filter: %w", e)
	case tid != 0:
		// With TSYNC, the thread that could not take the filter (the
		// library does not look).
		return fmt.Errorf("failed loading seccomp filter: thread %d could not be synchronised", tid)
	}
	return nil
}

// seccompSupported reports whether the kernel has seccomp, as
// go-seccomp-bpf's Supported asks: strict mode with flags set fails with
// EINVAL where the call exists.
func seccompSupported() bool {
	_, _, e := syscall.RawSyscall(sysSeccomp, seccompSetModeStrict, 1, 0)
	return e == syscall.EINVAL
}

// The seccomp(2) constants and the classic BPF opcodes the filter uses.
const (
	prSetNoNewPrivs        = 38 // PR_SET_NO_NEW_PRIVS
	seccompSetModeStrict   = 0
	seccompSetModeFilter   = 1
	seccompFilterFlagTSync = 1

	retAllow = 0x7fff0000 // SECCOMP_RET_ALLOW
	retErrno = 0x00050000 // SECCOMP_RET_ERRNO, with the errno in the low bits

	bpfLdAbsW = syscall.BPF_LD | syscall.BPF_W | syscall.BPF_ABS
	bpfJeqK   = syscall.BPF_JMP | syscall.BPF_JEQ | syscall.BPF_K
	bpfJgeK   = syscall.BPF_JMP | syscall.BPF_JGE | syscall.BPF_K
	bpfRetK   = syscall.BPF_RET | syscall.BPF_K

	offNr   = 0 // struct seccomp_data: nr
	offArch = 4 // arch
)

// execFilter is the program: on this architecture (another one's calls
// are allowed, as go-seccomp-bpf does: the launcher's Landlock domain
// executes no file), x32 calls fail with ENOSYS, execve and execveat with
// EPERM; everything else is allowed.
func execFilter() []syscall.SockFilter {
	var prog []syscall.SockFilter
	stmt := func(code uint16, k uint32) { prog = append(prog, syscall.SockFilter{Code: code, K: k}) }
	jump := func(code uint16, k uint32, jt, jf uint8) {
		prog = append(prog, syscall.SockFilter{Code: code, K: k, Jt: jt, Jf: jf})
	}
	x32 := uint8(0)
	if x32Mask != 0 {
		x32 = 2
	}
	stmt(bpfLdAbsW, offArch)
	jump(bpfJeqK, auditArch, 0, 3+x32) // another architecture: to the allow
	stmt(bpfLdAbsW, offNr)
	if x32Mask != 0 {
		jump(bpfJgeK, x32Mask, 0, 1)
		stmt(bpfRetK, retErrno|uint32(syscall.ENOSYS))
	}
	jump(bpfJeqK, sysExecve, 2, 0)
	jump(bpfJeqK, sysExecveat, 1, 0)
	stmt(bpfRetK, retAllow)
	stmt(bpfRetK, retErrno|uint32(syscall.EPERM))
	return prog
}
