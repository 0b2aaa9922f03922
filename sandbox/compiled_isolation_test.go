package sandbox

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// escapeProgram is compiled code that got past the allow-list (a cell
// with a data race can do anything compiled code can): it imports what
// cells may not and attempts every escape of the worker's probe, plus the
// ones particular to a compiled cell's process (exec, once more, of the
// descriptor its launcher executed; a memfd to execute).
const escapeProgram = `package main

import (
	"fmt"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"

	_sbirrt "github.com/sbirtools/sbir-kernel/sandbox/internal/cellrt"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/worker/isolate"
)

func main() {
	defer _sbirrt.Finish()
	for _, p := range isolate.Probe(wire.ProbeTarget{TCP: %q, PID: %d, Secret: %q, File: %q}) {
		fmt.Printf("%%s\t%%v\t%%s\n", p.Name, p.Blocked, p.Detail)
	}
	empty := []byte{0}
	argv := []*byte{&empty[0], nil}
	_, _, errno := syscall.Syscall6(unix.SYS_EXECVEAT, wire.ExecFD, uintptr(unsafe.Pointer(&empty[0])), uintptr(unsafe.Pointer(&argv[0])), uintptr(unsafe.Pointer(&argv[1])), 0x1000, 0)
	fmt.Printf("execveat of the launcher's descriptor\t%%v\t%%v\n", errno != 0, errno)
	err := syscall.Exec("/bin/true", []string{"true"}, nil)
	fmt.Printf("execve /bin/true\t%%v\t%%v\n", err != nil, err)
	name := []byte("x\x00")
	_, _, errno = syscall.Syscall(unix.SYS_MEMFD_CREATE, uintptr(unsafe.Pointer(&name[0])), 0, 0)
	fmt.Printf("memfd_create\t%%v\t%%v\n", errno != 0, errno)
}
`

// TestCompiledCodeIsIsolated runs compiled code that tries to escape,
// built outside cellprep (as if its checks had been bypassed), under the
// layers a compiled cell gets: files, the network, processes, exec, the
// supervisor and its secrets are all out of reach.
func TestCompiledCodeIsIsolated(t *testing.T) {
	s := newCompiledSession(t, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			c.Close()
			accepted <- struct{}{}
		}
	}()
	secret := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(secret, []byte("the kernel's secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SBIR_TEST_SECRET", "s3cret")
	src := fmt.Sprintf(escapeProgram, ln.Addr().String(), os.Getpid(), "SBIR_TEST_SECRET", secret)
	bin, err := s.opts.Compiler.b.Build(t.Context(), src, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := s.runProgram(t.Context(), bin.Path, true, nil) // with the data's descriptor, as a cell using award_data gets it
	if !res.Success {
		t.Fatalf("the probe program failed: %s: %s\n%s", res.ErrorName, res.ErrorMessage, res.Stderr)
	}
	lines := strings.Split(strings.TrimSpace(res.Stdout), "\n")
	if len(lines) < 12 {
		t.Fatalf("the probe reported %d attempts:\n%s", len(lines), res.Stdout)
	}
	for _, l := range lines {
		f := strings.SplitN(l, "\t", 3)
		if len(f) != 3 || f[1] != "true" {
			t.Errorf("compiled code escaped: %q", l)
		}
	}
	select {
	case <-accepted:
		t.Error("compiled code reached the host's loopback")
	case <-time.After(100 * time.Millisecond):
	}
	if strings.Contains(res.Stdout, "the kernel's secret") || strings.Contains(res.Stdout, "s3cret") {
		t.Errorf("a secret leaked:\n%s", res.Stdout)
	}
	t.Logf("probes:\n%s", res.Stdout)
}
