"""Sortslice: records sorted by a key function (bench/lang/sortslice/main.go).

Go's sort.Slice calls a less function per comparison; Python's idiom is a
key function per element, which this uses: the same order, as each language
is written.
"""
import sys
import time

N = 200_000  # small: 2_000

seed = 7
recs = []
for i in range(N):
    seed = (seed * 1103515245 + 12345) % 2147483648
    recs.append((i, (seed >> 16) % 10_000))
start = time.perf_counter()
recs.sort(key=lambda r: (-r[1], r[0]))
print(f"bench-seconds {time.perf_counter() - start:.6f}", file=sys.stderr)
check = 0
for i, (rid, _) in enumerate(recs):
    check = (check * 31 + rid * (i % 97 + 1)) % 1_000_000_007
print("first", recs[0][0], recs[0][1], "last", recs[N - 1][0], recs[N - 1][1], "check", check)
