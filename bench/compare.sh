#!/usr/bin/env bash
# compare.sh: sbir against ipykernel + pandas, DuckDB and Polars on one
# awards CSV, in one run; prints a markdown table with every ratio and
# checks that all engines gave the same answers (see bench/compare.py).
#
# Usage: bench/compare.sh [--check] [--json FILE] [--engines LIST] [--no-ops] [--ops KEYS] CSV
#        bench/compare.sh --setup        (only install the Node packages)
#
#   CSV      an awards CSV; for the full-scale numbers of docs/performance.md:
#              go run . generate-data -rows 219500 -seed 1 -o /tmp/award_data.csv
#   --check  exit non-zero if the engines' answers differ (CI)
#   --engines  comma-separated subset of sbir,pandas,duckdb,polars (default all)
#   --no-ops   skip the operations pandas users reach for (bench/pandas_ops.py:
#              PctChange, Rolling, Cut, QCut, IdxMax, Rank, Head per group,
#              WordCounts, Lower, Extract, Month, DropDuplicates, Unstack, Corr,
#              comparisons in Compute), timed for sbir and pandas
#   --ops KEYS only these operations (keys of pandas_ops.py's OPS, comma-
#              separated, e.g. cut,qcut,month), sbir and pandas taking
#              turns, and nothing else: no questions, loading or output
#
# Environment: RUNS (timed runs per measurement, median; default 5),
# MEM_CELLS (trivial cells for the memory row; default 5000),
# SBIR_BENCH_CACHE (where the Node packages are installed; default
# $XDG_CACHE_HOME/sbir-bench or ~/.cache/sbir-bench).
#
# Needs go, node/npm, and Debian's python3 with python3-jupyter-client,
# python3-ipykernel and python3-pandas (.ci/setup.d/20-bench.sh installs
# them). The kernel is built from this checkout and its kernelspec
# installed into a private Jupyter data directory; nothing outside the
# cache and a temporary directory is touched. Run it on a quiet machine:
# the numbers are wall-clock times.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
args=()
csv=
setup_only=
while [ $# -gt 0 ]; do
	case $1 in
	--check) args+=(--check) ;;
	--setup) setup_only=1 ;;
	--json) args+=(--json "$2"); shift ;;
	--engines) args+=(--engines "$2"); shift ;;
	--no-ops) args+=(--no-ops) ;;
	--ops) args+=(--ops "$2"); shift ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) echo "compare.sh: unknown flag $1 (see --help)" >&2; exit 2 ;;
	*) csv=$1 ;;
	esac
	shift
done
for cmd in go node npm; do
	command -v "$cmd" >/dev/null || { echo "compare.sh: $cmd is not on PATH" >&2; exit 2; }
done

# Node packages, pinned in bench/package.json, installed once per version of it.
cache=${SBIR_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sbir-bench}
node_dir=$cache/node
mkdir -p "$node_dir"
if ! cmp -s "$repo/bench/package.json" "$node_dir/package.json" || [ ! -d "$node_dir/node_modules" ]; then
	echo "compare.sh: installing DuckDB and Polars for Node into $node_dir" >&2
	rm -rf "$node_dir/node_modules" "$node_dir/package-lock.json"
	cp "$repo/bench/package.json" "$node_dir/"
	(cd "$node_dir" && npm install --no-audit --no-fund --loglevel=error >&2)
fi
cp "$repo/bench/engines.mjs" "$node_dir/"
if ! (cd "$node_dir" && node --input-type=module -e 'await import("@duckdb/node-api"); await import("nodejs-polars");'); then
	echo "compare.sh: DuckDB or Polars does not load from $node_dir; remove $node_dir/node_modules to reinstall" >&2
	exit 2
fi
[ -n "$setup_only" ] && exit 0

if [ -z "$csv" ] || [ ! -f "$csv" ]; then
	echo "compare.sh: give an awards CSV file (make one: go run . generate-data -rows 219500 -o /tmp/award_data.csv)" >&2
	exit 2
fi
csv=$(cd "$(dirname "$csv")" && pwd)/$(basename "$csv")

py=/usr/bin/python3
if ! "$py" -c 'import jupyter_client, ipykernel, pandas' 2>/dev/null; then
	echo "compare.sh: $py cannot import jupyter_client, ipykernel and pandas;" \
		"apt-get install python3-jupyter-client python3-ipykernel python3-pandas" >&2
	exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/sbir-compare-XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

echo "compare.sh: building sbir-kernel" >&2
(cd "$repo" && CGO_ENABLED=0 go build -o "$work/sbir-kernel" .)

# A private Jupyter: the sbir kernelspec installed the way a user does, and
# Debian's ipykernel (found in the system data directories).
export JUPYTER_DATA_DIR=$work/jupyter/data JUPYTER_CONFIG_DIR=$work/jupyter/config
export JUPYTER_RUNTIME_DIR=$work/jupyter/runtime IPYTHONDIR=$work/ipython
export PYTHONDONTWRITEBYTECODE=1 PYDEVD_DISABLE_FILE_VALIDATION=1
mkdir -p "$JUPYTER_DATA_DIR" "$JUPYTER_CONFIG_DIR" "$JUPYTER_RUNTIME_DIR"
"$work/sbir-kernel" install --user >/dev/null

echo "compare.sh: $(nproc) cores; $(grep MemTotal /proc/meminfo | tr -s ' '); $(go version | cut -d' ' -f3);" \
	"node $(node --version); $("$py" -c 'import pandas, jupyter_client, ipykernel, sys; print("python", sys.version.split()[0], "pandas", pandas.__version__, "jupyter_client", jupyter_client.__version__, "ipykernel", ipykernel.__version__)')" >&2
"$py" "$repo/bench/compare.py" "$csv" --sbir-bin "$work/sbir-kernel" --work "$work" --node-dir "$node_dir" \
	--runs "${RUNS:-5}" --mem-cells "${MEM_CELLS:-5000}" ${args[@]+"${args[@]}"}
