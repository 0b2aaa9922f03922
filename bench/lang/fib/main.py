"""Fib: recursive Fibonacci (bench/lang/fib/main.go)."""
import sys
import time

N = 27  # small: 15


def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


start = time.perf_counter()
r = fib(N)
print(f"bench-seconds {time.perf_counter() - start:.6f}", file=sys.stderr)
print(r)
