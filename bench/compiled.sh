#!/bin/sh
# Compiled cells against the same program interpreted and against go run:
# each program of testdata/compiled as `sbir-kernel run FILE` compiled (the
# first run builds it, the second runs the cached binary), the same with
# --compile=off (interpreted), `go run FILE`, and the binary `go build`
# made run directly. Then the first build on a machine: what every
# compiled cell links (award_data and its dependencies), built into an
# empty GOCACHE by `sbir-kernel doctor --compile`.
#
#   bench/compiled.sh [sbir-kernel binary]    (from the repository root)
#
# Prints wall seconds (and user+system CPU seconds for the first build);
# the cached compiled run and the go binary are the best of 3 taking
# turns. Every form's output is checked against go run's. Not run by
# tests: it takes minutes, the interpreted forms most of them
# (SBIR_BENCH_NO_INTERP=1 leaves them out; SBIR_BENCH_NO_FIRST_BUILD=1
# the first build, minutes on a loaded machine).
set -eu
dir=$(cd "$(dirname "$0")/testdata/compiled" && pwd)
kernel=${1:-}
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
if [ -z "$kernel" ]; then
	kernel=$tmp/sbir-kernel
	(cd "$dir/../../.." && go build -o "$kernel" .)
fi
export SBIR_CACHE_DIR="$tmp/cache"

# wall FILE CMD...: runs CMD with its output in FILE; prints wall seconds.
wall() {
	out=$1
	shift
	s=$(date +%s.%N)
	"$@" >"$out" 2>"$out.err" || { echo "failed: $*" >&2; cat "$out.err" >&2; exit 1; }
	e=$(date +%s.%N)
	echo "$s $e" | awk '{printf "%.2f", $2 - $1}'
}

# best X...: the smallest of the numbers.
best() { printf '%s\n' "$@" | sort -n | head -1; }

"$kernel" doctor --compile >/dev/null 2>&1 || true # links against the warm GOCACHE
printf '%-10s %12s %12s %12s %12s %12s %10s %10s\n' program interpreted "compiled 1st" compiled "go run" "go binary" "interp/bin" "comp/bin"
for f in "$dir"/*.go; do
	name=$(basename "$f" .go)
	go build -o "$tmp/$name" "$f"
	gorun=$(wall "$tmp/want" go run "$f")
	interp=-
	if [ -z "${SBIR_BENCH_NO_INTERP:-}" ]; then
		interp=$(wall "$tmp/interp.out" "$kernel" run --compile=off --cell-timeout=10m "$f")
	else
		cp "$tmp/want" "$tmp/interp.out"
	fi
	first=$(wall "$tmp/first.out" "$kernel" run --cell-timeout=10m "$f")
	# The fast forms take turns, best of 3: the machine's load changes
	# from second to second.
	gobin= again=
	for _ in 1 2 3; do
		gobin="$gobin $(wall "$tmp/bin.out" "$tmp/$name")"
		again="$again $(wall "$tmp/again.out" "$kernel" run --cell-timeout=10m "$f")"
	done
	gobin=$(best $gobin)
	again=$(best $again)
	for o in bin interp first again; do
		cmp -s "$tmp/want" "$tmp/$o.out" || { echo "$name: $o's output differs from go run's" >&2; exit 1; }
	done
	printf '%-10s %12s %12s %12s %12s %12s %10s %10s\n' "$name" "$interp" "$first" "$again" "$gorun" "$gobin" \
		"$(echo "$interp $gobin" | awk '$1 == "-" {print "-"; next} {printf "%.1fx", $1 / $2}')" "$(echo "$again $gobin" | awk '{printf "%.2fx", $1 / $2}')"
done

[ -n "${SBIR_BENCH_NO_FIRST_BUILD:-}" ] && exit 0
echo
echo "first build on a machine (empty GOCACHE): sbir-kernel doctor --compile"
rm -rf "$SBIR_CACHE_DIR/compile"
GOCACHE=$tmp/gocache /usr/bin/time -f '%e s wall, %U s user, %S s system' "$kernel" doctor --compile 2>&1 >/dev/null | tail -1
