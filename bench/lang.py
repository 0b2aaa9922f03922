#!/usr/bin/python3
"""lang.py: Go programs in sbir against CPython and gc, in one run.

Run through bench/lang.sh, which builds the kernel (and, with --baseline,
the kernel of an older revision) and calls this script with Debian's
python3.

Every program of bench/lang is a directory with main.go, a Go program,
and main.py, the same algorithm in Python. Each runs through:

  sbir          `sbir-kernel run -compile=off main.go` (the interpreter);
                the import of award_data is dropped, as cells need none
  sbir REV      the same with the kernel of --baseline REV (without the
                flag, which a kernel older than compiled cells lacks)
  sbir compiled `sbir-kernel run -compile=on main.go`: built with gc and
                run in the sandbox (the build cache warm after run 1)
  CPython       /usr/bin/python3 main.py INPUTS.json, where INPUTS.json
                holds the strings the Go program reads from award_data
                (bench/lang/export)
  gc            the binary `go build` makes of main.go (what `go run`
                runs; the build is not timed), with award_data given the
                same data file (bench/lang/langdata)

A program times its own work (after reading its inputs) and prints
"bench-seconds S" to stderr; its answer goes to stdout, and every engine's
answer must be the same (--check makes a difference an error). The
engines take turns: run r starts with the engine after run r-1's first.
Times are medians of --runs runs. With --small, each number a program
marks "small: N" is replaced by N: the sizes CI runs, so that the
programs cannot rot; CI asserts answers, never times.
"""

import argparse
import json
import math
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import time

# The programs in the order of the report, with what they measure.
PROGRAMS = [
    ("loop", "20M-iteration integer loop"),
    ("fib", "recursive fib(27)"),
    ("wordcount", "word counts over 50,000 abstracts (Fields, ToLower, map)"),
    ("knapsack", "0/1 knapsack, 200 items × capacity 10,000"),
    ("fieldsfunc", "strings.FieldsFunc with a closure over DoD abstracts"),
    ("sortslice", "sort.Slice with a less func, 200,000 records"),
    ("methods", "struct method calls in a loop, 2M iterations"),
    ("ifaces", "method calls through interfaces, 1M iterations"),
    ("closures", "closures called in a loop, 2M iterations"),
    ("apply", "award_data.Apply over every award"),
    ("textmining", "text mining: top 10 words in DoD abstracts"),
]
AWARD_DATA_IMPORT = '"github.com/sbirtools/sbir-kernel/award_data"'
GO_SIZE = re.compile(r"^(\s*(?:const\s+)?\w+\s*=\s*)[\d_]+(\s*// small: ([\d_]+))\s*$", re.M)
PY_SIZE = re.compile(r"^(\s*\w+\s*=\s*)[\d_]+(\s*# small: ([\d_]+))\s*$", re.M)
SECONDS = re.compile(r"^bench-seconds ([0-9.]+)$", re.M)

# Engine names; the order of the ratios (each ratio is an engine's time
# divided by a later engine's: how many times faster the later one is).
SBIR, COMPILED, CPYTHON, GC = "sbir", "sbir compiled", "CPython", "gc"


def parse_duration(s):
    """Seconds in a Go duration such as 10m, 90s or 1h."""
    m = re.fullmatch(r"(\d+(?:\.\d+)?)(h|m|s)", s)
    if not m:
        sys.exit(f"lang.py: --cell-timeout {s!r}: use a number with h, m or s, e.g. 10m")
    return float(m.group(1)) * {"h": 3600, "m": 60, "s": 1}[m.group(2)]


def with_small_sizes(src, pattern, path):
    """src with every marked size replaced by its small value."""
    out, n = pattern.subn(lambda m: m.group(1) + m.group(3) + m.group(2), src)
    if n == 0 and "small:" in src:
        sys.exit(f"lang.py: {path}: a 'small:' mark is not on a size line the script recognises")
    return out


def kernel_source(src):
    """The program as a cell writes it: award_data needs no import."""
    return "\n".join(line for line in src.split("\n") if line.strip() != AWARD_DATA_IMPORT)


