package dataset

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/gofrs/flock"
	"github.com/sbirtools/sbir-kernel/internal/bytesize"
)

// DefaultURL is where the SBIR program publishes the bulk awards CSV.
const DefaultURL = "https://data.www.sbir.gov/mod_awarddatapublic/award_data.csv"

// Stage names a phase of Download, for progress reports.
type Stage string

// Stages of Download.
const (
	StageDownload Stage = "download" // fetching the CSV; total is the Content-Length or -1
	StageConvert  Stage = "convert"  // converting it to Arrow; total is the CSV size
)

// DownloadOptions configures Download.
type DownloadOptions struct {
	// URL is an http(s) or file URL, or a local path. Empty means DefaultURL.
	URL string
	// CacheDir receives award_data.csv and award_data.arrow. Required.
	CacheDir string
	// Client performs HTTP requests; nil means a client with sensible
	// timeouts for connecting (the transfer itself is bounded only by ctx).
	Client *http.Client
	// Progress, if set, is called as bytes are fetched and converted.
	Progress func(stage Stage, done, total int64)
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
}

// DownloadResult describes a successful Download.
type DownloadResult struct {
	URL       string
	CSVPath   string
	ArrowPath string
	Bytes     int64 // size of the CSV
	Report    *LoadReport
	Elapsed   time.Duration
}

