//go:build linux && !amd64 && !arm64

package cellguard

import (
	seccomp "github.com/elastic/go-seccomp-bpf"
	"github.com/elastic/go-seccomp-bpf/arch"
)

// DenyExec forbids execve and execveat to every thread of the process,
// for good: a compiled cell's runtime calls it first, so that the one
// exec its launcher was allowed cannot be used again. (On amd64 and
// arm64 the same filter is written out, denyexec_linux.go.)
func DenyExec() error {
	if !seccomp.Supported() {
		return nil // the launcher reported seccomp as missing
	}
	return seccomp.LoadFilter(seccomp.Filter{
		NoNewPrivs: true,
		Flag:       seccomp.FilterFlagTSync,
		Policy: seccomp.Policy{
			DefaultAction: seccomp.ActionAllow,
			Syscalls: []seccomp.SyscallGroup{{
				Action: seccomp.ActionErrno,
				Names:  execCalls(),
			}},
		},
	})
}

// execCalls are execve and execveat, less any the architecture does not
// have (LoadFilter would reject it).
func execCalls() []string {
	names := []string{"execve", "execveat"}
	info, err := arch.GetInfo("")
	if err != nil {
		return names
	}
	var out []string
	for _, n := range names {
		if _, ok := info.SyscallNames[n]; ok {
			out = append(out, n)
		}
	}
	return out
}
