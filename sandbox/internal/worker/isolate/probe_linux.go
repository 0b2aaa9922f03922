//go:build linux

package isolate

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// Probe attempts, from inside an isolated worker, each escape a cell
// would try (files, network, processes, signals, the supervisor's
// environment) and reports whether it was stopped.
func Probe(t wire.ProbeTarget) []wire.ProbeResult {
	var out []wire.ProbeResult
	add := func(name string, err error, leak string) {
		r := wire.ProbeResult{Name: name, Blocked: err != nil}
		if err != nil {
			r.Detail = err.Error()
		} else {
			r.Detail = "succeeded"
			if leak != "" {
				r.Detail += ": " + leak
			}
		}
		out = append(out, r)
	}
	readFile := func(path string) error {
		b, err := os.ReadFile(path)
		if err == nil && len(b) == 0 {
			return nil
		}
		return err
	}
	add("read /etc/passwd", readFile("/etc/passwd"), "")
	add("read /proc/self/environ", readFile("/proc/self/environ"), "")
	if t.File != "" {
		add("read a file next to the kernel", readFile(t.File), "")
	}
	_, err := os.ReadDir("/proc")
	add("list /proc", err, "")
	err = os.WriteFile("/tmp/sbir-probe-write", []byte("x"), 0o644)
	if err == nil {
		os.Remove("/tmp/sbir-probe-write")
	}
	add("write /tmp", err, "")
	var envErr error = errors.New("not present")
	if t.Secret != "" && os.Getenv(t.Secret) != "" {
		envErr = nil
	}
	add("environment secret", envErr, "")
	if t.TCP != "" {
		c, err := net.DialTimeout("tcp", t.TCP, time.Second)
		if err == nil {
			c.Close()
		}
		add("tcp connect", err, "")
	}
	if t.UDP != "" {
		c, err := net.Dial("udp", t.UDP)
		if err == nil {
			_, err = c.Write([]byte("leak"))
			c.Close()
		}
		add("udp send", err, "")
	}
	add("exec /bin/true", exec.Command("/bin/true").Run(), "")
	// A raw fork (clone without CLONE_THREAD), as an escaped cell would
	// try; the child, if any, exits at once.
	r1, _, errno := syscall.RawSyscall6(syscall.SYS_CLONE, uintptr(syscall.SIGCHLD), 0, 0, 0, 0, 0)
	var forkErr error
	if errno != 0 {
		forkErr = errno
	} else if r1 == 0 {
		syscall.RawSyscall(syscall.SYS_EXIT_GROUP, 0, 0, 0)
	} else {
		_, _ = syscall.Wait4(int(r1), nil, 0, nil)
	}
	add("fork", forkErr, "")
	if t.PID > 0 {
		add(fmt.Sprintf("signal the supervisor (pid %d)", t.PID), syscall.Kill(t.PID, 0), "")
	}
	return out
}
