// Package pkgenvtest serves a Go module proxy and its checksum database from
// a temporary directory, for tests of packages that install modules with
// pkgenv. It never touches the network: the proxy listens on 127.0.0.1, or
// is read as a file:// tree.
package pkgenvtest

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/sumdb"
	"golang.org/x/mod/sumdb/dirhash"
	"golang.org/x/mod/sumdb/note"
	modzip "golang.org/x/mod/zip"
)

// A Module is one module version the proxy serves.
type Module struct {
	Path, Version string
	// GoVersion is the go.mod go line; default 1.21.
	GoVersion string
	// DeclaredPath is the go.mod module line when it differs from Path
	// (a module that does not declare its own path).
	DeclaredPath string
	// Requires are "path version" lines for go.mod.
	Requires []string
	// Files maps module-relative paths to contents; go.mod is generated.
	Files map[string]string
}

// GoMod returns the module's generated go.mod.
func (m Module) GoMod() string {
	gv := m.GoVersion
	if gv == "" {
		gv = "1.21"
	}
	declared := m.Path
	if m.DeclaredPath != "" {
		declared = m.DeclaredPath
	}
	var b strings.Builder
	fmt.Fprintf(&b, "module %s\n\ngo %s\n", declared, gv)
	for _, r := range m.Requires {
		fmt.Fprintf(&b, "\nrequire %s\n", r)
	}
	return b.String()
}

// SumDBName is the name of the test checksum database: the proxy serves it
// under /sumdb/sumdb.test/.
const SumDBName = "sumdb.test"

// A Proxy is a module proxy with a checksum database that vouches for
// every module it was created with.
type Proxy struct {
	// Dir is the proxy tree (GOPROXY protocol layout).
	Dir string
	// URL is the proxy's http://127.0.0.1:port address.
	URL string
	// SumDBKey is the verifier key of the checksum database (for
	// pkgenv.Options.SumDBKey).
	SumDBKey string

	sums   map[module.Version][]byte
	server *sumdb.TestServer

	mu        sync.Mutex
	hits      map[string]int // URL path → requests
	zipDelay  time.Duration  // delay before serving a zip
	sumdbDown bool           // answer 404 under /sumdb/
}

// New serves mods until the test ends.
func New(t testing.TB, mods ...Module) *Proxy {
	t.Helper()
	p := &Proxy{Dir: t.TempDir(), sums: map[module.Version][]byte{}, hits: map[string]int{}}
	for _, m := range mods {
		p.writeModule(t, m, true)
	}
	skey, vkey, err := note.GenerateKey(rand.Reader, SumDBName)
	if err != nil {
		t.Fatal(err)
	}
	p.SumDBKey = vkey
	p.server = sumdb.NewTestServer(skey, func(path, vers string) ([]byte, error) {
		lines, ok := p.sums[module.Version{Path: path, Version: vers}]
		if !ok {
			return nil, fmt.Errorf("%s@%s: %w", path, vers, os.ErrNotExist)
		}
		return lines, nil
	})
	// Fill the log now, in a fixed order, so that its tree never changes.
	var all []module.Version
	for m := range p.sums {
		all = append(all, m)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].String() < all[j].String() })
	for _, m := range all {
		if _, err := p.server.Lookup(context.Background(), m); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	p.URL = srv.URL
	return p
}

// Tamper serves m's files in place of what the proxy was created with,
// without telling the checksum database: downloads of m then fail
// verification.
func (p *Proxy) Tamper(t testing.TB, m Module) {
	t.Helper()
	p.writeModule(t, m, false)
}

