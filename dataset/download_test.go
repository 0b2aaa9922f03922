package dataset

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// installed returns the cached CSV and Arrow file contents.
func installed(t *testing.T, cache string) (csv, arrow []byte) {
	t.Helper()
	csv, _ = os.ReadFile(filepath.Join(cache, CSVFileName))
	arrow, _ = os.ReadFile(filepath.Join(cache, ArrowFileName))
	return csv, arrow
}

// noTempFiles fails if a download or conversion left temporary files.
func noTempFiles(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".download-") || strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

func serve(t *testing.T, h http.HandlerFunc) string {
	t.Helper()
	srv := httptest.NewServer(h) // loopback only
	t.Cleanup(srv.Close)
	return srv.URL + "/award_data.csv"
}

func TestDownload(t *testing.T) {
	good := generated(t, GenerateOptions{Rows: 500, Seed: 12})
	cache := t.TempDir()
	url := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(good)))
		w.Write(good)
	})
	var stages []Stage
	res, err := Download(context.Background(), DownloadOptions{URL: url, CacheDir: cache, Progress: func(s Stage, done, total int64) {
		if len(stages) == 0 || stages[len(stages)-1] != s {
			stages = append(stages, s)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Bytes != int64(len(good)) || res.Report.Rows != 500 || res.CSVPath != filepath.Join(cache, CSVFileName) {
		t.Fatalf("result = %+v", res)
	}
	if fmt.Sprint(stages) != "[download convert]" {
		t.Errorf("progress stages = %v", stages)
	}
	csv, _ := installed(t, cache)
	if !bytes.Equal(csv, good) {
		t.Error("installed CSV differs from the served one")
	}
	noTempFiles(t, cache)

	// A download killed earlier (SIGKILL runs no cleanup) leaves its
	// temporary file; the next download removes it.
	stale := writeFile(t, filepath.Join(cache, CSVFileName+".download-123"), "partial")
	if _, err := Download(context.Background(), DownloadOptions{URL: url, CacheDir: cache}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("stale download file left: %v", err)
	}
	// Locate uses the download as is: no second conversion.
	src, err := Locate(context.Background(), Config{CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	if src.Kind != SourceDownloaded || src.Converted || src.Rows != 500 {
		t.Errorf("Locate after Download: %+v", src)
	}
	// The origin is recorded; a loopback server is not the SBIR site.
	if src.URL != url || strings.Contains(src.Describe(), "real") {
		t.Errorf("Locate after Download: URL %q, Describe %q; want %q and not called real", src.URL, src.Describe(), url)
	}
}

func TestDownloadLocalSources(t *testing.T) {
	good := generated(t, GenerateOptions{Rows: 50, Seed: 13})
	path := writeFile(t, filepath.Join(t.TempDir(), "local.csv"), string(good))
	for _, u := range []string{path, "file://" + path} {
		cache := t.TempDir()
		res, err := Download(context.Background(), DownloadOptions{URL: u, CacheDir: cache})
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		if res.Report.Rows != 50 {
			t.Errorf("%s: %d rows", u, res.Report.Rows)
		}
	}
	_, err := Download(context.Background(), DownloadOptions{URL: filepath.Dir(path), CacheDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory: err = %v", err)
	}
	_, err = Download(context.Background(), DownloadOptions{URL: "ftp://example.com/a.csv", CacheDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), `unsupported URL scheme "ftp"`) {
		t.Errorf("ftp: err = %v", err)
	}
}

// TestDownloadFailuresKeepPreviousData runs every way a download can go
// wrong against a cache holding good data, which must survive untouched.
func TestDownloadFailuresKeepPreviousData(t *testing.T) {
	good := generated(t, GenerateOptions{Rows: 300, Seed: 14})
	newer := generated(t, GenerateOptions{Rows: 400, Seed: 15})
	html := []byte("<!DOCTYPE html>\n<html><head><title>Maintenance</title></head><body>Down for maintenance</body></html>\n")
	// A CSV cut inside a quoted abstract.
	cut := newer[:bytes.LastIndex(newer[:len(newer)/2], []byte(`,"`))+5]
	// A CSV cut between two fields of a record, outside quotes.
	cutRecord := append(bytes.Clone(newer[:bytes.LastIndex(newer[:len(newer)/2], []byte("\r\n"))+2]), "ACME INC,Widgets,Department of Energy,"...)

	tests := []struct {
		name    string
		handler http.HandlerFunc
		want    []string // substrings of the error; "%URL" is replaced by the URL
	}{
		{"HTML page", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Write(html)
		}, []string{"not an SBIR awards CSV: starts with <!DOCTYPE html>"}},
		{"404", func(w http.ResponseWriter, r *http.Request) {
			http.NotFound(w, r)
		}, []string{"HTTP 404 Not Found from %URL", "SBIR_CSV_URL"}},
		{"403", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusForbidden)
		}, []string{"HTTP 403 Forbidden from %URL", "try again later"}},
		{"cut off midway (Content-Length)", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", strconv.Itoa(len(newer)))
			w.Write(newer[:len(newer)/2])
			w.(http.Flusher).Flush()
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close()
		}, []string{"download of %URL cut off: got", "run the command again"}},
		{"truncated inside a quoted field (no Content-Length)", func(w http.ResponseWriter, r *http.Request) {
			w.Write(cut)
		}, []string{"incomplete or damaged", "quoted field is not closed before the end of the file"}},
		{"cut between fields (no Content-Length)", func(w http.ResponseWriter, r *http.Request) {
			w.Write(cutRecord)
		}, []string{"is incomplete: it ends in the middle of the record starting at line"}},
		{"another CSV", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte("id,name\n1,x\n"))
		}, []string{`not an SBIR awards CSV: starts with id,name; the header has no "Company"`}},
		{"header only", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(bulkHeader + "\r\n"))
		}, []string{"holds no awards"}},
		{"empty body", func(w http.ResponseWriter, r *http.Request) {}, []string{"is empty"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cache := t.TempDir()
			if _, err := Download(context.Background(), DownloadOptions{URL: writeFile(t, filepath.Join(t.TempDir(), "good.csv"), string(good)), CacheDir: cache}); err != nil {
				t.Fatal(err)
			}
			csvBefore, arrowBefore := installed(t, cache)
			url := serve(t, tt.handler)
			_, err := Download(context.Background(), DownloadOptions{URL: url, CacheDir: cache})
			if err == nil {
				t.Fatal("Download succeeded")
			}
			for _, w := range tt.want {
				if w = strings.ReplaceAll(w, "%URL", url); !strings.Contains(err.Error(), w) {
					t.Errorf("err = %v\nwant it to contain %q", err, w)
				}
			}
			csvAfter, arrowAfter := installed(t, cache)
			if !bytes.Equal(csvBefore, csvAfter) || !bytes.Equal(arrowBefore, arrowAfter) {
				t.Error("the previous data was modified")
			}
			noTempFiles(t, cache)
			if src, err := Locate(context.Background(), Config{CacheDir: cache}); err != nil || src.Rows != 300 || src.Converted {
				t.Errorf("previous data no longer loads as before: %+v, %v", src, err)
			}
		})
	}
}

