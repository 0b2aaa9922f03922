// Package celldata maps the awards data into a compiled cell's program
// that uses award_data. cellprep imports it, for its init alone, into
// those programs only: the others link neither award_data nor arrow-go
// and its dependencies, which take a third of a warm build's link and of
// the binary. Its init runs after cellrt's (it imports cellrt), which
// left room for the mapping in the address-space limit, and before any of
// the cell's code (package main is initialised last).
//
// Linked anywhere else than in a compiled cell's program it does nothing.
package celldata

import (
	"fmt"
	"os"

	award_data "github.com/sbirtools/sbir-kernel/award_data"
	"github.com/sbirtools/sbir-kernel/dataset"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/cellrt"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
	"golang.org/x/sys/unix"
)

func init() {
	if !cellrt.Active() {
		return
	}
	if err := open(); err != nil {
		// Standard error as the process started with it: the supervisor
		// reads it when the program ends without a result.
		fmt.Fprintln(os.NewFile(2, "/dev/stderr"), "sbir-kernel: the compiled cell's runtime could not start:", err)
		os.Exit(wire.ExitSetup)
	}
}

// open maps the data the supervisor passed as wire.DataFD, when it passed
// one, hands it to award_data and sets the rows results carry as records.
func open() error {
	var st unix.Stat_t
	if unix.Fstat(wire.DataFD, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFREG {
		f := os.NewFile(wire.DataFD, "the awards data")
		defer f.Close()
		d, err := dataset.Open(f, "the awards data")
		if err != nil {
			return fmt.Errorf("opening the data: %w", err)
		}
		if err := award_data.Use(d); err != nil {
			return fmt.Errorf("loading the data into award_data: %w", err)
		}
	}
	if w := cellrt.Rows(); w != nil {
		if err := award_data.SetRecordWindow(w.Offset, w.Limit); err != nil {
			return err
		}
	}
	return nil
}
