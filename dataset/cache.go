package dataset

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gofrs/flock"
)

// File names in the cache directory.
const (
	// CSVFileName is the downloaded bulk CSV.
	CSVFileName = "award_data.csv"
	// ArrowFileName is the Arrow file converted from CSVFileName.
	ArrowFileName = "award_data.arrow"
	// SourceFileName records the URL download-data fetched CSVFileName from.
	SourceFileName = "award_data.source"
)

// DownloadCommand is the command that fetches the real data; descriptions
// of synthetic data name it.
const DownloadCommand = "sbir-kernel download-data"

// Config says where Locate looks for data.
type Config struct {
	// CacheDir holds the download and the Arrow files. Default (see
	// ConfigFromEnv): $SBIR_CACHE_DIR, else $XDG_CACHE_HOME/sbir-kernel,
	// else ~/.cache/sbir-kernel.
	CacheDir string
	// CSVPath is a local awards CSV to use instead of the download
	// ($SBIR_CSV_PATH). When set it wins.
	CSVPath string
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// Progress receives human-readable conversion progress lines; nil
	// keeps conversion quiet.
	Progress io.Writer
	// DeferSync lets Locate return as soon as a new Arrow file is in
	// place, before its bytes are on disk: the caller starts the sync
	// (some tenths of a second for the full data set) with
	// Source.StartSync, in the background, and must call
	// Source.WaitDurable before it exits. Another process's Locate waits
	// meanwhile. What is left of the conversion's column mappings (their
	// pages go back as the file is written) is unmapped when the sync
	// starts, not before. Without DeferSync, Locate returns when the file
	// is durable.
	DeferSync bool

	// beforeSync, if set, is called by the background sync before it
	// starts: tests stop or kill a conversion there, between the rename
	// and the marker.
	beforeSync func()
}

// ConfigFromEnv returns the configuration described by the environment,
// read through getenv (os.Getenv in production): SBIR_CACHE_DIR,
// XDG_CACHE_HOME, HOME and SBIR_CSV_PATH.
func ConfigFromEnv(getenv func(string) string) Config {
	return Config{CacheDir: defaultCacheDir(getenv), CSVPath: getenv("SBIR_CSV_PATH")}
}

func defaultCacheDir(getenv func(string) string) string {
	if d := getenv("SBIR_CACHE_DIR"); d != "" {
		return d
	}
	if d := getenv("XDG_CACHE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "sbir-kernel")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".cache", "sbir-kernel")
	}
	return ""
}

// fallbackCacheDir is used when the configured cache directory cannot be
// written.
func fallbackCacheDir() string {
	return filepath.Join(os.TempDir(), "sbir-kernel-"+strconv.Itoa(os.Getuid()))
}

// sourceID identifies the CSV an Arrow file was converted from. It is
// stored under MetaSource and compared on every Locate.
type sourceID struct {
	Path    string `json:"path,omitempty"`
	Size    int64  `json:"size"`
	ModTime int64  `json:"mtime_ns,omitempty"`
	// Digest is the SHA-256 of the first and last 64 KiB (of the whole
	// content for the embedded sample), catching a file rewritten with the
	// same size within the same modification-time tick.
	Digest string `json:"digest"`
}

func (s sourceID) String() string {
	b, _ := json.Marshal(s)
	return string(b)
}

const digestSpan = 64 << 10

func fileID(path string, f *os.File, st fs.FileInfo) (sourceID, error) {
	h := sha256.New()
	size := st.Size()
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, min(size, digestSpan))); err != nil {
		return sourceID{}, fmt.Errorf("reading %s: %w", path, err)
	}
	if size > digestSpan {
		off := max(digestSpan, size-digestSpan)
		if _, err := io.Copy(h, io.NewSectionReader(f, off, size-off)); err != nil {
			return sourceID{}, fmt.Errorf("reading %s: %w", path, err)
		}
	}
	return sourceID{Path: path, Size: size, ModTime: st.ModTime().UnixNano(), Digest: hex.EncodeToString(h.Sum(nil))}, nil
}

