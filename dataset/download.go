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
	d, err := newDownload(opts)
	if err != nil {
		return nil, err
	}
	// One download at a time per cache directory.
	unlock, err := lockFile(ctx, d.csvPath+".lock", 100*time.Millisecond, "waiting for another download into "+d.opts.CacheDir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	defer d.cleanup()
	// Only the lock holder creates download files: any left here come from
	// a download that was killed.
	if stale, _ := filepath.Glob(d.csvPath + ".download-*"); len(stale) > 0 {
		for _, p := range stale {
			os.Remove(p)
		}
	}
	n, err := d.fetch(ctx)
	if err != nil {
		return nil, err
	}
	report, id, err := d.convert(ctx)
	if err != nil {
		return nil, err
	}
	if err := d.install(ctx, id); err != nil {
		return nil, err
	}
	return &DownloadResult{URL: d.opts.URL, CSVPath: d.csvPath, ArrowPath: d.arrowPath, Bytes: n, Report: report, Elapsed: time.Since(start)}, nil
}

// download is one Download in progress: its options with their defaults,
// where its files go, and the temporary files it removes at the end.
type download struct {
	opts      DownloadOptions
	logger    *slog.Logger
	progress  func(stage Stage, done, total int64)
	csvPath   string
	arrowPath string
	tmpCSV    *os.File
	tmpArrow  *os.File
	temps     []string // removed by cleanup, unless installed
}

// newDownload checks opts and fills in their defaults.
func newDownload(opts DownloadOptions) (*download, error) {
	d := &download{opts: opts, logger: opts.Logger, progress: opts.Progress}
	if d.logger == nil {
		d.logger = slog.New(slog.DiscardHandler)
	}
	if d.opts.URL == "" {
		d.opts.URL = DefaultURL
	}
	if d.opts.CacheDir == "" {
		return nil, errors.New("no cache directory: set SBIR_CACHE_DIR or HOME")
	}
	if d.progress == nil {
		d.progress = func(Stage, int64, int64) {}
	}
	if err := probeWritable(d.opts.CacheDir); err != nil {
		return nil, fmt.Errorf("cannot write to the cache directory %s: %w; set SBIR_CACHE_DIR to a writable directory", d.opts.CacheDir, err)
	}
	d.csvPath = filepath.Join(d.opts.CacheDir, CSVFileName)
	d.arrowPath = filepath.Join(d.opts.CacheDir, ArrowFileName)
	return d, nil
}

