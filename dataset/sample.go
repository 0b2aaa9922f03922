package dataset

import _ "embed"

//go:generate go run ./internal/gensample -o sample.csv.gz

// sampleGzip is the embedded synthetic sample: Generate(SampleOptions()),
// gzip-compressed. TestEmbeddedSampleMatchesGenerator keeps it in step
// with the generator; after changing the generator run `go generate`.
//
//go:embed sample.csv.gz
var sampleGzip []byte

// SampleOptions returns the options that produced the embedded sample:
// about 2,000 synthetic awards in the current bulk-file shape.
func SampleOptions() GenerateOptions {
	return GenerateOptions{Rows: 2000, Seed: 2026, Shape: ShapeBulk42}
}
