// Command gensample writes the synthetic sample embedded in package
// dataset: the output of dataset.Generate with dataset.SampleOptions,
// gzip-compressed. It is run by `go generate` in the dataset directory.
package main

import (
	"compress/gzip"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sbirtools/sbir-kernel/dataset"
)

func main() {
	out := flag.String("o", "sample.csv.gz", "output file")
	flag.Parse()
	if err := write(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gensample:", err)
		os.Exit(1)
	}
}

// write generates the sample into a temporary file and renames it over
// out, so an interrupted run never leaves a partial sample behind.
func write(out string) error {
	tmp, err := os.CreateTemp(filepath.Dir(out), ".sample-*.gz")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	zw, err := gzip.NewWriterLevel(tmp, gzip.BestCompression)
	if err != nil {
		return err
	}
	if err := dataset.Generate(zw, dataset.SampleOptions()); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), out)
}
