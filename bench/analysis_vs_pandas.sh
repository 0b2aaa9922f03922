#!/bin/sh
# analysis_vs_pandas.sh: the issue-6 analysis questions timed in award_data (compiled Go,
# and as cells through a sandbox Session) and in pandas, on the same full-scale CSV, in
# one run. Prints one table with both timings and the ratio.
#
# Usage: bench/analysis_vs_pandas.sh            (from the repository root)
# Env:   SBIR_BENCH_DIR  where the generated 219,500-award CSV and its Arrow file are
#                        cached (default /tmp/sbir-bench); the Go benchmarks create them.
#        COUNT           Go benchmark repetitions (default 5); pandas repeats each question
#                        as often; both report the median and the best run.
# Needs: go, /usr/bin/python3 with pandas (Debian: apt-get install python3-pandas).
set -eu
cd "$(dirname "$0")/.."
dir=${SBIR_BENCH_DIR:-/tmp/sbir-bench}
count=${COUNT:-5}
export SBIR_BENCH_DIR="$dir"

if ! /usr/bin/python3 -c 'import pandas' 2>/dev/null; then
	echo "analysis_vs_pandas: /usr/bin/python3 cannot import pandas; install python3-pandas" >&2
	exit 2
fi

gobench=$(mktemp)
trap 'rm -f "$gobench"' EXIT
echo "running the Go benchmarks (generates $dir/awards.csv on first use)..." >&2
go test ./sandbox/awarddata/ -run '^$' -bench 'Direct|Session' -benchtime 10x -count "$count" >"$gobench"

/usr/bin/python3 - "$dir/awards.csv" "$gobench" "$count" <<'PY'
import re, statistics, sys, time
import pandas as pd

csv_path, gobench, count = sys.argv[1], sys.argv[2], int(sys.argv[3])

# Go: ns/op of each benchmark over the repetitions.
runs = {}
for line in open(gobench):
    m = re.match(r"Benchmark(Direct|Session)/(\w+)-\d+\s+\d+\s+([\d.]+) ns/op", line)
    if m:
        runs.setdefault((m.group(1), m.group(2)), []).append(float(m.group(3)) / 1e6)

# pandas: the typed frame a careful pandas user would build (categories for the
# low-cardinality columns, as award_data's Arrow file has dictionaries).
t0 = time.perf_counter()
cats = ["Agency", "Branch", "Phase", "Program", "State", "HUBZone Owned",
        "Socially and Economically Disadvantaged", "Woman Owned"]
df = pd.read_csv(csv_path, dtype={c: "category" for c in cats}, low_memory=False)
load = time.perf_counter() - t0

questions = [
    ("GroupByAgencySum", "group by Agency, sum of amount",
     lambda: df.groupby("Agency", observed=True)["Award Amount"].sum()),
    ("CountYearPhase", "year >= 2015 and Phase II, count",
     lambda: int(((df["Award Year"] >= 2015) & (df["Phase"] == "Phase II")).sum())),
    ("ContainsAbstract", 'Abstract contains "lidar", count',
     lambda: int(df["Abstract"].str.contains("lidar", case=False, regex=False, na=False).sum())),
    ("TopCompaniesPhaseII", "top 20 companies by Phase II $",
     lambda: df[df["Phase"] == "Phase II"].groupby("Company")["Award Amount"].sum().nlargest(20)),
]

print(f"data: {len(df):,} awards from {csv_path} (pandas {pd.__version__}, read_csv {load:.1f} s, not counted)")
print(f"{count} runs each, median (best); ratio = pandas / award_data cell, on medians (on bests)")
print("award_data Go: compiled calls in the test process; award_data cell: the same code as a cell")
print("through a sandbox Session (worker process, yaegi, value rendering and IPC included)\n")
print(f"{'question':<36} {'award_data Go':>20} {'award_data cell':>20} {'pandas':>22} {'ratio':>13}")
ms = lambda x: f"{x:.3f}" if x < 1 else f"{x:.2f}"
fmt = lambda v: f"{ms(statistics.median(v))} ({ms(min(v))})"
pandas_median = {}
for key, label, fn in questions:
    fn()  # warm up
    times = []
    for _ in range(count):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1e3)
    pandas_median[key] = statistics.median(times)
    d = runs.get(("Direct", key), [float("nan")])
    s = runs.get(("Session", key), [float("nan")])
    ratio = f"{statistics.median(times) / statistics.median(s):.1f}x ({min(times) / min(s):.1f}x)"
    print(f"{label:<36} {fmt(d):>17} ms {fmt(s):>17} ms {fmt(times):>19} ms {ratio:>13}")
if ("Session", "Trivial") in runs:
    trivial = runs[("Session", "Trivial")]
    print(f"\n(a trivial cell, `1`, takes {fmt(trivial)} ms through the session)")
    # A cell can be no faster than a trivial one: the floor of every ratio.
    for key, label, _ in questions:
        if key in pandas_median and pandas_median[key] / 5 < statistics.median(trivial):
            print(f"{label}: 5x pandas needs a cell of {pandas_median[key] / 5:.3f} ms, "
                  f"less than a trivial cell; at best {pandas_median[key] / statistics.median(trivial):.1f}x through a session")
PY