// writeModule zips m with golang.org/x/mod/zip and writes the proxy files;
// with record set, the genuine hashes go to the checksum database.
func (p *Proxy) writeModule(t testing.TB, m Module, record bool) {
	t.Helper()
	src := t.TempDir()
	files := map[string]string{"go.mod": m.GoMod()}
	for name, content := range m.Files {
		files[name] = content
	}
	for name, content := range files {
		f := filepath.Join(src, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mv := module.Version{Path: m.Path, Version: m.Version}
	var zipBuf bytes.Buffer
	if err := modzip.CreateFromDir(&zipBuf, mv, src); err != nil {
		t.Fatalf("zipping %s: %v", mv, err)
	}
	ep, err := module.EscapePath(m.Path)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := module.EscapeVersion(m.Version)
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(p.Dir, filepath.FromSlash(ep), "@v", ev)
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) {
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(base+".zip", zipBuf.Bytes())
	write(base+".mod", []byte(files["go.mod"]))
	write(base+".info", fmt.Appendf(nil, `{"Version":%q,"Time":"2024-01-02T03:04:05Z"}`, m.Version))
	if !record {
		return
	}
	zh, err := dirhash.HashZip(base+".zip", dirhash.Hash1)
	if err != nil {
		t.Fatal(err)
	}
	mh, err := dirhash.Hash1([]string{"go.mod"}, func(string) (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(files["go.mod"])), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	p.sums[mv] = fmt.Appendf(nil, "%s %s %s\n%s %s/go.mod %s\n", m.Path, m.Version, zh, m.Path, m.Version, mh)
}

// ServeHTTP serves the proxy tree and, under /sumdb/<name>/, the checksum
// database.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	p.hits[r.URL.Path]++
	delay, sumdbDown := p.zipDelay, p.sumdbDown
	p.mu.Unlock()
	if rest, ok := strings.CutPrefix(r.URL.Path, "/sumdb/"+SumDBName); ok {
		if sumdbDown {
			http.Error(w, "not found: this proxy does not serve checksum databases", http.StatusNotFound)
			return
		}
		r2 := r.Clone(r.Context())
		r2.URL.Path = rest
		sumdb.NewServer(p.server).ServeHTTP(w, r2)
		return
	}
	if delay > 0 && strings.HasSuffix(r.URL.Path, ".zip") {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
	}
	http.FileServer(http.Dir(p.Dir)).ServeHTTP(w, r)
}

// Hits returns how many HTTP requests the proxy answered.
func (p *Proxy) Hits() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, v := range p.hits {
		n += v
	}
	return n
}

// ZipHits returns how many times m's zip was requested.
func (p *Proxy) ZipHits(m module.Version) int {
	ep, _ := module.EscapePath(m.Path)
	ev, _ := module.EscapeVersion(m.Version)
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.hits["/"+ep+"/@v/"+ev+".zip"]
}

// SetZipDelay delays every zip download by d (0: none).
func (p *Proxy) SetZipDelay(d time.Duration) {
	p.mu.Lock()
	p.zipDelay = d
	p.mu.Unlock()
}

// DisableSumDB makes the proxy answer 404 for the checksum database, as
// proxies that do not serve one do.
func (p *Proxy) DisableSumDB() {
	p.mu.Lock()
	p.sumdbDown = true
	p.mu.Unlock()
}

// FileURL freezes the checksum database into the proxy tree (what a fresh
// client asks for) and returns a file:// proxy URL for it.
func (p *Proxy) FileURL(t testing.TB) string {
	t.Helper()
	rec := &recordingOps{p: p}
	c := sumdb.NewClient(rec)
	for m := range p.sums {
		if _, err := c.Lookup(m.Path, m.Version); err != nil {
			t.Fatal(err)
		}
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p.Dir)}).String()
}

// recordingOps is a sumdb.ClientOps that asks the test server and writes
// every answer into the proxy tree.
type recordingOps struct {
	p   *Proxy
	mu  sync.Mutex
	cfg map[string][]byte
}

func (o *recordingOps) ReadRemote(path string) ([]byte, error) {
	rr := httptest.NewRecorder()
	sumdb.NewServer(o.p.server).ServeHTTP(rr, httptest.NewRequest(http.MethodGet, path, nil))
	if rr.Code != http.StatusOK {
		return nil, fmt.Errorf("%s: %d %s", path, rr.Code, rr.Body.String())
	}
	file := filepath.Join(o.p.Dir, "sumdb", SumDBName, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(file, rr.Body.Bytes(), 0o644); err != nil {
		return nil, err
	}
	return rr.Body.Bytes(), nil
}

func (o *recordingOps) ReadConfig(file string) ([]byte, error) {
	if file == "key" {
		return []byte(o.p.SumDBKey), nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.cfg[file], nil
}

func (o *recordingOps) WriteConfig(file string, old, new []byte) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.cfg == nil {
		o.cfg = map[string][]byte{}
	}
	if !bytes.Equal(o.cfg[file], old) {
		return sumdb.ErrWriteConflict
	}
	o.cfg[file] = new
	return nil
}

func (o *recordingOps) ReadCache(string) ([]byte, error) { return nil, os.ErrNotExist }
func (o *recordingOps) WriteCache(string, []byte)        {}
func (o *recordingOps) Log(string)                       {}
func (o *recordingOps) SecurityError(string)             {}