func TestDownloadCancelled(t *testing.T) {
	good := generated(t, GenerateOptions{Rows: 100, Seed: 16})
	cache := t.TempDir()
	if _, err := Download(context.Background(), DownloadOptions{URL: writeFile(t, filepath.Join(t.TempDir(), "g.csv"), string(good)), CacheDir: cache}); err != nil {
		t.Fatal(err)
	}
	csvBefore, arrowBefore := installed(t, cache)
	release := make(chan struct{})
	defer close(release)
	url := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100000000")
		w.Write(good)
		w.(http.Flusher).Flush()
		select { // stall like a slow server until the client gives up
		case <-r.Context().Done():
		case <-release:
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	_, err := Download(ctx, DownloadOptions{URL: url, CacheDir: cache, Progress: func(s Stage, done, total int64) {
		if done > 0 {
			cancel() // Ctrl-C once data is flowing
		}
	}})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "the previous data is kept") {
		t.Fatalf("err = %v", err)
	}
	csvAfter, arrowAfter := installed(t, cache)
	if !bytes.Equal(csvBefore, csvAfter) || !bytes.Equal(arrowBefore, arrowAfter) {
		t.Error("the previous data was modified")
	}
	noTempFiles(t, cache)
}

func TestDownloadDNSFailure(t *testing.T) {
	// A resolver whose only server is a closed loopback port: the lookup
	// fails for real, without touching the network.
	resolver := &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "tcp", "127.0.0.1:1")
	}}
	client := &http.Client{Transport: &http.Transport{DialContext: (&net.Dialer{Resolver: resolver, Timeout: 5 * time.Second}).DialContext}}
	_, err := Download(context.Background(), DownloadOptions{URL: "http://awards.invalid/award_data.csv", CacheDir: t.TempDir(), Client: client})
	if err == nil || !strings.Contains(err.Error(), "cannot resolve awards.invalid") || !strings.Contains(err.Error(), "DNS") {
		t.Fatalf("err = %v", err)
	}
}

func TestDownloadUnwritableCache(t *testing.T) {
	file := writeFile(t, filepath.Join(t.TempDir(), "f"), "x")
	_, err := Download(context.Background(), DownloadOptions{URL: "http://127.0.0.1:1/x.csv", CacheDir: filepath.Join(file, "cache")})
	if err == nil || !strings.Contains(err.Error(), "cannot write to the cache directory") || !strings.Contains(err.Error(), "SBIR_CACHE_DIR") {
		t.Fatalf("err = %v", err)
	}
}

func TestDescribeTransferError(t *testing.T) {
	const u = "https://example.test/award_data.csv"
	tests := []struct {
		err  error
		want string
	}{
		{fmt.Errorf("write: %w", syscall.ENOSPC), "disk full while writing to /cache"},
		{context.Canceled, "interrupted after 1.0 MB"},
		{fmt.Errorf("read: %w", errors.New("connection reset by peer")), "failed after 1.0 MB"},
	}
	for _, tt := range tests {
		got := describeTransferError(tt.err, u, 1e6, 5e6, "/cache")
		if !strings.Contains(got.Error(), tt.want) || !errors.Is(got, tt.err) {
			t.Errorf("describeTransferError(%v) = %v, want %q wrapping the cause", tt.err, got, tt.want)
		}
	}
}