// lockFile takes the file lock at path, polling every poll until ctx
// ends; what names the wait in the error.
func lockFile(ctx context.Context, path string, poll time.Duration, what string) (unlock func(), err error) {
	l := flock.New(path, flock.SetPermissions(0o644))
	if ok, err := l.TryLockContext(ctx, poll); !ok {
		if err == nil {
			err = ctx.Err()
		}
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return func() { l.Unlock() }, nil
}

// cleanup closes the temporary files and removes those not installed.
func (d *download) cleanup() {
	for _, f := range []*os.File{d.tmpCSV, d.tmpArrow} {
		if f != nil {
			f.Close()
		}
	}
	for _, p := range d.temps {
		os.Remove(p)
	}
}

// fetch streams the CSV into a temporary file and checks it: the length
// announced, that it is durable, and that it looks like the awards CSV.
// It returns its size.
func (d *download) fetch(ctx context.Context) (int64, error) {
	body, total, err := openURL(ctx, d.opts)
	if err != nil {
		return 0, err
	}
	defer body.Close()
	if d.tmpCSV, err = os.CreateTemp(d.opts.CacheDir, CSVFileName+".download-*"); err != nil {
		return 0, fmt.Errorf("creating a temporary file in %s: %w", d.opts.CacheDir, err)
	}
	d.temps = append(d.temps, d.tmpCSV.Name())
	d.logger.Info("downloading awards CSV", "url", d.opts.URL, "to", d.tmpCSV.Name())
	n, err := copyWithProgress(ctx, d.tmpCSV, body, total, d.progress)
	if err != nil {
		return n, describeTransferError(err, d.opts.URL, n, total, d.opts.CacheDir)
	}
	if total >= 0 && n != total {
		return n, fmt.Errorf("download of %s cut off: got %s of %s; run the command again", d.opts.URL, bytesize.Approx(n), bytesize.Approx(total))
	}
	if err := d.tmpCSV.Sync(); err != nil {
		return n, describeTransferError(err, d.opts.URL, n, total, d.opts.CacheDir)
	}
	if err := d.tmpCSV.Chmod(0o644); err != nil {
		return n, err
	}
	return n, sniffCSV(d.tmpCSV, d.opts.URL)
}

// convert converts the fetched CSV into a temporary Arrow file, before
// anything is installed: a file that does not convert never replaces good
// data. The Arrow file records id, the identity the CSV will have after
// its rename (same content, size and mtime).
func (d *download) convert(ctx context.Context) (report *LoadReport, id sourceID, err error) {
	st, err := d.tmpCSV.Stat()
	if err != nil {
		return nil, id, err
	}
	if id, err = fileID(d.csvPath, d.tmpCSV, st); err != nil {
		return nil, id, err
	}
	if _, err := d.tmpCSV.Seek(0, io.SeekStart); err != nil {
		return nil, id, err
	}
	if d.tmpArrow, err = os.CreateTemp(d.opts.CacheDir, ArrowFileName+".tmp-*"); err != nil {
		return nil, id, fmt.Errorf("creating a temporary file in %s: %w", d.opts.CacheDir, err)
	}
	d.temps = append(d.temps, d.tmpArrow.Name())
	copts := ConvertOptions{
		Logger:   d.logger,
		Metadata: map[string]string{MetaSource: id.String()},
		Progress: func(done, total int64) { d.progress(StageConvert, done, total) },
	}
	mem := &columnMemory{}
	report, err = convertTo(ctx, d.tmpCSV, st.Size(), d.tmpArrow, copts, mem)
	mem.release()
	if err == nil {
		err = syncClose(d.tmpArrow)
	}
	if err != nil {
		return nil, id, d.convertError(err)
	}
	if report.TruncatedLine > 0 {
		return nil, id, fmt.Errorf("the download from %s is incomplete: it ends in the middle of the record starting at line %d; run the command again",
			d.opts.URL, report.TruncatedLine)
	}
	if report.Rows == 0 {
		return nil, id, fmt.Errorf("%w: the download from %s holds no awards (%d records skipped); the previous data is kept", ErrNotAwardsCSV, d.opts.URL, report.Skipped)
	}
	return report, id, nil
}

// convertError says why a downloaded CSV did not convert.
func (d *download) convertError(err error) error {
	if errors.Is(err, syscall.ENOSPC) {
		return diskFull(d.opts.CacheDir, err)
	}
	var ut *errUnterminated
	if errors.As(err, &ut) {
		return fmt.Errorf("the download from %s is incomplete or damaged: %w; run the command again", d.opts.URL, err)
	}
	return fmt.Errorf("the download from %s was not installed: %w", d.opts.URL, err)
}

// install renames the CSV and the Arrow file into place under the Arrow
// lock, so that Locate never pairs the new CSV with a conversion of the
// old one, records where they came from, and marks the Arrow file durable
// (durable.go).
func (d *download) install(ctx context.Context, id sourceID) error {
	unlock, err := lockFile(ctx, d.arrowPath+".lock", 50*time.Millisecond, "locking "+d.arrowPath+".lock")
	if err != nil {
		return err
	}
	defer unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	// The old Arrow file's marker goes first: the new files are synced,
	// but their renames are not durable until the directory is.
	if err := removeMarker(d.arrowPath); err != nil {
		return fmt.Errorf("installing %s: %w", d.arrowPath, err)
	}
	if err := os.Rename(d.tmpCSV.Name(), d.csvPath); err != nil {
		return fmt.Errorf("installing %s: %w", d.csvPath, err)
	}
	if err := os.Rename(d.tmpArrow.Name(), d.arrowPath); err != nil {
		// The new CSV is in place; Locate will convert it again.
		return fmt.Errorf("installing %s: %w", d.arrowPath, err)
	}
	// Record where the data came from, so that doctor and the kernel banner
	// call it real only when it is the SBIR program's file. Best effort: a
	// missing record only makes the description less specific.
	if err := writeFileAtomic(filepath.Join(d.opts.CacheDir, SourceFileName), []byte(d.opts.URL+"\n")); err != nil {
		d.logger.Warn("could not record the download's origin", "err", err)
	}
	if err := syncDirOf(d.arrowPath); err != nil {
		return fmt.Errorf("installing %s: %w; Locate will convert it again", d.arrowPath, err)
	}
	ast, err := os.Stat(d.arrowPath)
	if err == nil {
		err = writeMarker(d.arrowPath, durableMarker{ArrowBytes: ast.Size(), Source: id})
	}
	if err != nil {
		if errors.Is(err, syscall.ENOSPC) {
			err = diskFull(d.opts.CacheDir, err)
		}
		return fmt.Errorf("installing %s: %w; Locate will convert it again", d.arrowPath, err)
	}
	return nil
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
