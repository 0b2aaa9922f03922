//go:build linux

package isolate

import (
	"fmt"
	"os"
	"slices"
	"strings"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"github.com/elastic/go-seccomp-bpf/arch"
	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"github.com/sbirtools/sbir-kernel/internal/bytesize"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/worker/isolate/cellguard"
	"golang.org/x/sys/unix"
)

// seccompDenied are the system calls the worker never needs once it runs
// cells. The Go runtime keeps working without them.
var seccompDenied = []string{
	"execve", "execveat", "fork", "vfork",
	"ptrace", "process_vm_readv", "process_vm_writev", "pidfd_open", "pidfd_getfd",
	"socket", "socketpair", "connect", "bind", "listen", "accept", "accept4",
	"mount", "umount2", "pivot_root", "chroot", "unshare", "setns",
	"bpf", "perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
	"keyctl", "add_key", "request_key", "kexec_load", "kexec_file_load",
	"init_module", "finit_module", "delete_module", "swapon", "swapoff", "reboot",
	"open_by_handle_at", "name_to_handle_at", "mknod", "mknodat", "personality",
	"setuid", "setgid", "setreuid", "setregid", "setresuid", "setresgid", "setgroups",
	"memfd_create",
}

// fileOpens are the system calls that open a file by name. A worker
// without a package environment opens no file once cells run (the data is
// mapped, the time zone loaded), so seccomp refuses them too: compiled
// code that reads a file on a cell's behalf (the methods
// (*template.Template).ParseFiles and ParseGlob, which the symbol table
// cannot remove) is stopped on hosts without Landlock as well. A worker
// with a package environment reads its sources by name, which Landlock
// confines to the environment.
var fileOpens = []string{"open", "openat", "openat2", "creat"}

// Apply applies the in-process layers to the worker (rlimits, Landlock,
// seccomp with no_new_privs) and reports each. reexecErr is what
// ReexecLandlocked returned: why a cgo build runs without Landlock.
func Apply(cfg wire.Config, reexecErr error) []wire.Layer {
	var layers []wire.Layer
	layers = append(layers, applyRlimits(cfg, false))
	layers = append(layers, applyLandlock(cfg.PackagesDir, reexecErr))
	layers = append(layers, applySeccomp(cfg.PackagesDir == "", -1)...)
	return layers
}

// AddressSpaceSlack is the address space RLIMIT_AS allows the worker
// beyond 1.25 times its heap budget (cellguard.AddressSpace).
const AddressSpaceSlack = cellguard.AddressSpaceSlack

// vmSize returns the worker's current address-space size.
func vmSize() (int64, error) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return cellguard.VMSizeIn(f)
}

// applyRlimits sets the worker's rlimits. With forExec the process is a
// launcher about to execute a compiled cell's program, which starts with
// a heap of its own and maps the data itself: its address space is the
// launcher's (a Go runtime's reservations, for a larger binary) plus the
// data and room for the whole heap budget.
func applyRlimits(cfg wire.Config, forExec bool) wire.Layer {
	l := wire.Layer{Name: "rlimits"}
	vm, err := vmSize()
	if err != nil {
		// Under Landlock already (cgo re-exec): assume the runtime's
		// usual reservation.
		vm = 2 << 30
	}
	var as uint64
	if forExec {
		as = cellguard.AddressSpace(vm+cfg.DataSize, 0, cfg.HeapBytes)
	} else {
		as = cellguard.AddressSpace(vm, cellguard.HeapInUse(), cfg.HeapBytes)
	}
	type rlimit struct {
		name     string
		resource int
		value    uint64
	}
	limits := []rlimit{
		{"AS", unix.RLIMIT_AS, as},
		{"CPU", unix.RLIMIT_CPU, uint64(cpuSeconds(cfg))},
		{"NOFILE", unix.RLIMIT_NOFILE, 64},
		{"FSIZE", unix.RLIMIT_FSIZE, 0},
		{"CORE", unix.RLIMIT_CORE, 0},
	}
	// RLIMIT_NPROC counts every process and thread of the uid on the
	// host: it only makes sense when the worker has a uid of its own.
	if cfg.Nproc > 0 {
		limits = append(limits, rlimit{"NPROC", unix.RLIMIT_NPROC, uint64(cfg.Nproc)})
	}
	var failed []string
	for _, r := range limits {
		if err := unix.Setrlimit(r.resource, &unix.Rlimit{Cur: r.value, Max: r.value}); err != nil {
			failed = append(failed, r.name+": "+err.Error())
		}
	}
	if len(failed) > 0 {
		l.Detail = "could not set " + strings.Join(failed, "; ")
		return l
	}
	l.Active = true
	l.Detail = fmt.Sprintf("address space %s, CPU %ds per worker, 64 open files, no file writes, no core dumps", bytesize.Exact(int64(as)), cpuSeconds(cfg))
	if cfg.Nproc > 0 {
		l.Detail += fmt.Sprintf(", %d processes and threads for the worker's uid", cfg.Nproc)
	} else {
		l.Detail += " (no process limit: the worker shares its uid with other processes of the user)"
	}
	return l
}

