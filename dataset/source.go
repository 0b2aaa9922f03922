package dataset

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"
)

// Describe returns one line for banners, naming synthetic data as such:
//
//	219,500 awards from /home/me/.cache/sbir-kernel/award_data.csv (real data, CSV of 2026-11-02)
//	2,000 synthetic awards (run `sbir-kernel download-data` for the real data)
func (s *Source) Describe() string {
	if s.Synthetic {
		return fmt.Sprintf("%s synthetic awards (run `%s` for the real data)", groupDigits(s.Rows), DownloadCommand)
	}
	return fmt.Sprintf("%s awards from %s (real data, CSV of %s)", groupDigits(s.Rows), s.CSVPath, s.CSVModTime.UTC().Format("2006-01-02"))
}

// WriteDoctor writes a multi-line description of the data for
// `sbir-kernel doctor`: the source in use and how to get the real data,
// rows, columns, file paths and sizes, the CSV's date and the load report.
func (s *Source) WriteDoctor(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	kind := "real data"
	switch s.Kind {
	case SourceEmbedded:
		kind = fmt.Sprintf("synthetic sample compiled into the binary (made-up awards); run `%s` for the real data", DownloadCommand)
	case SourceCSVPath:
		kind = "real data from SBIR_CSV_PATH"
	case SourceDownloaded:
		kind = fmt.Sprintf("real data downloaded by `%s`", DownloadCommand)
	}
	fmt.Fprintf(tw, "data source:\t%s\n", kind)
	fmt.Fprintf(tw, "rows:\t%s\n", groupDigits(s.Rows))
	if s.Report != nil {
		fmt.Fprintf(tw, "columns:\t%d (%s header, %d CSV columns)\n", s.Columns, s.Report.HeaderShape, s.Report.CSVColumns)
	} else {
		fmt.Fprintf(tw, "columns:\t%d\n", s.Columns)
	}
	if s.CSVPath != "" {
		fmt.Fprintf(tw, "CSV:\t%s (%s, modified %s)\n", s.CSVPath, formatBytes(s.CSVSize), s.CSVModTime.UTC().Format(time.DateTime+" UTC"))
	} else {
		fmt.Fprintf(tw, "CSV:\tembedded (%s uncompressed)\n", formatBytes(s.CSVSize))
	}
	fmt.Fprintf(tw, "Arrow file:\t%s (%s)\n", s.ArrowPath, formatBytes(s.ArrowSize))
	fmt.Fprintf(tw, "cache directory:\t%s\n", s.CacheDir)
	if s.Report != nil {
		fmt.Fprintf(tw, "load report:\t%s\n", s.Report.Summary())
	}
	for _, warn := range s.Warnings {
		fmt.Fprintf(tw, "warning:\t%s\n", warn)
	}
	return tw.Flush()
}
