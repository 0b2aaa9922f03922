//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// programMemfd creates the memfd a launcher executes its program from,
// empty: the supervisor starts the launcher while the program is still
// being built, and fills and seals it (fillSealed) before it lets the
// launcher execute it. The launcher executes it under a Landlock domain
// that reaches no file (a memfd has no path for Landlock to govern).
func programMemfd() (*os.File, error) {
	flags := unix.MFD_CLOEXEC | unix.MFD_ALLOW_SEALING
	fd, err := unix.MemfdCreate("sbir-cell", flags|unix.MFD_EXEC)
	if errors.Is(err, unix.EINVAL) {
		// Kernels before 6.3 know no MFD_EXEC; their memfds are executable.
		fd, err = unix.MemfdCreate("sbir-cell", flags)
	}
	if err != nil {
		return nil, fmt.Errorf("creating the compiled cell's memfd: %w", err)
	}
	return os.NewFile(uintptr(fd), "sbir-cell"), nil
}

// fillSealed copies the program at path into the memfd f and seals it
// against any change, so that nothing can alter it between the build
// and the exec.
func fillSealed(f *os.File, path string) error {
	src, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("opening the compiled cell: %w", err)
	}
	defer src.Close()
	if _, err := io.Copy(f, src); err != nil {
		return fmt.Errorf("copying the compiled cell: %w", err)
	}
	if _, err := unix.FcntlInt(f.Fd(), unix.F_ADD_SEALS, unix.F_SEAL_SEAL|unix.F_SEAL_SHRINK|unix.F_SEAL_GROW|unix.F_SEAL_WRITE); err != nil {
		return fmt.Errorf("sealing the compiled cell: %w", err)
	}
	return nil
}

// progEvent is what the relay read from a compiled cell: output of a
// stream, or a message (OpReady, OpDisplay, OpClear, OpResult, OpFatal).
type progEvent struct {
	name string
	text []byte
	msg  *wire.Message
}

// relay reads the program's pipes with one poll loop, so that the order
// across them is kept: when both are ready, output is read before
// messages, and the program's runtime sends a display only once the
// output written before it has been read (see cellrt). It closes evs
// when every pipe has ended.
func relay(f *programFiles, crash io.Writer, evs chan<- progEvent) {
	defer close(evs)
	defer func() {
		for _, p := range []*os.File{f.stdout, f.stderr, f.crash, f.replies} {
			p.Close()
		}
	}()
	replies := wire.NewConn(f.replies, nil)
	pfds := []unix.PollFd{
		{Fd: int32(f.stdout.Fd()), Events: unix.POLLIN},
		{Fd: int32(f.stderr.Fd()), Events: unix.POLLIN},
		{Fd: int32(f.crash.Fd()), Events: unix.POLLIN},
		{Fd: int32(f.replies.Fd()), Events: unix.POLLIN},
	}
	names := []string{"stdout", "stderr"}
	buf := make([]byte, 64<<10)
	open := len(pfds)
	for open > 0 {
		if _, err := unix.Poll(pfds, -1); err != nil {
			if errors.Is(err, unix.EINTR) {
				continue
			}
			return
		}
		for i := range pfds[:3] {
			if pfds[i].Fd < 0 || pfds[i].Revents == 0 {
				continue
			}
			n, err := unix.Read(int(pfds[i].Fd), buf)
			switch {
			case n > 0 && i < 2:
				evs <- progEvent{name: names[i], text: append([]byte(nil), buf[:n]...)}
			case n > 0:
				crash.Write(buf[:n])
			case errors.Is(err, unix.EINTR), errors.Is(err, unix.EAGAIN):
			default:
				pfds[i].Fd = -1
				open--
			}
		}
		if p := &pfds[3]; p.Fd >= 0 && p.Revents != 0 {
			for {
				m, err := replies.Recv()
				if err != nil {
					p.Fd = -1
					open--
					break
				}
				evs <- progEvent{msg: m}
				if replies.Buffered() == 0 {
					break
				}
			}
		}
	}
}