// landlockABI returns the Landlock ABI version of the kernel, or 0.
func landlockABI() int {
	const createRulesetVersion = 1
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, createRulesetVersion)
	if errno != 0 {
		return 0
	}
	return int(v)
}

// applyLandlock denies the worker every file and TCP port: the data is
// already mapped, and nothing else is needed once cells run, except the
// package environment pkgDir (if any), which stays readable. reexecErr
// says why a cgo build could not re-execute under Landlock.
func applyLandlock(pkgDir string, reexecErr error) wire.Layer {
	l := wire.Layer{Name: "landlock"}
	abi := landlockABI()
	if abi == 0 {
		l.Detail = "not supported by this kernel (needs Linux 5.13+ with Landlock enabled in the LSM list)"
		return l
	}
	packages := ""
	if pkgDir != "" {
		packages = "; the one exception is the session's package environment, readable (read-only)"
	}
	if reexecLandlocked() {
		l.Active = true
		l.Detail = fmt.Sprintf("ABI %d, applied before the worker re-executed itself (cgo build): only the data file (read), the kernel binary and the system libraries (read, execute) are reachable", abi) + packages
		if abi >= 4 {
			l.Detail += "; TCP bind and connect denied"
		}
		if abi >= 6 {
			l.Detail += "; signals and abstract sockets limited to the worker"
		}
		return l
	}
	if builtWithCgo {
		l.Detail = "not applied: this cgo build cannot restrict every thread in place, and re-executing the worker under Landlock failed"
		if reexecErr != nil {
			l.Detail += " (" + reexecErr.Error() + ")"
		}
		l.Detail += "; build with CGO_ENABLED=0"
		return l
	}
	var rules []landlock.Rule
	if pkgDir != "" {
		// The supervisor's descriptor of the environment: the magic
		// link needs no permission on the directories above it.
		rules = append(rules, landlock.PathAccess(llsys.AccessFSReadFile|llsys.AccessFSReadDir, pkgDir))
	}
	if err := landlock.V7.BestEffort().Restrict(rules...); err != nil {
		l.Detail = "failed: " + err.Error()
		return l
	}
	l.Active = true
	l.Detail = fmt.Sprintf("ABI %d: no file can be opened, read, written or executed (the data file was mapped read-only before)", abi) + packages
	if abi >= 4 {
		l.Detail += "; TCP bind and connect denied"
	}
	if abi >= 6 {
		l.Detail += "; signals and abstract sockets limited to the worker"
	}
	return l
}

