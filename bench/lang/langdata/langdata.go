// Package langdata gives the language benchmarks (bench/lang) their
// inputs outside the kernel: the compiled build of a program gets the
// awards data the kernel's worker gives cells, and the Python version
// gets the same lists of strings, written as JSON.
//
// Both read the data the kernel would: SBIR_CSV_PATH and SBIR_CACHE_DIR
// (dataset.ConfigFromEnv), converted to the Arrow file on first use.
package langdata

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/sbirtools/sbir-kernel/award_data"
	"github.com/sbirtools/sbir-kernel/dataset"
)

// Use opens the awards data the environment names and makes it the data
// of award_data's package-level functions, as the worker does before a
// cell runs. The data stays mapped until the process exits.
func Use(ctx context.Context) error {
	src, err := dataset.Locate(ctx, dataset.ConfigFromEnv(os.Getenv))
	if err != nil {
		return fmt.Errorf("langdata: %w", err)
	}
	d, err := dataset.OpenFile(src.ArrowPath)
	if err != nil {
		return fmt.Errorf("langdata: %w", err)
	}
	if err := award_data.Use(d); err != nil {
		d.Close()
		return fmt.Errorf("langdata: %w", err)
	}
	return nil
}

// Inputs are the lists the programs read from award_data, under the keys
// their Python versions read from the JSON file. The queries are the
// programs' own.
type Inputs struct {
	// Abstracts are the first 50,000 abstracts (wordcount).
	Abstracts []string `json:"abstracts"`
	// DoDAbstracts are the Department of Defense's abstracts (fieldsfunc,
	// textmining).
	DoDAbstracts []string `json:"dod_abstracts"`
	// Titles are every award's title (apply).
	Titles []string `json:"titles"`
}

// Read returns the inputs from the data award_data uses (see Use).
func Read() Inputs {
	return Inputs{
		Abstracts:    award_data.Head(50_000).Strings("Abstract"),
		DoDAbstracts: award_data.Where("Agency", "==", "Department of Defense").Strings("Abstract"),
		Titles:       award_data.Strings("Award Title"),
	}
}

// Write writes in as JSON to w.
func (in Inputs) Write(w io.Writer) error {
	return json.NewEncoder(w).Encode(in)
}
