"""Closures: closures over variables called in a loop (bench/lang/closures/main.go)."""
import sys
import time

N = 2_000_000  # small: 20_000


def counter():
    c = 0

    def next_value():
        nonlocal c
        c += 1
        return c

    return next_value


def adder(k):
    return lambda x: x + k


start = time.perf_counter()
next_value = counter()
adders = [adder(k) for k in range(10)]
total = 0
for i in range(N):
    total += adders[i % 10](next_value()) % 1000
print(f"bench-seconds {time.perf_counter() - start:.6f}", file=sys.stderr)
print("calls", next_value() - 1, "total", total)
