//go:build linux

package cellguard

// The x86-64 numbers of the filter (package syscall has no SYS_EXECVEAT
// here); x32Mask is __X32_SYSCALL_BIT, the x32 ABI's calls, which share
// the architecture's AUDIT_ARCH.
const (
	auditArch   = 0xc000003e // AUDIT_ARCH_X86_64
	x32Mask     = 0x40000000
	sysSeccomp  = 317
	sysExecve   = 59
	sysExecveat = 322
)
