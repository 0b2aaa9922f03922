// Package bench holds the comparison benchmark of sbir-kernel against
// ipykernel + pandas, DuckDB and Polars (compare.sh, compare.py,
// engines.mjs; results in docs/performance.md) and the test that runs it
// on a small file in CI, so that it cannot rot.
package bench