// Locate picks the data — Config.CSVPath, then the cached download, then
// the embedded synthetic sample — makes sure its Arrow file is current and
// says where it is. It is cheap when nothing needs converting: it maps the
// existing Arrow file and checks that it was converted, by this format
// version, from the CSV as it is now.
//
// Otherwise it converts under a file lock (two processes never convert the
// same CSV twice, the second waits and uses the first one's result), into a
// temporary file that is renamed into place, so a reader never sees a
// partial file. The file is then synced, and a marker beside it
// (award_data.arrow.synced) written once its bytes are durable; only then is
// the lock released. An Arrow file is used only with its marker, so a
// conversion killed midway, or a machine that lost power before the sync,
// leaves nothing that is used later: the next Locate converts again. With
// Config.DeferSync, Locate returns before the sync, which runs in the
// background (see Source.StartSync and WaitDurable). A truncated or
// corrupt Arrow file fails validation and is rebuilt. If the cache
// directory cannot be written, the Arrow file goes to a directory under
// os.TempDir and Source.Warnings says so.
func Locate(ctx context.Context, cfg Config) (*Source, error) {
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	cacheDir := cfg.CacheDir
	src := &Source{}
	if cacheDir == "" {
		cacheDir = fallbackCacheDir()
		src.Warnings = append(src.Warnings, "no cache directory configured (set SBIR_CACHE_DIR or HOME); using "+cacheDir)
	}
	src.CacheDir = cacheDir
	var (
		id   sourceID
		open func() (io.ReadCloser, int64, error)
	)
	switch {
	case cfg.CSVPath != "":
		src.Kind = SourceCSVPath
		path, err := filepath.Abs(cfg.CSVPath)
		if err != nil {
			return nil, fmt.Errorf("SBIR_CSV_PATH %q: %w", cfg.CSVPath, err)
		}
		src.CSVPath = path
		name := "csv-" + shortHash(path) + ".arrow"
		if filepath.Dir(path) == filepath.Clean(cacheDir) && filepath.Base(path) == CSVFileName {
			name = ArrowFileName
		}
		src.ArrowPath = filepath.Join(cacheDir, name)
		if id, err = csvFileID(path); err != nil {
			return nil, fmt.Errorf("SBIR_CSV_PATH: %w", err)
		}
	default:
		path := filepath.Join(cacheDir, CSVFileName)
		if _, err := os.Stat(path); err == nil {
			src.Kind = SourceDownloaded
			src.CSVPath = path
			if b, err := os.ReadFile(filepath.Join(cacheDir, SourceFileName)); err == nil {
				src.URL = strings.TrimSpace(string(b))
			}
			src.ArrowPath = filepath.Join(cacheDir, ArrowFileName)
			if id, err = csvFileID(path); err != nil {
				return nil, err
			}
		} else {
			src.Kind = SourceEmbedded
			src.Synthetic = true
			src.ArrowPath = filepath.Join(cacheDir, "sample-v"+strconv.Itoa(FormatVersion)+".arrow")
			sum := sha256.Sum256(sampleGzip)
			id = sourceID{Size: int64(len(sampleGzip)), Digest: hex.EncodeToString(sum[:])}
		}
	}
	if src.CSVPath != "" {
		path := src.CSVPath
		src.CSVSize = id.Size
		src.CSVModTime = time.Unix(0, id.ModTime)
		open = func() (io.ReadCloser, int64, error) {
			f, err := os.Open(path)
			if err != nil {
				return nil, 0, err
			}
			return f, id.Size, nil
		}
	} else {
		open = func() (io.ReadCloser, int64, error) {
			zr, err := gzip.NewReader(bytes.NewReader(sampleGzip))
			return zr, 0, err
		}
	}

	err := src.check(id)
	if err == nil {
		return src, nil
	}
	if errors.Is(err, ErrInvalidArrow) {
		// Changed on disk since its conversion: say so, and convert again.
		logger.Warn("the cached Arrow file is corrupt; converting the CSV again", "arrow", src.ArrowPath, "err", err)
		src.Warnings = append(src.Warnings, fmt.Sprintf("the cached Arrow file was corrupt (%v); it was converted again", err))
	}
	// Conversion needed: it requires a writable directory.
	if err := probeWritable(cacheDir); err != nil {
		alt := fallbackCacheDir()
		if filepath.Clean(alt) == filepath.Clean(cacheDir) {
			return nil, fmt.Errorf("cache directory %s is not writable: %w; set SBIR_CACHE_DIR to a writable directory", cacheDir, err)
		}
		if err2 := probeWritable(alt); err2 != nil {
			return nil, fmt.Errorf("cache directory %s is not writable (%w), nor is %s (%v); set SBIR_CACHE_DIR to a writable directory", cacheDir, err, alt, err2)
		}
		src.Warnings = append(src.Warnings, fmt.Sprintf("cache directory %s is not writable (%v); using %s", cacheDir, err, alt))
		logger.Warn("cache directory not writable; using a temporary directory", "dir", cacheDir, "err", err, "using", alt)
		src.ArrowPath = filepath.Join(alt, filepath.Base(src.ArrowPath))
		if src.check(id) == nil {
			return src, nil
		}
	}
	if err := src.convert(ctx, cfg, logger, id, open); err != nil {
		return nil, err
	}
	return src, nil
}

