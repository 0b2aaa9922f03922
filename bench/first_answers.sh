#!/bin/bash
# first_answers.sh: the first answer of compiled programs against go run's,
# as medians of runs taking turns (issue 28's first-answer target).
#
#   bench/first_answers.sh [-n RUNS] PROGRAM KERNEL...     (from the repository root)
#
# PROGRAM is a program of bench/testdata/compiled (hello, fib, knapsack,
# loop, sortslice, words); each KERNEL is an sbir-kernel binary (e.g. this
# checkout's and an older revision's, built with go build -o). Every run is
# of a copy of the program never built before (a constant added), by
# `KERNEL run` with a cache of its own and by `go run` (which caches the
# binaries it builds), the engines taking turns; RUNS runs each (5).
# Prints each engine's median wall time and median CPU time, the task-clock
# of its whole process tree (perf stat: the kernel, the toolchain, the
# sandboxed program), then every run's. Needs go and perf.
set -eu
n=5
if [ "${1:-}" = -n ]; then n=$2; shift 2; fi
[ $# -ge 2 ] || { sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
prog=$1
shift
src=$(cd "$(dirname "$0")/testdata/compiled" && pwd)/$prog.go
[ -f "$src" ] || { echo "first_answers.sh: no program $src" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
for k in "$@"; do
	i=$((i + 1))
	echo "$k" >"$tmp/name$i"
	# The first run of a kernel builds what every program links.
	SBIR_CACHE_DIR=$tmp/cache$i "$k" run "$src" >/dev/null 2>&1
done
engines=$i
for r in $(seq "$n"); do
	for e in $(seq 0 "$engines"); do
		{ cat "$src"; echo "var _ = \"fresh $e $r $(date +%s%N)\""; } >"$tmp/$prog.go"
		s=$(date +%s%N)
		if [ "$e" = 0 ]; then
			perf stat -x, -e task-clock -o "$tmp/stat" go run "$tmp/$prog.go" >/dev/null 2>&1
		else
			SBIR_CACHE_DIR=$tmp/cache$e perf stat -x, -e task-clock -o "$tmp/stat" "$(cat "$tmp/name$e")" run "$tmp/$prog.go" >/dev/null 2>&1
		fi
		t=$(date +%s%N)
		echo "$e $(((t - s) / 1000000)) $(awk -F, '/task-clock/ {printf "%.0f", $1}' "$tmp/stat")" >>"$tmp/runs"
	done
done
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
for e in $(seq 0 "$engines"); do
	name="go run"
	[ "$e" = 0 ] || name=$(cat "$tmp/name$e")
	w=$(awk -v e="$e" '$1 == e {print $2}' "$tmp/runs" | median)
	c=$(awk -v e="$e" '$1 == e {print $3}' "$tmp/runs" | median)
	printf '%-10s %-40s wall %5s ms  CPU %5s ms   (runs:%s)\n' "$prog" "$name" "$w" "$c" "$(awk -v e="$e" '$1 == e {printf " %s/%s", $2, $3}' "$tmp/runs")"
done
