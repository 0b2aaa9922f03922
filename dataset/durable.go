package dataset

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
)

// An Arrow file in the cache is trusted only when it is durable: a file
// renamed into place whose bytes were still in the page cache when the
// power went may hold anything after the restart (zeros, old blocks),
// and the structural checks of OpenFile cannot tell. Locate therefore
// installs a conversion in two steps: the new file is renamed into place
// unsynced, so that the first answer does not wait for ~400 MB of
// writeback, and then, in the background and still under the conversion
// lock, it is synced, its rename made durable, and a marker written
// beside it (durableSuffix). check accepts a cache file only with a
// marker that names it. Nothing ever writes a marker for bytes that are
// not yet on disk, and a new file is never renamed over an old one while
// the old one's marker is still durable, so a marker always speaks for
// the file at its path. A process killed before the marker leaves an
// unmarked file, which the next Locate converts again: it cannot know
// whether the machine went down in between.

// durableSuffix is appended to an Arrow file's path to name its marker.
const durableSuffix = ".synced"

// maxMarkerBytes bounds what is read of a marker: it holds a size and a
// source identity (a path, a size, a time, a digest).
const maxMarkerBytes = 64 << 10

// durableMarker is the content of a marker: the file it vouches for, by
// size and by the CSV it was converted from.
type durableMarker struct {
	ArrowBytes int64    `json:"arrow_bytes"`
	Source     sourceID `json:"source"`
}

// markerPath returns the path of the marker of the Arrow file arrowPath.
func markerPath(arrowPath string) string { return arrowPath + durableSuffix }

// durable reports whether arrowPath has a marker vouching for a file of
// size bytes converted from id.
func durable(arrowPath string, size int64, id sourceID) bool {
	f, err := os.Open(markerPath(arrowPath))
	if err != nil {
		return false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxMarkerBytes))
	if err != nil {
		return false
	}
	var m durableMarker
	if err := json.Unmarshal(b, &m); err != nil {
		return false
	}
	return m.ArrowBytes == size && m.Source == id
}

// removeMarker removes arrowPath's marker, durably, before a new file is
// renamed over arrowPath: after a crash, the old marker must not be found
// beside an unsynced new file.
func removeMarker(arrowPath string) error {
	err := os.Remove(markerPath(arrowPath))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("removing the old marker: %w", err)
	}
	// The lock file is there: every caller holds the lock.
	return syncDirOf(arrowPath + ".lock")
}

// makeDurable syncs f, the file just renamed to arrowPath, makes the
// rename durable and then writes the marker that vouches for it.
func makeDurable(f *os.File, arrowPath string, id sourceID) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := syncDirOf(arrowPath); err != nil {
		return err
	}
	return writeMarker(arrowPath, durableMarker{ArrowBytes: st.Size(), Source: id})
}

// writeMarker writes arrowPath's marker and makes it durable. A marker cut
// short by a crash does not parse, which makes the file untrusted.
func writeMarker(arrowPath string, m durableMarker) (err error) {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	path := markerPath(arrowPath)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(path)
		}
	}()
	if _, err := f.Write(append(b, '\n')); err != nil {
		return err
	}
	// Readable by every user of a shared cache, whatever the umask.
	if err := f.Chmod(0o644); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return syncDirOf(path)
}

// syncDirOf makes the renames and removals in the directory holding
// member, an existing file, durable. File systems that cannot sync a
// directory (EINVAL) make their metadata durable by other means; other
// errors are returned. A directory its user may write but not read (mode
// 0333) cannot be opened: member's whole file system is synced instead
// (syncFS), which holds the directory's entries too.
func syncDirOf(member string) error {
	d, err := os.Open(filepath.Dir(member))
	if errors.Is(err, fs.ErrPermission) {
		f, ferr := os.Open(member)
		if ferr != nil {
			return err
		}
		defer f.Close()
		if serr := syncFS(f); serr != nil {
			return fmt.Errorf("%w (and syncing its file system: %w)", err, serr)
		}
		return nil
	}
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}

// durableWait is the sync of a conversion, as Source holds it.
type durableWait struct {
	start func()        // starts the sync on a goroutine of its own, once
	done  chan struct{} // closed when the sync has finished
	err   error         // its result, set before done is closed
}

func newDurableWait(run func() error) *durableWait {
	w := &durableWait{done: make(chan struct{})}
	w.start = sync.OnceFunc(func() {
		go func() {
			w.err = run()
			close(w.done)
		}()
	})
	return w
}

// StartSync starts the sync of an Arrow file that Locate converted with
// Config.DeferSync, on a goroutine of its own, and returns at once. It does
// nothing if that sync has started, or if Locate did not convert. Callers
// start it once their worker is up: the sync's writeback of some 400 MB,
// and the unmapping of the conversion's columns that comes first, slow a
// worker's start by tens of milliseconds.
func (s *Source) StartSync() {
	if s.durable != nil {
		s.durable.start()
	}
}

// WaitDurable waits until the Arrow file Locate returned is durable on
// disk, starting its sync if StartSync has not. It returns at once unless
// that Locate converted with Config.DeferSync; then it waits for the sync
// (some tenths of a second for the full data set) and returns its error,
// if any: the file may still be used by this process, but no marker
// vouches for it, so the next Locate converts again. A process must call
// WaitDurable before it exits, or its conversion is repeated by the next
// Locate. It returns ctx's error if ctx ends first; the sync goes on.
func (s *Source) WaitDurable(ctx context.Context) error {
	if s.durable == nil {
		return nil
	}
	s.durable.start()
	select {
	case <-s.durable.done:
		return s.durable.err
	case <-ctx.Done():
		return ctx.Err()
	}
}
