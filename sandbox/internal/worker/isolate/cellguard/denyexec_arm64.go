//go:build linux

package cellguard

// The arm64 numbers of the filter; arm64 has no x32-like second ABI.
const (
	auditArch   = 0xc00000b7 // AUDIT_ARCH_AARCH64
	x32Mask     = 0
	sysSeccomp  = 277
	sysExecve   = 221
	sysExecveat = 281
)
