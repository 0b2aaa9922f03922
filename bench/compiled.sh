#!/bin/sh
# Compiled cells against the same program interpreted and against go run:
# each program of testdata/compiled as `sbir-kernel run FILE` compiled (the
# first run builds it, the second runs the cached binary), the same with
# --compile=off (interpreted), `go run FILE`, and the binary `go build`
# made run directly. Then the first build on a machine: what every
# compiled cell links (award_data and its dependencies), built into an
# empty GOCACHE by `sbir-kernel doctor --compile`.
#
#   bench/compiled.sh [--baseline REV] [sbir-kernel binary]    (from the repository root)
#
# Prints wall seconds, and in parentheses the user+system CPU seconds of
# the process and its children (and of the first build on a machine);
# the first compiled run and go run each run a copy of the program they
# have not built before (go run caches the binaries it builds), best of 3
# taking turns; the cached compiled run and the go binary are the best of
# 3 taking turns too. Every form's output is checked against go run's. Not run by
# tests: it takes minutes, the interpreted forms most of them
# (SBIR_BENCH_NO_INTERP=1 leaves them out; SBIR_BENCH_NO_FIRST_BUILD=1
# the first build, minutes on a loaded machine). With --baseline, the
# kernel built from git revision REV runs each program first and cached
# too, taking turns with the others (last two columns). hello.go, one line of output, is
# the fixed cost of a run.
#
#   bench/compiled.sh --rebuild [--baseline REV] [sbir-kernel binary]
#
# measures warm rebuilds instead: each program, changed by one
# declaration (a one-cell change), run once more by `sbir-kernel run`, RUNS times (3),
# with the build's wall time as the kernel logs it ("compiled cell
# built", took=), the whole run's wall time, and the user+system CPU time
# of the run (the build's processes included); then the same program run
# again (cached: the run alone). With --baseline, the kernel built from
# git revision REV takes turns with it, program by program, each kernel
# with a cache of its own (the toolchain's build cache shared).
set -eu
dir=$(cd "$(dirname "$0")/testdata/compiled" && pwd)
rebuild= baseline=
while [ $# -gt 0 ]; do
	case $1 in
	--rebuild) rebuild=1 ;;
	--baseline) baseline=$2; shift ;;
	*) break ;;
	esac
	shift
done
kernel=${1:-}
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
if [ -z "$kernel" ]; then
	kernel=$tmp/sbir-kernel
	(cd "$dir/../../.." && go build -o "$kernel" .)
fi
export SBIR_CACHE_DIR="$tmp/cache"

# wall FILE CMD...: runs CMD with its output in FILE; prints wall seconds
# (and writes the user+system CPU seconds of CMD and its children to
# FILE.cpu).
wall() {
	out=$1
	shift
	s=$(date +%s.%N)
	/usr/bin/time -f '%U %S' -o "$out.time" "$@" >"$out" 2>"$out.err" || { echo "failed: $*" >&2; cat "$out.err" >&2; exit 1; }
	e=$(date +%s.%N)
	awk '{printf "%.2f", $1 + $2}' "$out.time" >"$out.cpu"
	echo "$s $e" | awk '{printf "%.2f", $2 - $1}'
}

# best X...: the smallest of the numbers.
best() { printf '%s\n' "$@" | sort -n | head -1; }

# rebuilds KERNEL NAME: the --rebuild rows of one kernel, for program $f.
rebuilds() {
	k=$1 name=$2 cache=$tmp/cache-$2
	prog=$(basename "$f" .go)
	for i in $(seq "${RUNS:-3}"); do
		{ cat "$f"; echo "var _ = \"rebuild $i $(date +%s%N)\""; } >"$tmp/$prog.go"
		s=$(date +%s.%N)
		SBIR_CACHE_DIR=$cache /usr/bin/time -f '%U %S' -o "$tmp/time" "$k" run --log-level=info --cell-timeout=10m "$tmp/$prog.go" >"$tmp/re.out" 2>"$tmp/re.err" ||
			{ echo "failed: $k run $prog" >&2; cat "$tmp/re.err" >&2; exit 1; }
		e=$(date +%s.%N)
		cmp -s "$tmp/want" "$tmp/re.out" || { echo "$prog: $name's output differs from go run's" >&2; exit 1; }
		took=$(sed -n 's/.*compiled cell built.* took=\([^ ]*\).*/\1/p' "$tmp/re.err" |
			awk '/ms$/ {printf "%.2f", $1 / 1000; next} /s$/ {printf "%.2f", $1 + 0}')
		cpu=$(awk '{printf "%.2f", $1 + $2}' "$tmp/time")
		again=$(SBIR_CACHE_DIR=$cache wall "$tmp/again.out" "$k" run --cell-timeout=10m "$tmp/$prog.go")
		printf '%-10s %-14s %12s %12s %12s %12s\n' "$prog" "$name" "${took:--}" "$(echo "$s $e" | awk '{printf "%.2f", $2 - $1}')" "$cpu" "$again"
	done
}

anchor=
if [ -n "$baseline" ]; then
	mkdir -p "$tmp/baseline-src"
	(cd "$dir/../../.." && git archive "$baseline") | tar -x -C "$tmp/baseline-src"
	(cd "$tmp/baseline-src" && CGO_ENABLED=0 go build -o "$tmp/sbir-kernel-baseline" .)
	anchor=$tmp/sbir-kernel-baseline
