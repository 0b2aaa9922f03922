#!/usr/bin/env python3
"""Times `sbir-kernel run` on an empty cache: CSV → typed Arrow → first answer.

Usage: bench/coldload.py [--runs N] [--pauses S[,S...]] CSV BINARY [BINARY...]

Each round runs every binary once per pause, in turn (so that a busy
machine weighs on all of them alike), each on a fresh empty cache
directory, after `sync` (no writeback of an earlier run left pending) and
the pause. The pause matters on a VM that hands free memory back to its
host (free page reporting): the previous run's ~400 MiB are freed as its
cache is removed, handed back within seconds, and supplied afresh by the
host when the next conversion touches them. `--pauses 0,6` measures both
states; the report says how much memory went back to the host before each
run (/sys/module/page_reporting, where the machine has it). For each run
it reports:

- answer: wall time from the start of the process to the printed answer
  (the first line on stdout of `run -c 'award_data.Count()'`);
- exit: wall time to the end of the process;
- durable: wall time until the Arrow file was durable on disk: the
  modification time of its marker (NAME.arrow.synced, written after the
  file and directory are synced) when there is one, else the change time of
  the Arrow file (binaries that sync before renaming it into place);
- max RSS and CPU time of the process and its children (/usr/bin/time);
- handed back: memory the VM handed back to its host between the removal
  of the previous cache and the start of the run.

Times are medians and ranges over the rounds. No timing is asserted.
"""

import argparse
import glob
import os
import shutil
import statistics
import subprocess
import tempfile
import time

from procfs import host_reported_kib


def one_run(binary, csv, cache):
    env = dict(os.environ, SBIR_CSV_PATH=csv, SBIR_CACHE_DIR=cache)
    wall0 = time.time()
    t0 = time.perf_counter()
    proc = subprocess.Popen(["/usr/bin/time", "-f", "%M %U %S", binary, "run", "-c", "award_data.Count()"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    t_answer = time.perf_counter() - t0
    rest = proc.stdout.read()
    err = proc.stderr.read()
    proc.wait()
    t_exit = time.perf_counter() - t0
    if proc.returncode != 0 or not line.strip().isdigit():
        raise RuntimeError(f"{binary}: exit {proc.returncode}: {line}{rest}{err}")
    rss_kib, user, sys_ = err.strip().splitlines()[-1].split()
    arrows = [p for p in glob.glob(os.path.join(cache, "*.arrow"))]
    if len(arrows) != 1:
        raise RuntimeError(f"{binary}: {len(arrows)} Arrow files in {cache}")
    marker = arrows[0] + ".synced"
    if os.path.exists(marker):
        durable = os.stat(marker).st_mtime - wall0
    else:
        durable = os.stat(arrows[0]).st_ctime - wall0
    return {"answer": t_answer, "exit": t_exit, "durable": durable,
            "rss_mib": int(rss_kib) / 1024, "cpu": float(user) + float(sys_)}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--pauses", default="0",
                   help="seconds to wait between removing the previous cache and each run, comma-separated "
                        "(each binary runs once per pause in every round)")
    p.add_argument("csv")
    p.add_argument("binaries", nargs="+")
    a = p.parse_args()
    try:
        pauses = [float(x) for x in a.pauses.split(",")]
    except ValueError:
        p.error(f"--pauses {a.pauses!r}: want seconds separated by commas, e.g. 0,6")
    if any(x < 0 for x in pauses):
        p.error(f"--pauses {a.pauses!r}: a pause cannot be negative")
    csv = os.path.abspath(a.csv)
    work = tempfile.mkdtemp(prefix="sbir-coldload-")
    res = {(b, x): [] for b in a.binaries for x in pauses}
    try:
        for r in range(a.runs):
            for b, x in res:
                cache = os.path.join(work, "cache")
                shutil.rmtree(cache, ignore_errors=True)
                subprocess.run(["sync"], check=True)
                before = host_reported_kib()
                time.sleep(x)
                run = one_run(b, csv, cache)
                if before is not None:
                    run["back_mib"] = (host_reported_kib() - before) / 1024
                res[b, x].append(run)
            print(f"round {r + 1}: load average {os.getloadavg()[0]:.1f}", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    def cell(xs, unit, fmt):
        return f"{fmt(statistics.median(xs))} ({fmt(min(xs))}–{fmt(max(xs))}){unit}"

    s = lambda v: f"{v:.2f}"
    print()
    print("| binary | pause | answer | exit | durable | max RSS | CPU | handed back |")
    print("|---|---|---|---|---|---|---|---|")
    for (b, x), runs in res.items():
        col = lambda k: [r[k] for r in runs if k in r]
        back = col("back_mib")
        print(f"| {b} | {x:g} s | {cell(col('answer'), ' s', s)} | {cell(col('exit'), ' s', s)} | "
              f"{cell(col('durable'), ' s', s)} | {cell(col('rss_mib'), ' MiB', lambda v: f'{v:.0f}')} | "
              f"{cell(col('cpu'), ' s', s)} | "
              f"{cell(back, ' MiB', lambda v: f'{v:.0f}') if back else '– (no free page reporting)'} |")
    print(f"\nmedian (range) of {a.runs} runs, alternating; {csv} ({os.path.getsize(csv) / 1e6:.0f} MB)")


if __name__ == "__main__":
    main()
