#!/usr/bin/env python3
"""PSS per session of `sbir-kernel mcp` with N concurrent sessions.

Starts `sbir-kernel mcp` over stdio (raw JSON-RPC, standard library only),
opens N sessions that each run a query over the whole table (so that every
worker maps and touches the data), keeps them all open, and reads the
proportional set size (PSS, /proc/PID/smaps_rollup) of the server and of
every sandbox worker. The data's pages are shared by all workers, so PSS
divides them between the processes that map them.

Usage:
  bench/mcp_sessions.py --bin ./sbir-kernel --csv award_data.csv [--sessions 1,10,50,100]

Prints a markdown table (docs/performance.md). Linux only.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

QUERY = 'byAgency := award_data.GroupBy("Agency").Sum("Award Amount")\n' \
        'n := award_data.Where("Abstract", "contains", "sensor").Count()\n' \
        'fmt.Println(byAgency.Len(), n)'


def kib(pid, field):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return 0
    return 0


def workers(server_pid):
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                stat = f.read()
            ppid = int(stat[stat.rindex(")") + 2:].split()[1])
            with open(f"/proc/{d}/cmdline", "rb") as f:
                cmd = f.read()
        except OSError:
            continue
        if ppid == server_pid and b"__sbir_worker" in cmd:
            out.append(int(d))
    return out


class Server:
    def __init__(self, binary, env, n, heap):
        self.p = subprocess.Popen(
            [binary, "mcp", "--max-sessions", str(n), "--heap-limit", heap, "--idle-timeout", "0", "--cell-timeout", "120s"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True, bufsize=1)
        self.next = 0
        self.call("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}})
        self.p.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")

    def call(self, method, params):
        self.next += 1
        self.p.stdin.write(json.dumps({"jsonrpc": "2.0", "id": self.next, "method": method, "params": params}) + "\n")
        while True:
            m = json.loads(self.p.stdout.readline())
            if m.get("id") == self.next:
                if "error" in m:
                    raise SystemExit(f"{method}: {m['error']}")
                return m["result"]

    def run(self, code, session):
        r = self.call("tools/call", {"name": "run_go", "arguments": {"code": code, "session": session}})
        if r.get("isError"):
            raise SystemExit(f"run_go in {session}: {r['content'][0]['text'][:500]}")
        return r["structuredContent"]

    def close(self):
        self.p.stdin.close()
        self.p.wait(timeout=60)


def measure(binary, env, n, heap):
    s = Server(binary, env, n, heap)
    t0 = time.monotonic()
    for i in range(n):
        s.run(QUERY, f"s{i}")
    opened = time.monotonic() - t0
    time.sleep(1)
    ws = workers(s.p.pid)
    if len(ws) != n:
        raise SystemExit(f"{len(ws)} workers for {n} sessions")
    server_pss = kib(s.p.pid, "Pss")
    worker_pss = sum(kib(w, "Pss") for w in ws)
    worker_rss = sum(kib(w, "Rss") for w in ws)
    # A call on the first session after all are open: still answers.
    s.run("1", "s0")
    s.close()
    return {"sessions": n, "server_pss_mib": server_pss / 1024, "workers_pss_mib": worker_pss / 1024,
            "pss_per_session_mib": (server_pss + worker_pss) / 1024 / n,
            "rss_per_worker_mib": worker_rss / 1024 / n, "open_s": opened}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--csv", required=True, help="the awards CSV (the full dataset)")
    ap.add_argument("--sessions", default="1,10,50,100")
    ap.add_argument("--heap-limit", default="200MiB", help="per session; N x this must fit the machine")
    ap.add_argument("--cache", help="SBIR_CACHE_DIR (default: a temporary directory)")
    a = ap.parse_args()
    cache = a.cache or tempfile.mkdtemp(prefix="mcp-sessions-")
    env = dict(os.environ, SBIR_CSV_PATH=os.path.abspath(a.csv), SBIR_CACHE_DIR=cache)
    # Convert once, outside the measurement.
    subprocess.run([a.bin, "run", "-c", "award_data.Count()"], env=env, check=True, stdout=subprocess.DEVNULL)
    rows = []
    for n in [int(x) for x in a.sessions.split(",")]:
        r = measure(a.bin, env, n, a.heap_limit)
        rows.append(r)
        print(json.dumps(r), file=sys.stderr)
    print("| sessions | PSS per session (MiB) | server PSS (MiB) | all workers PSS (MiB) | RSS per worker (MiB) | time to open all (s) |")
    print("|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['sessions']} | {r['pss_per_session_mib']:.1f} | {r['server_pss_mib']:.1f} | {r['workers_pss_mib']:.0f} | {r['rss_per_worker_mib']:.1f} | {r['open_s']:.1f} |")


if __name__ == "__main__":
    main()
