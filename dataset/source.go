package dataset

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/bytesize"
)

// SourceKind says where the data came from.
type SourceKind int

// Where Locate found the data, in the order it looks.
const (
	SourceCSVPath    SourceKind = iota + 1 // $SBIR_CSV_PATH (Config.CSVPath)
	SourceDownloaded                       // award_data.csv in the cache directory
	SourceEmbedded                         // the synthetic sample compiled into the binary
)

// String returns how doctor and logs name the kind of source.
func (k SourceKind) String() string {
	switch k {
	case SourceCSVPath:
		return "SBIR_CSV_PATH"
	case SourceDownloaded:
		return "downloaded"
	case SourceEmbedded:
		return "embedded sample"
	}
	return "SourceKind(" + strconv.Itoa(int(k)) + ")"
}

// Source describes the data Locate chose and its current Arrow file.
type Source struct {
	Kind      SourceKind
	Synthetic bool   // true for the embedded sample
	CSVPath   string // "" for the embedded sample
	ArrowPath string // the Arrow file to map (read-only)
	CacheDir  string // the cache directory in use

	CSVSize    int64     // bytes of CSV (uncompressed, for the embedded sample)
	CSVModTime time.Time // zero for the embedded sample
	ArrowSize  int64
	Rows       int64
	Columns    int
	// URL is where download-data fetched the CSV from ("" when unknown or
	// not downloaded).
	URL    string
	Report *LoadReport // the load report stored in the Arrow file
	// Converted is true if this Locate call converted the CSV.
	Converted bool
	// Warnings are conditions worth telling the user, such as an
	// unwritable cache directory replaced by a temporary one.
	Warnings []string

	// durable is the background sync of a conversion made with
	// Config.DeferSync (nil otherwise); see WaitDurable.
	durable *durableWait
}

// Describe returns one line for banners, naming synthetic data as such:
//
//	219,500 awards from /home/me/.cache/sbir-kernel/award_data.csv (real SBIR data from https://data.www.sbir.gov/mod_awarddatapublic/award_data.csv, CSV of 2026-11-02)
//	2,000 synthetic awards (run `sbir-kernel download-data` for the real data)
func (s *Source) Describe() string {
	if s.Synthetic {
		return fmt.Sprintf("%s synthetic awards (run `%s` for the real data)", groupDigits(s.Rows), DownloadCommand)
	}
	return fmt.Sprintf("%s awards from %s (%s, CSV of %s)", groupDigits(s.Rows), s.CSVPath, s.origin(), s.CSVModTime.UTC().Format("2006-01-02"))
}

// origin says where non-sample data came from. Only a download from the
// SBIR program's own site is called real: a file:// URL or a local CSV may
// be anything, a synthetic benchmark file included.
func (s *Source) origin() string {
	switch {
	case s.Kind == SourceCSVPath:
		return "from SBIR_CSV_PATH"
	case officialData(s.URL):
		return "real SBIR data from " + s.URL
	case s.URL != "":
		return "downloaded from " + s.URL
	}
	return "downloaded, origin not recorded"
}

// WriteDoctor writes a multi-line description of the data for
// `sbir-kernel doctor`: the source in use and how to get the real data,
// rows, columns, file paths and sizes, the CSV's date and the load report.
func (s *Source) WriteDoctor(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	var kind string
	switch {
	case s.Kind == SourceEmbedded:
		kind = fmt.Sprintf("synthetic sample compiled into the binary (made-up awards); run `%s` for the real data", DownloadCommand)
	case s.Kind == SourceCSVPath:
		kind = "the CSV named by SBIR_CSV_PATH"
	case officialData(s.URL):
		kind = "real SBIR data downloaded by `" + DownloadCommand + "` from " + s.URL
	case s.URL != "":
		kind = "downloaded by `" + DownloadCommand + "` from " + s.URL + " (not the SBIR program's site: real only if that file is)"
	default:
		kind = "downloaded by `" + DownloadCommand + "`, origin not recorded"
	}
	fmt.Fprintf(tw, "data source:\t%s\n", kind)
	fmt.Fprintf(tw, "rows:\t%s\n", groupDigits(s.Rows))
	if s.Report != nil {
		fmt.Fprintf(tw, "columns:\t%d (%s header, %d CSV columns)\n", s.Columns, s.Report.HeaderShape, s.Report.CSVColumns)
	} else {
		fmt.Fprintf(tw, "columns:\t%d\n", s.Columns)
	}
	if s.CSVPath != "" {
		fmt.Fprintf(tw, "CSV:\t%s (%s, modified %s)\n", s.CSVPath, bytesize.Approx(s.CSVSize), s.CSVModTime.UTC().Format(time.DateTime+" UTC"))
	} else {
		fmt.Fprintf(tw, "CSV:\tembedded (%s uncompressed)\n", bytesize.Approx(s.CSVSize))
	}
	fmt.Fprintf(tw, "Arrow file:\t%s (%s)\n", s.ArrowPath, bytesize.Approx(s.ArrowSize))
	fmt.Fprintf(tw, "cache directory:\t%s\n", s.CacheDir)
	if s.Report != nil {
		fmt.Fprintf(tw, "load report:\t%s\n", s.Report.Summary())
	}
	for _, warn := range s.Warnings {
		fmt.Fprintf(tw, "warning:\t%s\n", warn)
	}
	return tw.Flush()
}
