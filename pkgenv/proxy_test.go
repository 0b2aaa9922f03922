package pkgenv

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
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

// A testModule is one module version the test proxy serves.
type testModule struct {
	Path, Version string
	GoVersion     string            // the go.mod go line; default 1.21
	DeclaredPath  string            // the go.mod module line, if not Path
	Requires      []string          // "path version" lines for go.mod
	Files         map[string]string // module-relative path → content (go.mod is generated)
}

func (m testModule) goMod() string {
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

// testProxy is a module proxy and checksum database served from a
// temporary directory, over HTTP on 127.0.0.1 or as a file:// tree. It
// never touches the network.
type testProxy struct {
	Dir      string // the proxy tree (GOPROXY protocol layout)
	URL      string // http://127.0.0.1:port
	SumDBKey string // verifier key of the test checksum database

	sums   map[module.Version][]byte // genuine go.sum lines
	server *sumdb.TestServer

	mu       sync.Mutex
	hits     map[string]int      // URL path → requests
	zipDelay time.Duration       // delay before serving a zip
	zipSeen  chan module.Version // if non-nil, told about each zip request
	noSumDB  bool                // answer 404 under /sumdb/, like a proxy that does not serve it
}

const testSumDBName = "sumdb.test"

func newTestProxy(t testing.TB, mods ...testModule) *testProxy {
	t.Helper()
	tp := &testProxy{Dir: t.TempDir(), sums: map[module.Version][]byte{}, hits: map[string]int{}}
	for _, m := range mods {
		tp.writeModule(t, m, true)
	}
	skey, vkey, err := note.GenerateKey(rand.Reader, testSumDBName)
	if err != nil {
		t.Fatal(err)
	}
	tp.SumDBKey = vkey
	tp.server = sumdb.NewTestServer(skey, func(path, vers string) ([]byte, error) {
		lines, ok := tp.sums[module.Version{Path: path, Version: vers}]
		if !ok {
			return nil, fmt.Errorf("%s@%s: %w", path, vers, os.ErrNotExist)
		}
		return lines, nil
	})
	// Fill the log now, in a fixed order, so its tree never changes.
	var all []module.Version
	for m := range tp.sums {
		all = append(all, m)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].String() < all[j].String() })
	for _, m := range all {
		if _, err := tp.server.Lookup(context.Background(), m); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(tp)
	t.Cleanup(srv.Close)
	tp.URL = srv.URL
	return tp
}

// writeModule builds m's zip with golang.org/x/mod/zip and writes the
// proxy files. With record set, the genuine hashes go to the checksum
// database; without, the files replace what the database vouches for.
func (tp *testProxy) writeModule(t testing.TB, m testModule, record bool) {
	t.Helper()
	src := t.TempDir()
	files := map[string]string{"go.mod": m.goMod()}
	for name, content := range m.Files {
		files[name] = content
	}
	for name, content := range files {
		p := filepath.Join(src, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mv := module.Version{Path: m.Path, Version: m.Version}
	var zipBuf bytes.Buffer
	if err := modzip.CreateFromDir(&zipBuf, mv, src); err != nil {
		t.Fatalf("zipping %s: %v", mv, err)
	}
	base, err := modulePath(mv, "")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tp.Dir, filepath.FromSlash(base))
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, out+".zip", zipBuf.Bytes())
	writeFile(t, out+".mod", []byte(files["go.mod"]))
	writeFile(t, out+".info", fmt.Appendf(nil, `{"Version":%q,"Time":"2024-01-02T03:04:05Z"}`, m.Version))
	if !record {
		return
	}
	zh, err := dirhash.HashZip(out+".zip", dirhash.Hash1)
	if err != nil {
		t.Fatal(err)
	}
	mh, err := goModHash([]byte(files["go.mod"]))
	if err != nil {
		t.Fatal(err)
	}
	tp.sums[mv] = fmt.Appendf(nil, "%s %s %s\n%s %s/go.mod %s\n", m.Path, m.Version, zh, m.Path, m.Version, mh)
}

func writeFile(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// ServeHTTP serves the proxy tree and, under /sumdb/<name>/, the
// checksum database.
func (tp *testProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	tp.mu.Lock()
	tp.hits[r.URL.Path]++
	delay, seen, noSumDB := tp.zipDelay, tp.zipSeen, tp.noSumDB
	tp.mu.Unlock()
	if rest, ok := strings.CutPrefix(r.URL.Path, "/sumdb/"+testSumDBName); ok {
		if noSumDB {
			http.Error(w, "not found: this proxy does not serve checksum databases", http.StatusNotFound)
			return
		}
		r2 := r.Clone(r.Context())
		r2.URL.Path = rest
		sumdb.NewServer(tp.server).ServeHTTP(w, r2)
		return
	}
	if strings.HasSuffix(r.URL.Path, ".zip") {
		if seen != nil {
			seen <- zipModule(r.URL.Path)
		}
		if delay > 0 {
			select {
			case <-time.After(delay):
			case <-r.Context().Done():
				return
			}
		}
	}
	http.FileServer(http.Dir(tp.Dir)).ServeHTTP(w, r)
}

// zipModule recovers the module of a zip request path.
func zipModule(p string) module.Version {
	escPath, escVers, _ := strings.Cut(strings.TrimPrefix(p, "/"), "/@v/")
	path, _ := module.UnescapePath(escPath)
	vers, _ := module.UnescapeVersion(strings.TrimSuffix(escVers, ".zip"))
	return module.Version{Path: path, Version: vers}
}

// zipHits returns how many times m's zip was requested.
func (tp *testProxy) zipHits(m module.Version) int {
	rel, _ := modulePath(m, ".zip")
	tp.mu.Lock()
	defer tp.mu.Unlock()
	return tp.hits["/"+rel]
}

func (tp *testProxy) setZipDelay(d time.Duration) {
	tp.mu.Lock()
	tp.zipDelay = d
	tp.mu.Unlock()
}

// fileURL freezes the checksum database into the proxy tree (recording
// what a fresh client asks for) and returns a file:// GOPROXY for it.
func (tp *testProxy) fileURL(t testing.TB) string {
	t.Helper()
	rec := &recordingOps{tp: tp, key: tp.SumDBKey}
	c := sumdb.NewClient(rec)
	for m := range tp.sums {
		if _, err := c.Lookup(m.Path, m.Version); err != nil {
			t.Fatal(err)
		}
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(tp.Dir)}).String()
}

// recordingOps is a sumdb.ClientOps that fetches from the test server
// and writes every answer into the proxy tree.
type recordingOps struct {
	tp  *testProxy
	key string
	mu  sync.Mutex
	cfg map[string][]byte
}

func (o *recordingOps) ReadRemote(path string) ([]byte, error) {
	rr := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	sumdb.NewServer(o.tp.server).ServeHTTP(rr, req)
	if rr.Code != http.StatusOK {
		return nil, fmt.Errorf("%s: %d %s", path, rr.Code, rr.Body.String())
	}
	file := filepath.Join(o.tp.Dir, "sumdb", testSumDBName, filepath.FromSlash(path))
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
		return []byte(o.key), nil
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
func (o *recordingOps) SecurityError(msg string)         {}
