"""Ifaces: methods called through interfaces in a loop (bench/lang/ifaces/main.go)."""
import sys
import time

N = 1_000_000  # small: 10_000


class Rect:
    def __init__(self, w, h):
        self.w, self.h = w, h

    def area(self):
        return self.w * self.h

    def sides(self):
        return 4


class Circle:
    def __init__(self, r):
        self.r = r

    def area(self):
        return 3 * self.r * self.r

    def sides(self):
        return 0


class Tally:
    def __init__(self):
        self.total = 0
        self.calls = 0

    def add(self, x):
        self.total += x
        self.calls += 1


start = time.perf_counter()
shapes = [Rect(1.0, 2.0), Circle(1.0), Rect(3.0, 4.0)]
area = 0.0
sides = 0
t = Tally()
c = t
for i in range(N):
    s = shapes[i % 3]
    area += s.area()
    sides += s.sides()
    c.add(i % 7)
print("bench-seconds %.6f" % (time.perf_counter() - start), file=sys.stderr)
print("area", int(area), "sides", sides, "total", t.total, "calls", t.calls)