class Program:
    def __init__(self, name, what, a):
        self.name, self.what = name, what
        d = os.path.join(a.repo, "bench", "lang", name)
        self.go_path, self.py_path = os.path.join(d, "main.go"), os.path.join(d, "main.py")
        for p in (self.go_path, self.py_path):
            if not os.path.isfile(p):
                sys.exit(f"lang.py: {p} is missing: every program has main.go and main.py")
        go, py = open(self.go_path).read(), open(self.py_path).read()
        if a.small:
            go, py = with_small_sizes(go, GO_SIZE, self.go_path), with_small_sizes(py, PY_SIZE, self.py_path)
        self.uses_data = AWARD_DATA_IMPORT in go
        out = os.path.join(a.work, "src", name)
        os.makedirs(out, exist_ok=True)
        self.gc_src = os.path.join(out, "main.go")
        self.kernel_src = os.path.join(out, "kernel.go")
        self.py_src = os.path.join(out, "main.py")
        for path, text in ((self.gc_src, go), (self.kernel_src, kernel_source(go)), (self.py_src, py)):
            with open(path, "w") as f:
                f.write(text)


def build_gc(programs, a):
    """Builds every program and the exporter with one go build, the
    transformed sources laid over the tree's (-overlay); a program that
    reads award_data gets a file that loads the data first."""
    replace = {}
    for p in programs:
        replace[p.go_path] = p.gc_src
        if p.uses_data:
            init = os.path.join(a.work, "src", p.name, "zz_langdata.go")
            with open(init, "w") as f:
                f.write('package main\n\nimport (\n\t"context"\n\n'
                        '\t"github.com/sbirtools/sbir-kernel/bench/lang/langdata"\n)\n\n'
                        'func init() {\n\tif err := langdata.Use(context.Background()); err != nil {\n'
                        '\t\tpanic(err)\n\t}\n}\n')
            replace[os.path.join(os.path.dirname(p.go_path), "zz_langdata.go")] = init
    overlay = os.path.join(a.work, "overlay.json")
    with open(overlay, "w") as f:
        json.dump({"Replace": replace}, f)
    bindir = os.path.join(a.work, "bin") + os.sep
    pkgs = ["./bench/lang/" + p.name for p in programs] + ["./bench/lang/export"]
    env = dict(os.environ, CGO_ENABLED="0")
    subprocess.run(["go", "build", "-overlay", overlay, "-o", bindir] + pkgs, cwd=a.repo, env=env, check=True)
    return bindir


class EmptyProgram:
    """A program that does nothing, in every engine's form: each engine's
    start-up and exit, which the process's CPU time includes."""

    def __init__(self, a, bindir):
        self.name = "empty"
        out = os.path.join(a.work, "src", "empty")
        os.makedirs(out, exist_ok=True)
        self.kernel_src, self.py_src = os.path.join(out, "kernel.go"), os.path.join(out, "main.py")
        with open(self.kernel_src, "w") as f:
            f.write('package main\n\nimport (\n\t"fmt"\n\t"os"\n)\n\n'
                    'func main() {\n\tfmt.Fprintln(os.Stderr, "bench-seconds 0")\n\tfmt.Println("ok")\n}\n')
        with open(self.py_src, "w") as f:
            f.write('import sys\nprint("bench-seconds 0", file=sys.stderr)\nprint("ok")\n')
        env = dict(os.environ, CGO_ENABLED="0")
        subprocess.run(["go", "build", "-o", os.path.join(bindir, "empty"), self.kernel_src],
                       cwd=out, env=env, check=True)


class Engine:
    def __init__(self, name, argv, env):
        self.name, self.argv, self.env = name, argv, env

    def command(self, p):
        return self.argv(p)


