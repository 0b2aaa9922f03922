"""Loop: a 20-million-iteration integer loop (bench/lang/loop/main.go)."""
import sys
import time

N = 20_000_000  # small: 200_000

start = time.perf_counter()
total = 0
for i in range(N):
    total += i % 7
print(f"bench-seconds {time.perf_counter() - start:.6f}", file=sys.stderr)
print(total)
