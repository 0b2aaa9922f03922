"""Knapsack: a 0/1 knapsack with the textbook table (bench/lang/knapsack/main.go)."""
import sys
import time

ITEMS = 200  # small: 20
CAPACITY = 10_000  # small: 500

seed = 1


def next_random():
    global seed
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed >> 16


weight = [0] * ITEMS
value = [0] * ITEMS
for i in range(ITEMS):
    weight[i] = 1 + next_random() % (CAPACITY // 10)
    value[i] = 1 + next_random() % 1000

start = time.perf_counter()
best = [[0] * (CAPACITY + 1) for _ in range(ITEMS + 1)]
for i in range(1, ITEMS + 1):
    w, v = weight[i - 1], value[i - 1]
    for c in range(CAPACITY + 1):
        best[i][c] = best[i - 1][c]
        if w <= c and best[i - 1][c - w] + v > best[i][c]:
            best[i][c] = best[i - 1][c - w] + v
taken, c = 0, CAPACITY
for i in range(ITEMS, 0, -1):
    if best[i][c] != best[i - 1][c]:
        taken += 1
        c -= weight[i - 1]
print(f"bench-seconds {time.perf_counter() - start:.6f}", file=sys.stderr)
print("best value", best[ITEMS][CAPACITY], "with", taken, "items, weight", CAPACITY - c)
