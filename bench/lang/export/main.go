// Command export writes the inputs of the Python versions of the
// language benchmarks (langdata.Inputs) as JSON to the file named by its
// argument, from the awards data SBIR_CSV_PATH and SBIR_CACHE_DIR name.
// bench/lang.sh runs it; by hand:
//
//	SBIR_CSV_PATH=/tmp/awards.csv go run ./bench/lang/export /tmp/inputs.json
package main

import (
	"bufio"
	"context"
	"fmt"
	"os"

	"github.com/sbirtools/sbir-kernel/bench/lang/langdata"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: export FILE.json")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "export:", err)
		os.Exit(1)
	}
}

func run(path string) error {
	if err := langdata.Use(context.Background()); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := langdata.Read().Write(w); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
