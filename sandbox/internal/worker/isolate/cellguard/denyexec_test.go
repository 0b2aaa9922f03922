//go:build linux && (amd64 || arm64)

package cellguard

import (
	"runtime"
	"syscall"
	"testing"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// TestDenyExecFilterIsTheLibrarys: the filter DenyExec loads is,
// instruction for instruction, the one go-seccomp-bpf (which the
// worker's and the launcher's layers use) assembles for the same policy,
// and its numbers are x/sys/unix's.
func TestDenyExecFilterIsTheLibrarys(t *testing.T) {
	p := seccomp.Policy{DefaultAction: seccomp.ActionAllow, Syscalls: []seccomp.SyscallGroup{{Action: seccomp.ActionErrno, Names: []string{"execve", "execveat"}}}}
	insts, err := p.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := bpf.Assemble(insts)
	if err != nil {
		t.Fatal(err)
	}
	got := execFilter()
	if len(got) != len(raw) {
		t.Fatalf("the filter has %d instructions, the library's %d:\n%v\n%v", len(got), len(raw), got, insts)
	}
	for i, r := range raw {
		want := syscall.SockFilter{Code: r.Op, Jt: r.Jt, Jf: r.Jf, K: r.K}
		if got[i] != want {
			t.Errorf("instruction %d is %+v, the library's %+v (%v)", i, got[i], want, insts[i])
		}
	}
	wantArch := map[string]uint32{"amd64": unix.AUDIT_ARCH_X86_64, "arm64": unix.AUDIT_ARCH_AARCH64}[runtime.GOARCH]
	if auditArch != wantArch || sysSeccomp != unix.SYS_SECCOMP || sysExecve != unix.SYS_EXECVE || sysExecveat != unix.SYS_EXECVEAT {
		t.Errorf("arch %#x, seccomp %d, execve %d, execveat %d: x/sys/unix says %#x, %d, %d, %d",
			auditArch, sysSeccomp, sysExecve, sysExecveat, wantArch, unix.SYS_SECCOMP, unix.SYS_EXECVE, unix.SYS_EXECVEAT)
	}
	if prSetNoNewPrivs != unix.PR_SET_NO_NEW_PRIVS || procSuperMagic != unix.PROC_SUPER_MAGIC || rlimInfinity != unix.RLIM_INFINITY {
		t.Error("a constant differs from x/sys/unix's")
	}
}
