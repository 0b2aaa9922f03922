#!/usr/bin/env bash
# lang.sh: Go as a language in sbir against CPython and gc, in one run.
# Runs every program of bench/lang (a Go program, main.go, and the same
# algorithm in Python, main.py) through `sbir-kernel run` (the
# interpreter), /usr/bin/python3 and the binary gc builds (what `go run`
# runs), taking turns; prints the times, every ratio and whether the
# answers agree (see bench/lang.py).
#
# Usage: bench/lang.sh [--small] [--check] [--json FILE] [--only LIST]
#                      [--baseline REV] [--measure work|cpu] [CSV]
#
#   CSV         an awards CSV; default: 50,000 generated awards (seed 1),
#               2,000 with --small
#   --small     the sizes CI uses (each program's "small:" values), so that
#               the programs cannot rot; the times then mean nothing
#   --check     exit non-zero if the engines' answers differ, or a run fails
#   --only      comma-separated programs (default all), e.g. fib,loop
#   --baseline  also run the kernel built from git revision REV (e.g. main),
#               as the engine "sbir REV": a change's before and after in
#               one run
#   --measure   what the ratios compare: work (default), each program's own
#               wall time for its work, or cpu, the process's CPU time
#               (user + system, start-up included; use it on a loaded
#               machine, where wall times move with the load)
#
# Environment: RUNS (runs per program and engine, median; default 3),
# CELL_TIMEOUT (the kernel's -cell-timeout; default 10m).
#
# Needs go and Debian's python3. Nothing outside a temporary directory is
# touched. Run it on a quiet machine, or compare CPU times (--measure cpu):
# each program times its own work with the wall clock; the process's CPU
# and wall times are reported too.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
args=()
csv=
baseline=
small=
while [ $# -gt 0 ]; do
	case $1 in
	--small) args+=(--small); small=1 ;;
	--check) args+=(--check) ;;
	--json) args+=(--json "$2"); shift ;;
	--only) args+=(--only "$2"); shift ;;
	--measure) args+=(--measure "$2"); shift ;;
	--baseline) baseline=$2; shift ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) echo "lang.sh: unknown flag $1 (see --help)" >&2; exit 2 ;;
	*) csv=$1 ;;
	esac
	shift
done
command -v go >/dev/null || { echo "lang.sh: go is not on PATH" >&2; exit 2; }
py=/usr/bin/python3
[ -x "$py" ] || { echo "lang.sh: $py is missing (apt-get install python3)" >&2; exit 2; }
if [ -n "$csv" ] && [ ! -f "$csv" ]; then
	echo "lang.sh: $csv is not a file (make one: go run . generate-data -rows 50000 -o /tmp/awards.csv)" >&2
	exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/sbir-lang-XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

echo "lang.sh: building sbir-kernel" >&2
(cd "$repo" && CGO_ENABLED=0 go build -o "$work/sbir-kernel" .)
if [ -n "$baseline" ]; then
	echo "lang.sh: building sbir-kernel at $baseline" >&2
	mkdir -p "$work/baseline-src"
	(cd "$repo" && git archive "$baseline") | tar -x -C "$work/baseline-src"
	(cd "$work/baseline-src" && CGO_ENABLED=0 go build -o "$work/sbir-kernel-baseline" .)
	args+=(--baseline-bin "$work/sbir-kernel-baseline" --baseline-name "sbir $baseline")
fi

if [ -z "$csv" ]; then
	rows=50000
	[ -n "$small" ] && rows=2000
	csv=$work/awards.csv
	"$work/sbir-kernel" generate-data -rows "$rows" -seed 1 -o "$csv"
fi
csv=$(cd "$(dirname "$csv")" && pwd)/$(basename "$csv")

echo "lang.sh: $(nproc) cores; $(grep MemTotal /proc/meminfo | tr -s ' '); $(go version | cut -d' ' -f3);" \
	"python $("$py" -c 'import sys; print(sys.version.split()[0])'); load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
"$py" "$repo/bench/lang.py" "$csv" --repo "$repo" --work "$work" --sbir-bin "$work/sbir-kernel" \
	--runs "${RUNS:-3}" --cell-timeout "${CELL_TIMEOUT:-10m}" ${args[@]+"${args[@]}"}
