package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sbirtools/sbir-kernel/dataset"
)

func cmdGenerateData(ctx context.Context, env *cliEnv, args []string) error {
	fs, apply := newFlagSet(env, "generate-data", "", `
Write a synthetic SBIR awards CSV: made-up awards with the distributions and
quirks of the real file (multi-line abstracts, placeholders, sparse dates,
CR LF line ends; with -shape 41 also M/D/YYYY dates, formatted amounts and
invalid UTF-8). The same flags always produce the same file.

For benchmarks, write a full-scale file (219,500 rows, about 390 MB):

    sbir-kernel generate-data -rows 219500 -o /tmp/award_data.csv

and use it with SBIR_CSV_PATH=/tmp/award_data.csv or SBIR_BENCH_CSV.`)
	rows := fs.Int("rows", 2000, "number of awards to write (219500 for full scale)")
	seed := fs.Uint64("seed", 1, "random seed")
	shape := fs.String("shape", "42", "header shape: 42 (current bulk file) or 41 (older exports, no UEI)")
	bom := fs.Bool("bom", false, "start the file with a UTF-8 byte order mark")
	out := fs.String("o", "-", "output file, - for standard output")
	if err := parseFlags(fs, apply, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	if *rows < 0 {
		return usageError{fmt.Sprintf("-rows %d: must not be negative", *rows)}
	}
	opts := dataset.GenerateOptions{Rows: *rows, Seed: *seed, BOM: *bom}
	switch *shape {
	case "42":
		opts.Shape = dataset.ShapeBulk42
	case "41":
		opts.Shape = dataset.ShapeLegacy41
	default:
		return usageError{fmt.Sprintf("-shape %q: use 42 or 41", *shape)}
	}
	if *out == "-" {
		w := bufio.NewWriter(env.Stdout)
		if err := dataset.Generate(w, opts); err != nil {
			return err
		}
		return w.Flush()
	}
	// Write next to the destination and rename, so an interrupted run
	// leaves no partial file under the requested name.
	tmp, err := os.CreateTemp(filepath.Dir(*out), filepath.Base(*out)+".tmp-*")
	if err != nil {
		return fmt.Errorf("creating %s: %w", *out, err)
	}
	defer os.Remove(tmp.Name())
	if err := dataset.Generate(tmp, opts); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", *out, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", *out, err)
	}
	if err := os.Rename(tmp.Name(), *out); err != nil {
		return fmt.Errorf("writing %s: %w", *out, err)
	}
	st, err := os.Stat(*out)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "wrote %d synthetic awards (%s) to %s\n", *rows, formatMB(st.Size()), *out)
	return nil
}
