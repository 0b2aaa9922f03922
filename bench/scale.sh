#!/usr/bin/env bash
# Scale: N concurrent sbir kernels on the full-scale dataset, each answering a
# query; PSS per kernel (kernel + sandbox worker) and time to ready.
#
#   bench/scale.sh [COUNTS]        # default 1,50,100,200
#
# Builds the kernel, writes a synthetic full-scale CSV (219,500 awards, as
# README's Performance section uses) once to $SCALE_CSV (default
# /tmp/sbir-scale/award_data.csv), converts it to Arrow once in a private
# cache, then runs bench/scale.py with $PYTHON (default /usr/bin/python3,
# which needs python3-jupyter-client). Rounds stop before MemAvailable
# would drop under 4 GiB.
set -euo pipefail
cd "$(dirname "$0")/.."
counts="${1:-1,50,100,200}"
work="${SCALE_DIR:-/tmp/sbir-scale}"
csv="${SCALE_CSV:-$work/award_data.csv}"
python="${PYTHON:-/usr/bin/python3}"
mkdir -p "$work/cache"
CGO_ENABLED=0 go build -o "$work/sbir-kernel" .
if [ ! -s "$csv" ]; then
  "$work/sbir-kernel" generate-data -rows 219500 -o "$csv"
fi
export SBIR_CSV_PATH="$csv" SBIR_CACHE_DIR="$work/cache"
# Convert once, before the kernels start (they would wait on the lock).
"$work/sbir-kernel" run -c 'award_data.Count()' >/dev/null
ls -l "$work/cache"
exec "$python" bench/scale.py --binary "$work/sbir-kernel" --counts "$counts"