fi

if [ -n "$rebuild" ]; then
	printf '%-10s %-14s %12s %12s %12s %12s\n' program kernel "build took" "run (wall)" "run (CPU)" "cached run"
	for f in "$dir"/*.go; do
		go run "$f" >"$tmp/want"
		# The first run of each kernel builds what every program links.
		SBIR_CACHE_DIR=$tmp/cache-sbir "$kernel" run --cell-timeout=10m "$f" >/dev/null 2>&1
		[ -z "$anchor" ] || SBIR_CACHE_DIR=$tmp/cache-$baseline "$anchor" run --cell-timeout=10m "$f" >/dev/null 2>&1
		rebuilds "$kernel" sbir
		[ -z "$anchor" ] || rebuilds "$anchor" "$baseline"
	done
	exit 0
fi

# turns RUN...: runs each RUN (a function name) 3 times, taking turns, and
# sets best_RUN to the best wall seconds and cpu_RUN to the best CPU
# seconds of its runs (the machine's load changes from second to second).
turns() {
	for r in "$@"; do eval "w_$r= c_$r="; done
	for _ in 1 2 3; do
		for r in "$@"; do
			w=$($r)
			eval "w_$r=\"\$w_$r $w\" c_$r=\"\$c_$r $(cat "$tmp/$r.out.cpu")\""
		done
	done
	for r in "$@"; do
		eval "best_$r=\$(best \$w_$r) cpu_$r=\$(best \$c_$r)"
	done
}
run_bin() { wall "$tmp/run_bin.out" "$tmp/$name"; }
fresh() { { cat "$f"; echo "var _ = \"fresh $(date +%s%N)\""; } >"$tmp/fresh/$name.go"; }
first_gorun() { fresh; wall "$tmp/first_gorun.out" go run "$tmp/fresh/$name.go"; }
first_run() { fresh; wall "$tmp/first_run.out" "$kernel" run --cell-timeout=10m "$tmp/fresh/$name.go"; }
first_base() { fresh; SBIR_CACHE_DIR=$tmp/cache-base wall "$tmp/first_base.out" "$anchor" run --cell-timeout=10m "$tmp/fresh/$name.go"; }
run_again() { wall "$tmp/run_again.out" "$kernel" run --cell-timeout=10m "$f"; }
run_base() { SBIR_CACHE_DIR=$tmp/cache-base wall "$tmp/run_base.out" "$anchor" run --cell-timeout=10m "$f"; }

"$kernel" doctor --compile >/dev/null 2>&1 || true # links against the warm GOCACHE
printf '%-10s %12s %12s %12s %12s %12s %10s %10s' program interpreted "compiled 1st" compiled "go run" "go binary" "interp/bin" "comp/bin"
[ -z "$anchor" ] && echo || printf ' %12s %12s\n' "$baseline 1st" "$baseline cached"
mkdir -p "$tmp/fresh"
for f in "$dir"/*.go; do
	name=$(basename "$f" .go)
	go build -o "$tmp/$name" "$f"
	go run "$f" >"$tmp/want"
	interp=-
	if [ -z "${SBIR_BENCH_NO_INTERP:-}" ]; then
		interp=$(wall "$tmp/interp.out" "$kernel" run --compile=off --cell-timeout=10m "$f")
	else
		cp "$tmp/want" "$tmp/interp.out"
	fi
	# First answers: go run and the kernel each run a copy of the program
	# they have not built before (go run caches the binaries it builds),
	# taking turns, best of 3.
	[ -z "$anchor" ] || SBIR_CACHE_DIR=$tmp/cache-base "$anchor" run --cell-timeout=10m "$f" >/dev/null 2>&1
	turns first_gorun first_run ${anchor:+first_base}
	gorun=$best_first_gorun goruncpu=$cpu_first_gorun first=$best_first_run firstcpu=$cpu_first_run
	runs="run_bin run_again ${anchor:+run_base}"
	turns $runs
	for o in interp first_gorun first_run run_bin run_again ${anchor:+first_base run_base}; do
		cmp -s "$tmp/want" "$tmp/$o.out" || { echo "$name: $o's output differs from go run's" >&2; exit 1; }
	done
	printf '%-10s %12s %12s %12s %12s %12s %10s %10s' "$name" "$interp" "$first ($firstcpu)" "$best_run_again ($cpu_run_again)" "$gorun ($goruncpu)" "$best_run_bin ($cpu_run_bin)" \
		"$(echo "$interp $best_run_bin" | awk '$1 == "-" {print "-"; next} {printf "%.1fx", $1 / $2}')" "$(echo "$best_run_again $best_run_bin" | awk '{printf "%.2fx", $1 / $2}')"
	[ -z "$anchor" ] && echo || printf ' %12s %12s\n' "$best_first_base ($cpu_first_base)" "$best_run_base ($cpu_run_base)"
done

[ -n "${SBIR_BENCH_NO_FIRST_BUILD:-}" ] && exit 0
echo
echo "first build on a machine (empty GOCACHE): sbir-kernel doctor --compile"
rm -rf "$SBIR_CACHE_DIR/compile"
GOCACHE=$tmp/gocache /usr/bin/time -f '%e s wall, %U s user, %S s system' "$kernel" doctor --compile 2>&1 >/dev/null | tail -1
