package dataset

import (
	"os"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// writeBehind writes to a file and has the kernel start writing each chunk
// to disk as soon as it is in the page cache (sync_file_range with
// SYNC_FILE_RANGE_WRITE, which waits for nothing to be on disk), on a
// goroutine of its own. A conversion writes ~400 MB in a tenth of a second
// and syncs it afterwards: started early, the disk is busy with the first
// chunks while the last are still being written, and the sync has that
// much less to wait for. Durability still rests on that sync alone.
type writeBehind struct {
	f       *os.File
	written int64
	started int64        // bytes handed to the goroutine
	target  atomic.Int64 // how far the goroutine should have started writeback
	wake    chan struct{}
}

func newWriteBehind(f *os.File) *writeBehind {
	w := &writeBehind{f: f, wake: make(chan struct{}, 1)}
	if rc, err := f.SyscallConn(); err == nil {
		go w.run(rc)
	}
	return w
}

func (w *writeBehind) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	w.written += int64(n)
	if w.written-w.started >= writeBehindChunk {
		w.started = w.written
		w.target.Store(w.written)
		select {
		case w.wake <- struct{}{}:
		default: // the goroutine is busy; it reads the target when done
		}
	}
	return n, err
}

// run starts writeback up to the target each time it is woken. Errors are
// ignored: this only starts early what the final sync does and checks.
// Control keeps the descriptor open while a call runs (a device queue
// that is full makes it block), so the file may be closed meanwhile.
func (w *writeBehind) run(rc syscall.RawConn) {
	var from int64
	for range w.wake {
		to := w.target.Load()
		if to <= from {
			continue
		}
		rc.Control(func(fd uintptr) {
			unix.SyncFileRange(int(fd), from, to-from, unix.SYNC_FILE_RANGE_WRITE)
		})
		from = to
	}
}

// stop ends the goroutine once its current call returns; it does not wait.
func (w *writeBehind) stop() { close(w.wake) }