// Download fetches the awards CSV into the cache directory and converts it
// to Arrow. The CSV is streamed to a temporary file next to its final
// place, checked (HTTP status, complete length, that it is an SBIR awards
// CSV with at least one award: an HTML error page or a truncated file is
// refused) and converted; only then are the CSV and the Arrow file renamed
// into place, under the same lock Locate uses. Whatever goes wrong —
// including cancellation of ctx — the previous data stays intact and no
// temporary file is left behind. Errors say what happened and what to do.
func Download(ctx context.Context, opts DownloadOptions) (*DownloadResult, error) {
	start := time.Now()
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if opts.URL == "" {
		opts.URL = DefaultURL
	}
	if opts.CacheDir == "" {
		return nil, errors.New("no cache directory: set SBIR_CACHE_DIR or HOME")
	}
	progress := opts.Progress
	if progress == nil {
		progress = func(Stage, int64, int64) {}
	}
	if err := probeWritable(opts.CacheDir); err != nil {
		return nil, fmt.Errorf("cannot write to the cache directory %s: %w; set SBIR_CACHE_DIR to a writable directory", opts.CacheDir, err)
	}
	csvPath := filepath.Join(opts.CacheDir, CSVFileName)
	arrowPath := filepath.Join(opts.CacheDir, ArrowFileName)

	// One download at a time per cache directory.
	dlock := flock.New(csvPath+".lock", flock.SetPermissions(0o644))
	if ok, err := dlock.TryLockContext(ctx, 100*time.Millisecond); !ok {
		if err == nil {
			err = ctx.Err()
		}
		return nil, fmt.Errorf("waiting for another download into %s: %w", opts.CacheDir, err)
	}
	defer dlock.Unlock()
	// Only the lock holder creates download files: any left here come from
	// a download that was killed.
	if stale, _ := filepath.Glob(csvPath + ".download-*"); len(stale) > 0 {
		for _, p := range stale {
			os.Remove(p)
		}
	}

	body, total, err := openURL(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer body.Close()

	tmpCSV, err := os.CreateTemp(opts.CacheDir, CSVFileName+".download-*")
	if err != nil {
		return nil, fmt.Errorf("creating a temporary file in %s: %w", opts.CacheDir, err)
	}
	cleanup := []string{tmpCSV.Name()}
	defer func() {
		tmpCSV.Close()
		for _, p := range cleanup {
			os.Remove(p)
		}
	}()
	logger.Info("downloading awards CSV", "url", opts.URL, "to", tmpCSV.Name())
	n, err := copyWithProgress(ctx, tmpCSV, body, total, progress)
	if err != nil {
		return nil, describeTransferError(err, opts.URL, n, total, opts.CacheDir)
	}
	if total >= 0 && n != total {
		return nil, fmt.Errorf("download of %s cut off: got %s of %s; run the command again", opts.URL, bytesize.Approx(n), bytesize.Approx(total))
	}
	if err := tmpCSV.Sync(); err != nil {
		return nil, describeTransferError(err, opts.URL, n, total, opts.CacheDir)
	}
	if err := tmpCSV.Chmod(0o644); err != nil {
		return nil, err
	}
	if err := sniffCSV(tmpCSV, opts.URL); err != nil {
		return nil, err
	}

	// Convert before installing anything: a file that does not convert
	// never replaces good data. The Arrow file records the identity the
	// CSV will have after the rename (same content, size and mtime).
	st, err := tmpCSV.Stat()
	if err != nil {
		return nil, err
	}
	id, err := fileID(csvPath, tmpCSV, st)
	if err != nil {
		return nil, err
	}
	if _, err := tmpCSV.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	tmpArrow, err := os.CreateTemp(opts.CacheDir, ArrowFileName+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("creating a temporary file in %s: %w", opts.CacheDir, err)
	}
	cleanup = append(cleanup, tmpArrow.Name())
	defer tmpArrow.Close()
	copts := ConvertOptions{
		Logger:   logger,
		Metadata: map[string]string{MetaSource: id.String()},
		Progress: func(done, total int64) { progress(StageConvert, done, total) },
	}
	mem := &columnMemory{}
	report, err := convertTo(ctx, tmpCSV, st.Size(), tmpArrow, copts, mem)
	mem.release()
	if err == nil {
		err = syncClose(tmpArrow)
	}
	if err != nil {
		if errors.Is(err, syscall.ENOSPC) {
			return nil, diskFull(opts.CacheDir, err)
		}
		var ut *errUnterminated
		if errors.As(err, &ut) {
			return nil, fmt.Errorf("the download from %s is incomplete or damaged: %w; run the command again", opts.URL, err)
		}
		return nil, fmt.Errorf("the download from %s was not installed: %w", opts.URL, err)
	}
	if report.TruncatedLine > 0 {
		return nil, fmt.Errorf("the download from %s is incomplete: it ends in the middle of the record starting at line %d; run the command again",
			opts.URL, report.TruncatedLine)
	}
	if report.Rows == 0 {
		return nil, fmt.Errorf("%w: the download from %s holds no awards (%d records skipped); the previous data is kept", ErrNotAwardsCSV, opts.URL, report.Skipped)
	}

	// Install both files under the Arrow lock, so that Locate never pairs
	// the new CSV with a conversion of the old one.
	alock := flock.New(arrowPath+".lock", flock.SetPermissions(0o644))
	if ok, err := alock.TryLockContext(ctx, 50*time.Millisecond); !ok {
		if err == nil {
			err = ctx.Err()
		}
		return nil, fmt.Errorf("locking %s: %w", alock.Path(), err)
	}
	defer alock.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// The old Arrow file's marker goes first (durable.go): the new files
	// are synced, but their renames are not durable until the directory is.
	if err := removeMarker(arrowPath); err != nil {
		return nil, fmt.Errorf("installing %s: %w", arrowPath, err)
	}
	if err := os.Rename(tmpCSV.Name(), csvPath); err != nil {
		return nil, fmt.Errorf("installing %s: %w", csvPath, err)
	}
	if err := os.Rename(tmpArrow.Name(), arrowPath); err != nil {
		// The new CSV is in place; Locate will convert it again.
		return nil, fmt.Errorf("installing %s: %w", arrowPath, err)
	}
	// Record where the data came from, so that doctor and the kernel banner
	// call it real only when it is the SBIR program's file. Best effort: a
	// missing record only makes the description less specific.
	if err := writeFileAtomic(filepath.Join(opts.CacheDir, SourceFileName), []byte(opts.URL+"\n")); err != nil {
		logger.Warn("could not record the download's origin", "err", err)
	}
	if err := syncDirOf(arrowPath); err != nil {
		return nil, fmt.Errorf("installing %s: %w; Locate will convert it again", arrowPath, err)
	}
	ast, err := os.Stat(arrowPath)
	if err == nil {
		err = writeMarker(arrowPath, durableMarker{ArrowBytes: ast.Size(), Source: id})
	}
	if err != nil {
		if errors.Is(err, syscall.ENOSPC) {
			err = diskFull(opts.CacheDir, err)
		}
		return nil, fmt.Errorf("installing %s: %w; Locate will convert it again", arrowPath, err)
	}
	return &DownloadResult{URL: opts.URL, CSVPath: csvPath, ArrowPath: arrowPath, Bytes: n, Report: report, Elapsed: time.Since(start)}, nil
}

// openURL opens the data at opts.URL: http(s), file:// or a plain path.
// total is the expected size, or -1 if unknown.
func openURL(ctx context.Context, opts DownloadOptions) (io.ReadCloser, int64, error) {
	raw := opts.URL
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || (len(u.Scheme) == 1 && filepath.VolumeName(raw) != "") {
		return openLocal(raw)
	}
	switch u.Scheme {
	case "file":
		if u.Host != "" && u.Host != "localhost" {
			return nil, 0, fmt.Errorf("file URL %s names host %q: only local files are supported", raw, u.Host)
		}
		return openLocal(u.Path)
	case "http", "https":
	default:
		return nil, 0, fmt.Errorf("unsupported URL scheme %q in %s: use http, https, file or a local path", u.Scheme, raw)
	}
	client := opts.Client
	if client == nil {
		client = &http.Client{Transport: &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			DialContext:           (&net.Dialer{Timeout: 30 * time.Second}).DialContext,
			TLSHandshakeTimeout:   30 * time.Second,
			ResponseHeaderTimeout: 2 * time.Minute,
		}}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
	if err != nil {
		return nil, 0, fmt.Errorf("bad URL %s: %w", raw, err)
	}
	req.Header.Set("User-Agent", "sbir-kernel (+https://github.com/sbirtools/sbir-kernel)")
	resp, err := client.Do(req)
	if err != nil {
		return nil, 0, describeRequestError(err, raw)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		hint := "check the URL, or try again later"
		switch resp.StatusCode {
		case http.StatusForbidden:
			hint = "the server refused the request; the data may be temporarily unavailable — try again later or download it in a browser and run `sbir-kernel download-data FILE`"
		case http.StatusNotFound:
			hint = "the file is not at this URL; pass the current URL as an argument or set SBIR_CSV_URL"
		}
		return nil, 0, fmt.Errorf("HTTP %s from %s: %s", resp.Status, raw, hint)
	}
	return resp.Body, resp.ContentLength, nil
}

func openLocal(path string) (io.ReadCloser, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, fmt.Errorf("opening %s: %w", path, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if st.IsDir() {
		f.Close()
		return nil, 0, fmt.Errorf("%s is a directory; pass the awards CSV file", path)
	}
	return f, st.Size(), nil
}

func describeRequestError(err error, raw string) error {
	var dns *net.DNSError
	switch {
	case errors.As(err, &dns):
		return fmt.Errorf("cannot resolve %s (%w): check the network connection and DNS, or download the CSV elsewhere and run `sbir-kernel download-data FILE`", dns.Name, err)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("download of %s interrupted: %w; the previous data is kept", raw, err)
	}
	return fmt.Errorf("cannot fetch %s: %w; check the network connection or the URL", raw, err)
}

func describeTransferError(err error, raw string, n, total int64, dir string) error {
	switch {
	case errors.Is(err, syscall.ENOSPC):
		return diskFull(dir, err)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("download of %s interrupted after %s: %w; the previous data is kept", raw, bytesize.Approx(n), err)
	case errors.Is(err, io.ErrUnexpectedEOF) && total > 0:
		return fmt.Errorf("download of %s cut off: got %s of %s (%w); run the command again", raw, bytesize.Approx(n), bytesize.Approx(total), err)
	}
	return fmt.Errorf("download of %s failed after %s: %w; run the command again", raw, bytesize.Approx(n), err)
}

func diskFull(dir string, err error) error {
	return fmt.Errorf("disk full while writing to %s (%w): free about 1 GB (the CSV and its Arrow file) or set SBIR_CACHE_DIR to a disk with room", dir, err)
}

// copyWithProgress copies src to dst, reporting progress and stopping
// when ctx is cancelled.
func copyWithProgress(ctx context.Context, dst io.Writer, src io.Reader, total int64, progress func(Stage, int64, int64)) (int64, error) {
	buf := make([]byte, 1<<20)
	var n int64
	progress(StageDownload, 0, total)
	for {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		m, rerr := src.Read(buf)
		if m > 0 {
			if _, werr := dst.Write(buf[:m]); werr != nil {
				return n, werr
			}
			n += int64(m)
			progress(StageDownload, n, total)
		}
		if rerr == io.EOF {
			return n, nil
		}
		if rerr != nil {
			if ctx.Err() != nil {
				return n, ctx.Err()
			}
			return n, rerr
		}
	}
}

// sniffCSV rejects content that is obviously not a CSV (an HTML page, a
// JSON error) with a message quoting how it starts. The full header check
// happens during conversion.
func sniffCSV(f *os.File, raw string) error {
	head := make([]byte, 512)
	m, err := f.ReadAt(head, 0)
	if err != nil && err != io.EOF {
		return err
	}
	head = bytes.TrimPrefix(head[:m], []byte("\uFEFF"))
	trimmed := bytes.TrimLeft(head, " \t\r\n")
	if len(trimmed) == 0 {
		return fmt.Errorf("%w: the download from %s is empty; the previous data is kept", ErrNotAwardsCSV, raw)
	}
	if trimmed[0] == '<' || trimmed[0] == '{' || trimmed[0] == '[' {
		first, _, _ := bufio.NewReader(bytes.NewReader(trimmed)).ReadLine()
		s := truncate(strings.ToValidUTF8(string(first), "\uFFFD"), 60)
		return fmt.Errorf("%w: starts with %s (the server sent a web page or an error instead of the data; check the URL %s)", ErrNotAwardsCSV, s, raw)
	}
	return nil
}

// writeFileAtomic writes data to path through a temporary file and a rename.
func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp-*")
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
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), path)
}

// officialData reports whether a download URL is the SBIR program's own
// (data.www.sbir.gov or another sbir.gov host, over https).
func officialData(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "https" {
		return false
	}
	h := u.Hostname()
	return h == "sbir.gov" || strings.HasSuffix(h, ".sbir.gov")
}
