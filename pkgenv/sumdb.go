package pkgenv

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/gofrs/flock"
	"golang.org/x/mod/module"
	"golang.org/x/mod/sumdb"
	"golang.org/x/mod/sumdb/dirhash"
)

// checksumDB looks up go.sum lines in the checksum database, reached
// through the module proxy only (<proxy>/sumdb/<name>/...). The signed
// tree head it has seen is kept in the cache directory, so a server that
// rolls its log back is caught across sessions, as the go command does.
type checksumDB struct {
	name   string
	ops    *sumdbOps
	client *sumdb.Client
}

func newChecksumDB(ctx context.Context, p *proxy, key, stateDir string) *checksumDB {
	ops := &sumdbOps{ctx: ctx, proxy: p, key: key, name: sumdbName(key), dir: stateDir}
	return &checksumDB{name: ops.name, ops: ops, client: sumdb.NewClient(ops)}
}

// lookup returns the h1: hash of m's zip (suffix "") or go.mod (suffix
// "/go.mod") according to the checksum database.
func (db *checksumDB) lookup(m module.Version, suffix string) (string, error) {
	lines, err := db.client.Lookup(m.Path, m.Version+suffix)
	if err != nil {
		db.ops.mu.Lock()
		detail, notServed := db.ops.lastError, db.ops.notServed
		db.ops.mu.Unlock()
		switch {
		case errors.Is(err, sumdb.ErrSecurity) && detail != nil:
			return "", fmt.Errorf("%w\n%v", err, detail)
		case notServed:
			return "", fmt.Errorf("%w\n\tthe module proxy must serve the checksum database at %s/sumdb/%s/ (it is never contacted directly)",
				err, db.ops.proxy.base, db.name)
		}
		return "", err
	}
	prefix := m.Path + " " + m.Version + suffix + " "
	for _, l := range lines {
		if h, ok := strings.CutPrefix(l, prefix); ok && strings.HasPrefix(h, "h1:") {
			return h, nil
		}
	}
	return "", fmt.Errorf("%s has no h1: hash for %s@%s%s", db.name, m.Path, m.Version, suffix)
}

// verify checks a downloaded hash against the database, formatting a
// mismatch like the go command.
func (db *checksumDB) verify(m module.Version, what, suffix, got string) error {
	want, err := db.lookup(m, suffix)
	if err != nil {
		return fmt.Errorf("go: %s@%s: verifying %s: %w", m.Path, m.Version, what, err)
	}
	if got != want {
		return fmt.Errorf("go: %s@%s: verifying %s: %w\n\tdownloaded: %s\n\t%s: %s\n\n"+
			"SECURITY ERROR\nThis download does NOT match the one reported by the checksum server.\n"+
			"The bits may have been replaced on the origin server, or an attacker may\n"+
			"have intercepted the download attempt.\n\nFor more information, see 'go help module-auth'.",
			m.Path, m.Version, what, ErrChecksumMismatch, got, db.name, want)
	}
	return nil
}

// goModHash is the h1: hash of a go.mod file as the checksum database
// records it.
func goModHash(data []byte) (string, error) {
	return dirhash.Hash1([]string{"go.mod"}, func(string) (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(data)), nil
	})
}

// sumdbOps implements sumdb.ClientOps over the proxy and the cache.
type sumdbOps struct {
	ctx   context.Context
	proxy *proxy
	key   string
	name  string
	dir   string // <cache>/sumdb

	mu        sync.Mutex
	lastError error // from SecurityError
	notServed bool  // the proxy answered 404/410 for the database
}

var _ sumdb.ClientOps = (*sumdbOps)(nil)

func (o *sumdbOps) ReadRemote(path string) ([]byte, error) {
	// Tiles and lookups are small; 1 MB is far above any real answer.
	data, err := o.proxy.get(o.ctx, "sumdb/"+o.name+path, 1<<20)
	var se *statusError
	if errors.As(err, &se) && (se.code == http.StatusNotFound || se.code == http.StatusGone) {
		o.mu.Lock()
		o.notServed = true
		o.mu.Unlock()
	}
	return data, err
}

func (o *sumdbOps) configPath(file string) string {
	return filepath.Join(o.dir, "config", filepath.FromSlash(file))
}

func (o *sumdbOps) ReadConfig(file string) ([]byte, error) {
	if file == "key" {
		return []byte(o.key), nil
	}
	data, err := os.ReadFile(o.configPath(file))
	if errors.Is(err, fs.ErrNotExist) {
		return []byte{}, nil // start from an empty tree
	}
	return data, err
}

// WriteConfig replaces the stored tree head if it still equals old. A file
// lock makes the compare-and-swap hold across processes.
func (o *sumdbOps) WriteConfig(file string, old, new []byte) error {
	if file == "key" {
		return errors.New("the checksum database key is not writable")
	}
	path := o.configPath(file)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	lock := flock.New(path + ".lock")
	if err := lock.Lock(); err != nil {
		return err
	}
	defer lock.Unlock()
	cur, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if !bytes.Equal(cur, old) {
		return sumdb.ErrWriteConflict
	}
	return writeFileAtomic(path, new)
}

func (o *sumdbOps) ReadCache(file string) ([]byte, error) {
	return os.ReadFile(filepath.Join(o.dir, "cache", filepath.FromSlash(file)))
}

func (o *sumdbOps) WriteCache(file string, data []byte) {
	path := filepath.Join(o.dir, "cache", filepath.FromSlash(file))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
		writeFileAtomic(path, data) // a cache: a failed write only costs a refetch
	}
}

func (o *sumdbOps) Log(msg string) {}

func (o *sumdbOps) SecurityError(msg string) {
	o.mu.Lock()
	o.lastError = errors.New(msg)
	o.mu.Unlock()
}

// writeFileAtomic writes data to path through a temporary file and a
// rename, so readers see the old or the new content, never a part.
func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}
