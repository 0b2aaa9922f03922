// Package bench holds the comparison benchmark of sbir-kernel against
// ipykernel + pandas, DuckDB and Polars (compare.sh, compare.py,
// engines.mjs; results in docs/performance.md) and the test that runs it
// on a small file in CI, so that it cannot rot. Smaller scripts look
// closer at one row: output_dist.py (the output cells' distribution,
// kernels taking turns), coldload.py (CSV to first answer on an empty
// cache, binaries taking turns, with pauses that let a VM hand the freed
// memory back to its host), client_decode.py (jupyter_client's own
// decoding cost), flood.py, scale.py and mcp_sessions.py. procfs.py holds
// what the scripts read from /proc and /sys.
//
// lang.sh and lang.py compare Go as a language: the programs of
// bench/lang (each a Go program and the same algorithm in Python) run
// through the kernel's interpreter, CPython and gc in one run, with every
// ratio; TestLangSmall runs them at their small sizes in CI.
// BenchmarkLang in sandbox/internal/worker runs the same programs in an
// in-process interpreter, for profiles.
package bench
