"""How many concurrent analysts one host holds: start N sbir kernels on the
full dataset, each answering a query, and report memory (PSS) and time to
ready.

Usage (bench/scale.sh runs it with the right environment):

    SBIR_CSV_PATH=/tmp/full.csv SBIR_CACHE_DIR=/tmp/scale-cache \\
      PYTHON scale.py --binary ./sbir-kernel --counts 1,50,100,200

PYTHON is an interpreter with jupyter_client (Debian's /usr/bin/python3 or
the CI virtualenv's). Kernels are started directly (`sbir-kernel kernel -f
CONNECTION_FILE`), as jupyter_client's LocalProvisioner does, all at once;
each gets kernel_info (ready), then runs the query; then PSS is read from
/proc/PID/smaps_rollup for every kernel and its sandbox worker while all N
are alive. PSS divides shared pages (the memory-mapped Arrow file, the
binary's text) among the processes that map them, so the sum over kernels
is what they cost the host together.

Stops early, before starting a round, when MemAvailable would fall below
--reserve-mib. Prints one JSON line per round.
"""

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from jupyter_client import BlockingKernelClient
from jupyter_client.connect import write_connection_file

QUERY = 'award_data.Where("Phase", "==", "Phase II").GroupBy("Agency").Sum("Award Amount").Sort("-Award Amount").Head(3)'


def mem_available_mib():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) // 1024
    return 0


def pss_kib(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def children(pid):
    """Descendants of pid. A Go program starts children from any of its
    threads, and each thread lists its own in task/TID/children."""
    out = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out += [int(p) for p in f.read().split()]
    except OSError:
        pass
    for c in list(out):
        out += children(c)
    return out


def percentile(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def distinct_ports(count):
    """count loopback ports, all different: every socket stays bound until
    all are chosen (jupyter_client's LocalProvisioner keeps a port cache for
    the same reason; connection files written one after another may
    otherwise get a port twice, and the second kernel fails to bind)."""
    socks = []
    try:
        for _ in range(count):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


class Kernel:
    def __init__(self, binary, workdir, i, ports):
        self.conn = os.path.join(workdir, f"kernel-{i}.json")
        write_connection_file(self.conn, ip="127.0.0.1", key=os.urandom(16).hex().encode(),
                              shell_port=ports[0], iopub_port=ports[1], stdin_port=ports[2],
                              hb_port=ports[3], control_port=ports[4])
        self.started = time.monotonic()
        # JPY_PARENT_PID, as jupyter_client sets it: kernels end with this
        # script even when it is killed.
        env = dict(os.environ, JPY_PARENT_PID=str(os.getpid()))
        self.log = os.path.join(workdir, f"kernel-{i}.log")
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen([binary, "kernel", "-f", self.conn], stdout=subprocess.DEVNULL,
                                         stderr=log, start_new_session=True, env=env)
        self.client = None
        self.ready = None
        self.answered = None
        self.error = None

    def run(self):
        try:
            kc = BlockingKernelClient(connection_file=self.conn)
            kc.load_connection_file()
            kc.start_channels()
            self.client = kc
            kc.wait_for_ready(timeout=120)
            self.ready = time.monotonic() - self.started
            t0 = time.monotonic()
            reply = kc.execute(QUERY, reply=True, timeout=120)
            if reply["content"]["status"] != "ok":
                self.error = reply["content"].get("evalue", "error")
            self.answered = time.monotonic() - t0
        except Exception as e:  # report, don't hide
            self.error = f"{type(e).__name__}: {e}"
            try:
                with open(self.log, errors="replace") as f:
                    tail = f.read().strip().splitlines()[-2:]
                self.error += f" (exit {self.proc.poll()}; kernel stderr: {' | '.join(tail)[:300]})"
            except OSError:
                pass

    def pss(self):
        pids = [self.proc.pid] + children(self.proc.pid)
        return sum(pss_kib(p) for p in pids) / 1024, len(pids)

    def stop(self):
        try:
            if self.client:
                self.client.shutdown()
                self.client.stop_channels()
            self.proc.wait(timeout=10)
        except Exception:
            pass
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


def round_of(binary, n, workdir):
    ports = distinct_ports(5 * n)
    kernels = [Kernel(binary, workdir, i, ports[5 * i:5 * i + 5]) for i in range(n)]
    with ThreadPoolExecutor(max_workers=min(n, 32)) as pool:
        list(pool.map(lambda k: k.run(), kernels))
    time.sleep(0.5)
    pss = [k.pss() for k in kernels]
    ok = [k for k in kernels if k.error is None and k.answered is not None]
    res = {
        "kernels": n,
        "answered": len(ok),
        "errors": sorted({k.error for k in kernels if k.error})[:3],
        "pss_mib_per_kernel_mean": round(sum(p for p, _ in pss) / n, 1),
        "pss_mib_per_kernel_max": round(max(p for p, _ in pss), 1),
        "processes_per_kernel": round(sum(c for _, c in pss) / n, 2),
        "pss_mib_total": round(sum(p for p, _ in pss)),
        "ready_s_p50": round(percentile([k.ready for k in ok], 50), 3) if ok else None,
        "ready_s_max": round(max(k.ready for k in ok), 3) if ok else None,
        "query_ms_p50": round(percentile([k.answered for k in ok], 50) * 1000, 1) if ok else None,
        "query_ms_max": round(max(k.answered for k in ok) * 1000, 1) if ok else None,
        "mem_available_mib_during": mem_available_mib(),
    }
    for k in kernels:
        k.stop()
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--counts", default="1,50,100,200")
    ap.add_argument("--reserve-mib", type=int, default=4096)
    args = ap.parse_args()
    binary = os.path.realpath(args.binary)
    last_per_kernel = 45.0  # one kernel alone, measured; later rounds use the last mean
    with tempfile.TemporaryDirectory(prefix="sbir-scale-") as workdir:
        for n in [int(c) for c in args.counts.split(",")]:
            need = n * last_per_kernel * 1.2
            if mem_available_mib() - need < args.reserve_mib:
                print(json.dumps({"kernels": n, "skipped": f"MemAvailable {mem_available_mib()} MiB, need ~{need:.0f} MiB + {args.reserve_mib} MiB reserve"}), flush=True)
                break
            res = round_of(binary, n, workdir)
            last_per_kernel = max(res["pss_mib_per_kernel_mean"], 1.0)
            print(json.dumps(res), flush=True)


if __name__ == "__main__":
    sys.exit(main())
