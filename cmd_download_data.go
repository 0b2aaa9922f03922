package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/sbirtools/sbir-kernel/dataset"
)

func cmdDownloadData(ctx context.Context, env *cliEnv, args []string) error {
	fs, apply := newFlagSet(env, "download-data", "[URL|FILE]", `
Download the SBIR/STTR awards CSV into the cache directory and convert it to
Arrow. The source is the argument if given, else $SBIR_CSV_URL, else
`+dataset.DefaultURL+`.
http(s) URLs, file:// URLs and local paths are accepted.

The download goes to a temporary file and replaces the cached data only once
it is complete and converts cleanly: an error page, a truncated file or
Ctrl-C leave the previous data intact.

Environment: SBIR_CACHE_DIR (default $XDG_CACHE_HOME/sbir-kernel or
~/.cache/sbir-kernel), SBIR_CSV_URL.`)
	quiet := fs.Bool("q", false, "print no progress, only the result")
	if err := parseFlags(fs, apply, args); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return usageError{fmt.Sprintf("unexpected argument %q: give at most one URL or file", fs.Arg(1))}
	}
	src := fs.Arg(0)
	if src == "" {
		src = env.Getenv("SBIR_CSV_URL")
	}
	cfg := dataset.ConfigFromEnv(env.Getenv)
	if cfg.CacheDir == "" {
		return fmt.Errorf("no cache directory: set SBIR_CACHE_DIR (or HOME)")
	}

	// Ctrl-C cancels the download cleanly; the previous data stays.
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()

	var progress func(dataset.Stage, int64, int64)
	if !*quiet {
		progress = newDownloadProgress(env.Stderr, isTerminal(env.Stderr))
	}
	res, err := dataset.Download(ctx, dataset.DownloadOptions{
		URL:      src,
		CacheDir: cfg.CacheDir,
		Progress: progress,
		Logger:   env.Logger,
	})
	if progress != nil {
		progress("", 0, 0) // finish any progress bar
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "downloaded %s from %s in %.1fs\n", formatMB(res.Bytes), res.URL, res.Elapsed.Seconds())
	fmt.Fprintf(env.Stdout, "CSV:   %s\nArrow: %s\n", res.CSVPath, res.ArrowPath)
	fmt.Fprintf(env.Stdout, "load report: %s\n", res.Report.Summary())
	if p := env.Getenv("SBIR_CSV_PATH"); p != "" {
		fmt.Fprintf(env.Stderr, "note: SBIR_CSV_PATH=%s is set and takes precedence over the downloaded data\n", p)
	}
	return nil
}

func formatMB(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }

// isTerminal reports whether w is a terminal (progress bars are drawn only
// there; elsewhere progress is printed as plain lines).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// newDownloadProgress returns a dataset.DownloadOptions.Progress function:
// a progress bar with bytes, rate and ETA on a terminal, otherwise a plain
// line every 10 seconds and at the end of each stage. Calling it with an
// empty stage finishes the current bar.
func newDownloadProgress(w io.Writer, terminal bool) func(dataset.Stage, int64, int64) {
	var (
		mu       sync.Mutex
		stage    dataset.Stage
		bar      *progressbar.ProgressBar
		lastLine time.Time
	)
	describe := map[dataset.Stage]string{dataset.StageDownload: "downloading", dataset.StageConvert: "converting to Arrow"}
	return func(s dataset.Stage, done, total int64) {
		mu.Lock()
		defer mu.Unlock()
		if s != stage {
			if bar != nil {
				bar.Finish()
				bar = nil
			}
			stage = s
			lastLine = time.Time{}
			if s == "" {
				return
			}
			if terminal {
				limit := total
				if limit <= 0 {
					limit = -1 // unknown size: a spinner with bytes and rate
				}
				bar = progressbar.NewOptions64(limit,
					progressbar.OptionSetWriter(w),
					progressbar.OptionSetDescription(describe[s]),
					progressbar.OptionShowBytes(true),
					progressbar.OptionShowTotalBytes(true),
					progressbar.OptionShowCount(),
					progressbar.OptionSetPredictTime(true),
					progressbar.OptionSetWidth(30),
					progressbar.OptionThrottle(100*time.Millisecond),
					progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }),
				)
			}
		}
		if s == "" {
			return
		}
		if bar != nil {
			bar.Set64(done)
			return
		}
		now := time.Now()
		finished := total > 0 && done >= total
		if !finished && !lastLine.IsZero() && now.Sub(lastLine) < 10*time.Second {
			return
		}
		if lastLine.IsZero() && done == 0 {
			lastLine = now
			fmt.Fprintf(w, "%s…\n", describe[s])
			return
		}
		lastLine = now
		if total > 0 {
			fmt.Fprintf(w, "%s: %s of %s (%d%%)\n", describe[s], formatMB(done), formatMB(total), done*100/total)
		} else {
			fmt.Fprintf(w, "%s: %s\n", describe[s], formatMB(done))
		}
	}
}
