//go:build linux

package isolate

import (
	"encoding/binary"
	"testing"

	"golang.org/x/net/bpf"
)

// TestNativeOnlyFilter runs the filter in a BPF virtual machine on the
// seccomp_data of calls through each entry point: only the native one is
// allowed; the 32-bit ABI's execve, which a deny-list of the native
// numbers lets through, kills the process.
func TestNativeOnlyFilter(t *testing.T) {
	const (
		auditArchX8664   = 0xc000003e
		auditArchI386    = 0x40000003
		auditArchAArch64 = 0xc00000b7
	)
	raw := nativeOnlyFilter(auditArchX8664)
	ins := make([]bpf.RawInstruction, len(raw))
	for i, r := range raw {
		ins[i] = bpf.RawInstruction{Op: r.Code, Jt: r.Jt, Jf: r.Jf, K: r.K}
	}
	prog, ok := bpf.Disassemble(ins)
	if !ok {
		t.Fatalf("the filter does not disassemble: %v", prog)
	}
	vm, err := bpf.NewVM(prog)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		arch, nr uint32
		want     uint32
	}{
		{"x86-64 write", auditArchX8664, 1, 0x7fff0000},
		{"x86-64 execve (the deny-list's to refuse)", auditArchX8664, 59, 0x7fff0000},
		{"i386 execve through int 0x80", auditArchI386, 11, retKillProcess},
		{"i386 write", auditArchI386, 4, retKillProcess},
		{"another architecture", auditArchAArch64, 221, retKillProcess},
	} {
		// struct seccomp_data: nr, arch, instruction_pointer, args[6].
		// The VM loads words in network byte order, the kernel in the
		// host's: the packet is written for the VM.
		data := make([]byte, 64)
		binary.BigEndian.PutUint32(data[0:], tc.nr)
		binary.BigEndian.PutUint32(data[4:], tc.arch)
		got, err := vm.Run(data)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if uint32(got) != tc.want {
			t.Errorf("%s: verdict %#x, want %#x", tc.name, uint32(got), tc.want)
		}
	}
}