// applySeccomp loads the deny-list; with noFiles, fileOpens are denied
// too. With execFD >= 0, execveat stays allowed for that descriptor and
// an empty path (a launcher's one exec of its compiled cell; see
// ApplyForExec).
func applySeccomp(noFiles bool, execFD int) []wire.Layer {
	sc := wire.Layer{Name: "seccomp"}
	nnp := wire.Layer{Name: "no_new_privs"}
	if !seccomp.Supported() {
		sc.Detail = "not supported by this kernel"
		if err := seccomp.SetNoNewPrivs(); err != nil {
			nnp.Detail = "failed: " + err.Error()
		} else {
			nnp.Active, nnp.Detail = true, "set-uid binaries and file capabilities cannot raise privileges"
		}
		return []wire.Layer{sc, nnp}
	}
	denied := seccompDenied
	if noFiles {
		denied = append(slices.Clip(denied), fileOpens...)
	}
	conditional := []seccomp.NameWithConditions{{
		// clone without CLONE_THREAD is a fork.
		Name: "clone",
		Conditions: []seccomp.Condition{{
			Argument: 0, Operation: seccomp.BitsNotSet, Value: unix.CLONE_THREAD,
		}},
	}}
	if execFD >= 0 {
		denied = slices.DeleteFunc(slices.Clone(denied), func(n string) bool { return n == "execveat" })
		conditional = append(conditional,
			seccomp.NameWithConditions{Name: "execveat", Conditions: []seccomp.Condition{{Argument: 0, Operation: seccomp.NotEqual, Value: uint64(execFD)}}},
			seccomp.NameWithConditions{Name: "execveat", Conditions: []seccomp.Condition{{Argument: 4, Operation: seccomp.BitsNotSet, Value: unix.AT_EMPTY_PATH}}})
	}
	// The library ends each syscall group with the default action, so
	// only a filter's first group takes effect: one filter per action.
	// The kernel applies the most restrictive verdict of all filters.
	deny := seccomp.Filter{
		NoNewPrivs: true,
		Flag:       seccomp.FilterFlagTSync,
		Policy: seccomp.Policy{
			DefaultAction: seccomp.ActionAllow,
			Syscalls: []seccomp.SyscallGroup{{
				Action:             seccomp.ActionErrno,
				Names:              supportedSyscalls(denied),
				NamesWithCondtions: conditional,
			}},
		},
	}
	// clone3 cannot be filtered by its flags (they live in a struct);
	// ENOSYS makes libc fall back to clone, whose flags are checked.
	clone3 := seccomp.Filter{
		NoNewPrivs: true,
		Flag:       seccomp.FilterFlagTSync,
		Policy: seccomp.Policy{
			DefaultAction: seccomp.ActionAllow,
			Syscalls: []seccomp.SyscallGroup{{
				Action: seccomp.ActionErrno | seccomp.Action(unix.ENOSYS),
				Names:  supportedSyscalls([]string{"clone3"}),
			}},
		},
	}
	for _, f := range []seccomp.Filter{deny, clone3} {
		if len(f.Policy.Syscalls[0].Names) == 0 {
			continue
		}
		if err := seccomp.LoadFilter(f); err != nil {
			sc.Detail = "failed: " + err.Error()
			return []wire.Layer{sc, nnp}
		}
	}
	if err := loadNativeOnly(); err != nil {
		sc.Detail = "failed: " + err.Error()
		return []wire.Layer{sc, nnp}
	}
	sc.Active = true
	opens := ""
	if noFiles {
		opens = "opening files, "
	}
	sc.Detail = fmt.Sprintf("deny-list of %d system calls (%sexec, fork, sockets, ptrace, mount, namespaces, bpf, io_uring, keys, ...) fails with EPERM; a call through another architecture's entry point (int 0x80) kills the process", len(denied)+1, opens)
	if execFD >= 0 {
		sc.Detail += "; the one exec allowed is of the compiled cell's program, which forbids it to itself before the cell's code runs"
	}
	nnp.Active, nnp.Detail = true, "set-uid binaries and file capabilities cannot raise privileges"
	return []wire.Layer{sc, nnp}
}

// supportedSyscalls drops names the architecture does not have (fork and
// vfork are absent on arm64), which LoadFilter would reject.
func supportedSyscalls(names []string) []string {
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

// cpuSeconds is the worker's RLIMIT_CPU.
func cpuSeconds(cfg wire.Config) int {
	if cfg.CPUSeconds > 0 {
		return cfg.CPUSeconds
	}
	return wire.CPUSeconds
}
