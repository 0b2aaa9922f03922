package worker

import (
	"fmt"
	"os"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/worker/isolate"
)

// launch is the process a compiled cell's program replaces (argv[1] is
// wire.LaunchArg): it reads its configuration, applies the worker's
// in-process isolation layers, reports them, waits for the supervisor's
// wire.OpExec, and executes the program the supervisor put in
// wire.ExecFD, which keeps every layer. It returns only
// when it could not.
func launch() int {
	in := os.NewFile(wire.RequestFD, "sbir-requests")
	out := os.NewFile(wire.ReplyFD, "sbir-replies")
	if in == nil || out == nil {
		fmt.Fprintln(os.Stderr, "sbir-kernel launcher: started without the supervisor's pipes; compiled cells are started by the kernel, not by hand")
		return wire.ExitSetup
	}
	// Unbuffered: the program reads the next frame from the same pipe.
	m, err := wire.ReadFrame(in)
	if err != nil || m.Op != wire.OpConfig || m.Config == nil {
		fmt.Fprintf(os.Stderr, "sbir-kernel launcher: expected a configuration (%v)\n", err)
		return wire.ExitSetup
	}
	c := wire.NewConn(strings.NewReader(""), out)
	var layers []wire.Layer
	if m.Config.Isolate {
		if err := isolate.OpenStatus(); err != nil {
			fmt.Fprintln(os.Stderr, "sbir-kernel launcher: opening /proc/self/status:", err)
			return wire.ExitSetup
		}
		layers = isolate.ApplyForExec(*m.Config, wire.ExecFD)
	}
	if err := c.Send(&wire.Message{Op: wire.OpReady, Ready: &wire.Ready{Layers: layers}}); err != nil {
		return wire.ExitSetup
	}
	// The supervisor started this process while it built the program; it
	// says when the program is in ExecFD, sealed (a supervisor that
	// refuses the layers, or whose build failed, ends it instead).
	if m, err := wire.ReadFrame(in); err != nil || m.Op != wire.OpExec {
		if err == nil {
			err = fmt.Errorf("got %q", m.Op)
		}
		fmt.Fprintf(os.Stderr, "sbir-kernel launcher: expected the word to execute the program (%v)\n", err)
		return wire.ExitSetup
	}
	unix.CloseOnExec(wire.ExecFD)
	err = isolate.Exec(wire.ExecFD, []string{wire.ProgramArg0}, os.Environ())
	fmt.Fprintln(os.Stderr, "sbir-kernel launcher:", err)
	return wire.ExitSetup
}
