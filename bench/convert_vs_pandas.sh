#!/bin/sh
# convert_vs_pandas.sh: CSV → Arrow conversion (package dataset) against
# pandas.read_csv on the same full-scale file, in one run.
#
# Usage: bench/convert_vs_pandas.sh [CSV]
#
# CSV defaults to $SBIR_BENCH_CSV; if neither is given, a full-scale synthetic
# file (219,500 rows, ~390 MB) is generated with `sbir-kernel generate-data`
# into a temporary directory. Needs Go and Debian's python3-pandas
# (/usr/bin/python3). Prints best-of-N wall times, peak memory and the ratio.
# Run it on an otherwise idle machine: the numbers are wall-clock times.
set -eu

ROUNDS=${ROUNDS:-3}
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/sbir-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

if ! /usr/bin/python3 -c 'import pandas' 2>/dev/null; then
	echo "pandas is missing: apt-get install python3-pandas" >&2
	exit 1
fi

csv=${1:-${SBIR_BENCH_CSV:-}}
if [ -z "$csv" ]; then
	echo "generating a full-scale synthetic CSV..." >&2
	(cd "$repo" && go run . generate-data -rows 219500 -seed 1 -o "$work/award_data.csv")
	csv=$work/award_data.csv
fi
size=$(stat -c %s "$csv")
echo "input: $csv ($size bytes)"
cat "$csv" >/dev/null # both sides read from the page cache

# Go: the conversion benchmark, alone in its process so that peak-RSS-MB is
# the conversion's own peak.
(cd "$repo" && go test -c -o "$work/dataset.test" ./dataset)
go_out=$(SBIR_BENCH_CSV="$csv" "$work/dataset.test" -test.run '^$' \
	-test.bench '^BenchmarkConvertFullScale$' -test.benchtime "${ROUNDS}x" -test.count 1)
echo "$go_out" | grep Benchmark
go_ns=$(echo "$go_out" | awk '/^BenchmarkConvertFullScale/ {print $3}')
go_rss=$(echo "$go_out" | awk '/^BenchmarkConvertFullScale/ {for (i=1;i<=NF;i++) if ($i=="peak-RSS-MB") print $(i-1)}')
open_out=$(SBIR_BENCH_CSV="$csv" "$work/dataset.test" -test.run '^$' \
	-test.bench '^BenchmarkOpen$' -test.benchtime 200x -test.count 1)
echo "$open_out" | grep Benchmark

# pandas: read_csv with its defaults (type inference, C parser), best of ROUNDS.
py_out=$(/usr/bin/python3 - "$csv" "$ROUNDS" <<'PY'
import resource, sys, time
import pandas as pd
path, rounds = sys.argv[1], int(sys.argv[2])
best = None
for _ in range(rounds):
    t = time.perf_counter()
    df = pd.read_csv(path)
    dt = time.perf_counter() - t
    best = dt if best is None else min(best, dt)
    rows = len(df)
    del df
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{best:.3f} {peak:.0f} {rows} {pd.__version__}")
PY
)
set -- $py_out
py_s=$1 py_rss=$2 py_rows=$3 py_ver=$4

awk -v g="$go_ns" -v gr="$go_rss" -v p="$py_s" -v pr="$py_rss" -v rows="$py_rows" -v ver="$py_ver" 'BEGIN {
	gs = g / 1e9
	printf "\n%-28s %10s %14s\n", "", "wall (s)", "peak RSS (MB)"
	printf "%-28s %10.2f %14.0f\n", "sbir-kernel Convert", gs, gr
	printf "%-28s %10.2f %14.0f\n", "pandas " ver " read_csv", p, pr
	printf "\nrows (pandas): %d; Convert is %.1fx faster than pandas.read_csv\n", rows, p / gs
}'