func csvFileID(path string) (sourceID, error) {
	f, err := os.Open(path)
	if err != nil {
		return sourceID{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return sourceID{}, err
	}
	if st.IsDir() {
		return sourceID{}, fmt.Errorf("%s is a directory, not an awards CSV", path)
	}
	return fileID(path, f, st)
}

// check returns nil when src.ArrowPath is a valid, durable Arrow file
// converted from the CSV identified by id, filling in what it learns, and
// otherwise why not: an error wrapping ErrInvalidArrow when the file is
// durable but fails validation.
func (src *Source) check(id sourceID) error {
	st, err := os.Stat(src.ArrowPath)
	if err != nil {
		return err
	}
	if !durable(src.ArrowPath, st.Size(), id) {
		return errNotDurable
	}
	return src.inspect(id)
}

// errNotDurable: an Arrow file without its marker (see durable.go).
var errNotDurable = errors.New("no durable conversion of this CSV")

// inspect validates src.ArrowPath and checks that it was converted from
// the CSV identified by id, filling in what it learns.
func (src *Source) inspect(id sourceID) error {
	d, err := OpenFile(src.ArrowPath)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Verify(); err != nil {
		return err
	}
	if got, _ := d.Metadata(MetaSource); got != id.String() {
		return fmt.Errorf("%s was converted from %s, not %s", src.ArrowPath, got, id)
	}
	src.Rows = int64(d.NumRows())
	src.Columns = len(d.Schema().Fields())
	src.Report = d.Report()
	if src.Synthetic {
		src.CSVSize = d.Report().Bytes
	}
	src.ArrowSize = int64(len(d.data))
	return nil
}

// convert rebuilds src.ArrowPath under the lock, which it holds until
// the new file is durable (see durable.go).
func (src *Source) convert(ctx context.Context, cfg Config, logger *slog.Logger, id sourceID, open func() (io.ReadCloser, int64, error)) error {
	lock, err := lockArrow(ctx, src.ArrowPath)
	if err != nil {
		return err
	}
	unlock := true
	defer func() {
		if unlock {
			lock.Unlock()
		}
	}()
	// Another process may have converted while this one waited.
	if src.check(id) == nil {
		return nil
	}
	removeStale(src.ArrowPath)
	r, size, err := open()
	if err != nil {
		return err
	}
	defer r.Close()
	tmp, err := os.CreateTemp(filepath.Dir(src.ArrowPath), filepath.Base(src.ArrowPath)+".tmp-*")
	if err != nil {
		return fmt.Errorf("creating the Arrow file: %w", err)
	}
	defer func() {
		if tmp != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	what := "the embedded sample"
	if src.CSVPath != "" {
		what = src.CSVPath
	}
	logger.Info("converting awards CSV to Arrow", "csv", what, "arrow", src.ArrowPath)
	start := time.Now()
	opts := ConvertOptions{Logger: logger, Metadata: map[string]string{MetaSource: id.String()}}
	if cfg.Progress != nil {
		opts.Progress = progressPrinter(cfg.Progress, "converting "+what, 10*time.Second)
	}
	// The columns' pages go back as the file is written (dropWriter); their
	// mappings go with the sync (below), once the caller is past its
	// worker's start: unmapping them takes the process's mmap lock, which
	// check and fork both wait on. Unmapping all ~400 MB there cost the
	// worker's start ~25 ms; what is left after the write still ~3 ms.
	mem := &columnMemory{}
	releaseMem := true
	defer func() {
		if releaseMem {
			mem.release()
		}
	}()
	report, err := convertTo(ctx, r, size, tmp, opts, mem)
	if err != nil {
		return src.convertFailed(what, err)
	}
	written := time.Now()
	if err := src.install(tmp.Name(), id); err != nil {
		return err
	}
	f := tmp
	tmp = nil
	if err := src.inspect(id); err != nil {
		f.Close()
		return fmt.Errorf("the Arrow file written by this conversion does not validate: %w", err)
	}
	src.Converted = true
	if cfg.Progress != nil {
		fmt.Fprintf(cfg.Progress, "converted %s rows to %s in %.1fs\n", groupDigits(report.Rows), src.ArrowPath, time.Since(start).Seconds())
	}
	logger.Debug("converted awards CSV", "rows", report.Rows, "convert", written.Sub(start), "install", time.Since(written))

	// The lock now belongs to the sync.
	unlock = false
	releaseMem = false
	src.syncInBackground(f, lock, mem, cfg, logger, id)
	if !cfg.DeferSync {
		return src.WaitDurable(ctx)
	}
	return nil
}

// lockArrow takes the lock that one conversion of arrowPath at a time
// holds, waiting for it as long as ctx allows.
func lockArrow(ctx context.Context, arrowPath string) (*flock.Flock, error) {
	lock := flock.New(arrowPath+".lock", flock.SetPermissions(0o644))
	locked, err := lock.TryLockContext(ctx, 50*time.Millisecond)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", lock.Path(), err)
	}
	if !locked {
		return nil, fmt.Errorf("locking %s: %w", lock.Path(), ctx.Err())
	}
	return lock, nil
}

// removeStale removes the temporary files of earlier conversions of
// arrowPath. Only the lock holder creates them, so any left come from a
// conversion that was killed.
func removeStale(arrowPath string) {
	stale, _ := filepath.Glob(arrowPath + ".tmp-*")
	for _, p := range stale {
		os.Remove(p)
	}
}

// convertFailed explains why converting what (a CSV path or the
// embedded sample) failed, and what to do.
func (src *Source) convertFailed(what string, err error) error {
	if errors.Is(err, syscall.ENOSPC) {
		return diskFull(filepath.Dir(src.ArrowPath), err)
	}
	if src.Kind == SourceDownloaded {
		return fmt.Errorf("converting %s: %w; run `%s` again, or remove the file to use the built-in sample", what, err, DownloadCommand)
	}
	return fmt.Errorf("converting %s: %w", what, err)
}

// install renames the converted file tmpName over src.ArrowPath, unmarked
// (not yet durable), once sure that the CSV, id, did not change while it
// was read.
func (src *Source) install(tmpName string, id sourceID) error {
	if src.CSVPath != "" {
		now, err := csvFileID(src.CSVPath)
		if err != nil {
			return err
		}
		if now != id {
			return fmt.Errorf("%s changed while it was being converted; run the command again", src.CSVPath)
		}
	}
	if err := removeMarker(src.ArrowPath); err != nil {
		return fmt.Errorf("installing the Arrow file: %w", err)
	}
	if err := os.Rename(tmpName, src.ArrowPath); err != nil {
		return fmt.Errorf("installing the Arrow file: %w", err)
	}
	return nil
}

// syncInBackground hands the conversion's lock, the installed file f and
// the columns' memory to the sync (see durable.go), which releases them:
// whoever waits for the lock finds the file durable, or not marked and
// converts it again.
func (src *Source) syncInBackground(f *os.File, lock *flock.Flock, mem *columnMemory, cfg Config, logger *slog.Logger, id sourceID) {
	src.durable = newDurableWait(func() error {
		mem.release()
		if cfg.beforeSync != nil {
			cfg.beforeSync()
		}
		start := time.Now()
		err := makeDurable(f, src.ArrowPath, id)
		f.Close()
		lock.Unlock()
		if err != nil {
			if errors.Is(err, syscall.ENOSPC) {
				err = diskFull(filepath.Dir(src.ArrowPath), err)
			}
			err = fmt.Errorf("syncing the Arrow file %s to disk: %w; it is used now, but converted again next time", src.ArrowPath, err)
			logger.Warn("Arrow file not durable", "err", err)
			return err
		}
		logger.Debug("Arrow file durable", "arrow", src.ArrowPath, "sync", time.Since(start))
		return nil
	})
}

// probeWritable creates dir if needed and checks that files can be
// created in it.
func probeWritable(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		return err
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:8])
}