def children_cpu():
    """CPU seconds (user + system) of every child process waited for so far,
    with the processes they waited for: the kernel waits for its worker."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_once(engine, p, timeout):
    """One run: (work seconds, wall seconds, CPU seconds, answer, error)."""
    t0, c0 = time.perf_counter(), children_cpu()
    try:
        proc = subprocess.run(engine.command(p), env=engine.env, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, time.perf_counter() - t0, None, None, f"no answer within {timeout:.0f} s"
    wall, cpu = time.perf_counter() - t0, children_cpu() - c0
    out, err = proc.stdout.decode(errors="replace"), proc.stderr.decode(errors="replace")
    m = SECONDS.findall(err) or SECONDS.findall(out)
    if proc.returncode != 0 or not m:
        msg = (err.strip() or out.strip() or f"exit status {proc.returncode}").splitlines()
        return None, wall, cpu, None, msg[0][:200] if msg else f"exit status {proc.returncode}"
    answer = SECONDS.sub("", out).strip()
    return float(m[-1]), wall, cpu, answer, None


def fmt_time(s):
    if s is None:
        return "–"
    if s >= 10:
        return f"{s:.1f} s"
    if s >= 1:
        return f"{s:.2f} s"
    if s >= 0.01:
        return f"{s * 1000:.0f} ms"
    return f"{s * 1000:.2f} ms"


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def ratio(a, b):
    return None if a is None or b is None or b <= 0 else a / b


def fmt_ratio(r):
    if r is None:
        return "–"
    return f"{r:.1f}×" if r >= 1 else f"{r:.2f}×"


def geomean(rs):
    rs = [r for r in rs if r is not None]
    return math.exp(sum(math.log(r) for r in rs) / len(rs)) if rs else None


def table(programs, names, values, label=lambda p: p.what):
    print("| program | " + " | ".join(names) + " |")
    print("|---" * (len(names) + 1) + "|")
    for p in programs:
        print(f"| {label(p)} | " + " | ".join(fmt_time(values[p.name][e]) for e in names) + " |")


def report(programs, names, res, startup, a):
    """The markdown report: times, ratios, CPU and wall times, answers."""
    print("### Go programs in the interpreter, CPython and gc\n")
    runs = f"median of {a.runs} run{'s' if a.runs != 1 else ''}"
    small = "; small sizes (CI), times mean nothing" if a.small else ""
    print(f"Each program's own time for its work (after reading its inputs; wall clock), {runs}{small}.\n")
    work = {p.name: {e: median(res[p.name][e]["work"]) for e in names} for p in programs}
    cpu = {p.name: {e: median(res[p.name][e]["cpu"]) for e in names} for p in programs}
    table(programs, names, work)
    print(f"\n#### CPU time of the process (user + system, with the kernel's worker), {runs}\n")
    print("Includes start-up, reading the inputs and the collector's threads; a loaded machine "
          "changes it far less than wall time. Start-up alone (a program that prints one line): " +
          ", ".join(f"{e} {fmt_time(median(startup[e]))}" for e in names) + ".\n")
    table(programs, names, cpu)

    measured = work if a.measure == "work" else cpu
    pairs = [(x, y) for i, x in enumerate(names) for y in names[i + 1:]]
    what = "the programs' own times" if a.measure == "work" else "CPU times"
    print(f"\n#### Ratios of {what}\n")
    print("Each column is one engine's time ÷ another's: above 1× means the second is faster.\n")
    print("| program | " + " | ".join(f"{x} ÷ {y}" for x, y in pairs) + " |")
    print("|---" * (len(pairs) + 1) + "|")
    ratios = {pair: [] for pair in pairs}
    for p in programs:
        row = []
        for x, y in pairs:
            r = ratio(measured[p.name][x], measured[p.name][y])
            ratios[(x, y)].append(r)
            row.append(fmt_ratio(r))
        print(f"| {p.what} | " + " | ".join(row) + " |")
    print("| **geometric mean** | " + " | ".join(fmt_ratio(geomean(ratios[pair])) for pair in pairs) + " |")

    print("\n#### Wall time of the process (start to exit), median\n")
    wall = {p.name: {e: median(res[p.name][e]["wall"]) for e in names} for p in programs}
    table(programs, names, wall, label=lambda p: p.name)

    problems = []
    for p in programs:
        answers = {}
        for e in names:
            r = res[p.name][e]
            for err in r["errors"]:
                problems.append(f"{p.name}, {e}: {err}")
            if r["answer"] is not None:
                answers.setdefault(r["answer"], []).append(e)
        if len(answers) > 1:
            problems.append(f"{p.name}: the answers differ: " +
                            "; ".join(f"{', '.join(es)}: {ans!r}" for ans, es in answers.items()))
    print()
    if problems:
        print("**Problems:**\n")
        for msg in problems:
            print(f"- {msg}")
    else:
        ran = [e for e in names if any(res[p.name][e]["answer"] is not None for p in programs)]
        print(f"All {len(ran)} engines ({', '.join(ran)}) gave the same answers to all {len(programs)} programs.")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv")
    ap.add_argument("--repo", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--sbir-bin", required=True)
    ap.add_argument("--baseline-bin")
    ap.add_argument("--baseline-name", default="sbir baseline")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cell-timeout", default="10m")
    ap.add_argument("--small", action="store_true")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--only")
    ap.add_argument("--json")
    ap.add_argument("--measure", choices=("work", "cpu"), default="work")
    a = ap.parse_args()

    known = dict(PROGRAMS)
    on_disk = sorted(d for d in os.listdir(os.path.join(a.repo, "bench", "lang"))
                     if os.path.isfile(os.path.join(a.repo, "bench", "lang", d, "main.py")))
    for d in on_disk:
        if d not in known:
            sys.exit(f"lang.py: bench/lang/{d} has no entry in PROGRAMS")
    chosen = [n for n, _ in PROGRAMS]
    if a.only:
        chosen = a.only.split(",")
        for n in chosen:
            if n not in known:
                sys.exit(f"lang.py: --only {n}: no such program; the programs are {', '.join(known)}")
    programs = [Program(n, known[n], a) for n in chosen]

    timeout = parse_duration(a.cell_timeout)
    env = dict(os.environ, SBIR_CSV_PATH=a.csv, SBIR_CACHE_DIR=os.path.join(a.work, "cache"))
    print("lang.py: building the programs with gc", file=sys.stderr)
    bindir = build_gc(programs, a)
    engines = []
    if a.baseline_bin:
        base_env = dict(env, SBIR_CACHE_DIR=os.path.join(a.work, "cache-baseline"))
        engines.append(Engine(a.baseline_name, lambda p: [a.baseline_bin, "run", "-cell-timeout", a.cell_timeout,
                                                         p.kernel_src], base_env))
    # A whole program runs compiled by default when go is on PATH: the
    # interpreter's column asks for it by name (c6c8c1c, a baseline, had
    # only the interpreter and no flag).
    engines.append(Engine(SBIR, lambda p: [a.sbir_bin, "run", "-compile=off", "-cell-timeout", a.cell_timeout,
                                           p.kernel_src], env))
    engines.append(Engine(COMPILED, lambda p: [a.sbir_bin, "run", "-compile=on", "-cell-timeout", a.cell_timeout,
                                               p.kernel_src], dict(env, SBIR_CACHE_DIR=os.path.join(a.work, "cache-compiled"))))
    engines.append(Engine(CPYTHON, lambda p: [sys.executable, p.py_src, os.path.join(a.work, "inputs.json")], env))
    engines.append(Engine(GC, lambda p: [os.path.join(bindir, p.name)], env))
    # The data converted once per kernel, before anything is timed.
    for e in engines:
        if e.name != CPYTHON and e.name != GC:
            subprocess.run(e.argv(programs[0])[:1] + ["run", "-c", "1"], env=e.env, check=True,
                           stdout=subprocess.DEVNULL)
    subprocess.run([os.path.join(bindir, "export"), os.path.join(a.work, "inputs.json")], env=env, check=True)

    names = [e.name for e in engines]
    # The report's order of engines: slowest expected first.
    names = [n for n in names if n not in (SBIR, CPYTHON, COMPILED, GC)] + [SBIR, CPYTHON, COMPILED, GC]
    res = {p.name: {n: {"work": [], "wall": [], "cpu": [], "answer": None, "errors": []} for n in names}
           for p in programs}
    startup = {n: [] for n in names}
    empty = EmptyProgram(a, bindir)
    for r in range(a.runs):
        for e in engines:
            _, _, cpu, _, err = run_once(e, empty, timeout + 120)
            startup[e.name].append(None if err else cpu)
        for p in programs:
            order = engines[r % len(engines):] + engines[:r % len(engines)]
            for e in order:
                work, wall, cpu, answer, err = run_once(e, p, timeout + 120)
                slot = res[p.name][e.name]
                slot["work"].append(work)
                slot["wall"].append(wall)
                slot["cpu"].append(cpu)
                if err:
                    slot["errors"].append(err)
                elif slot["answer"] is None:
                    slot["answer"] = answer
                elif slot["answer"] != answer:
                    slot["errors"].append(f"run {r + 1} answered {answer!r}, run 1 {slot['answer']!r}")
                print(f"lang.py: run {r + 1}/{a.runs} {p.name:<11} {e.name:<14} "
                      f"{fmt_time(work) + ', CPU ' + fmt_time(cpu) if work is not None else err}", file=sys.stderr)

    problems = report(programs, names, res, startup, a)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"machine": {"cores": os.cpu_count(), "python": platform.python_version(),
                                   "load": os.getloadavg()},
                       "small": a.small, "runs": a.runs, "engines": names,
                       "programs": [{"name": p.name, "what": p.what} for p in programs],
                       "measure": a.measure, "startup_cpu": startup,
                       "results": res, "problems": problems}, f, indent=1)
    if a.check and problems:
        sys.exit(1)


if __name__ == "__main__":
    main()
