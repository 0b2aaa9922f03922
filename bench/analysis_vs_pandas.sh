#!/bin/sh
# analysis_vs_pandas.sh: the issue-6 analysis questions timed in award_data (compiled Go,
# and as cells through a sandbox Session) and in pandas, on the same full-scale CSV, in
# one run. Prints one table with both timings and the ratio.
#
# Usage: bench/analysis_vs_pandas.sh            (from the repository root)
# Env:   SBIR_BENCH_DIR  where the generated 219,500-award CSV and its Arrow file are
#                        cached (default /tmp/sbir-bench); the Go benchmarks create them.
#        COUNT           Go benchmark repetitions (default 5); pandas repeats each question
#                        as often and both report the median.
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

# Go: median ns/op of each benchmark over the repetitions.
runs = {}
for line in open(gobench):
    m = re.match(r"Benchmark(Direct|Session)/(\w+)-\d+\s+\d+\s+([\d.]+) ns/op", line)
    if m:
        runs.setdefault((m.group(1), m.group(2)), []).append(float(m.group(3)) / 1e6)
go = {k: statistics.median(v) for k, v in runs.items()}

# pandas: the typed frame a careful pandas user would build (categories for the
# low-cardinality columns, as award_data's Arrow file has dictionaries).
t0 = time.perf_counter()
cats = ["Agency", "Branch", "Phase", "Program", "State", "HUBZone Owned",
        "Socially and Economically Disadvantaged", "Woman Owned"]
df = pd.read_csv(csv_path, dtype={c: "category" for c in cats}, low_memory=False)
load = time.perf_counter() - t0

questions = [
    ("GroupByAgencySum", "group by Agency, sum of Award Amount",
     lambda: df.groupby("Agency", observed=True)["Award Amount"].sum()),
    ("CountYearPhase", 'Award Year >= 2015 and Phase == "Phase II", count',
     lambda: int(((df["Award Year"] >= 2015) & (df["Phase"] == "Phase II")).sum())),
    ("ContainsAbstract", 'Abstract contains "lidar" (any case), count',
     lambda: int(df["Abstract"].str.contains("lidar", case=False, regex=False, na=False).sum())),
    ("TopCompaniesPhaseII", "top 20 companies by Phase II dollars",
     lambda: df[df["Phase"] == "Phase II"].groupby("Company")["Award Amount"].sum().nlargest(20)),
]

print(f"data: {len(df):,} awards from {csv_path} (pandas {pd.__version__}, read_csv {load:.1f} s, not counted)")
print(f"median of {count} runs each; ratio = pandas / award_data through a sandbox session\n")
print(f"{'question':<46} {'award_data Go':>14} {'award_data cell':>16} {'pandas':>10} {'ratio':>7}")
for key, label, fn in questions:
    fn()  # warm up
    times = []
    for _ in range(count):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1e3)
    p = statistics.median(times)
    d = go.get(("Direct", key), float("nan"))
    s = go.get(("Session", key), float("nan"))
    print(f"{label:<46} {d:>11.2f} ms {s:>13.2f} ms {p:>7.2f} ms {p / s:>6.1f}x")
PY
