#!/usr/bin/python3
"""output_dist.py: the distribution of the output cells' times, kernels alternating.

compare.py reports a median of RUNS runs per kernel; a cell of a few
milliseconds varies run to run by as much as the margins it is judged by.
This runs the two output cells of compare.py (1 MiB in one write; 16,384
lines) N times in each named kernel, the kernels taking turns round by
round, through the same raw client, and prints p10, median and p90.

Usage: /usr/bin/python3 bench/output_dist.py [--runs N] [--rounds R]
           [--kernel-dir DIR] [--client raw|jupyter_client] KERNEL [KERNEL...]

KERNEL is a kernelspec name; "python3" (ipykernel) gets the Python cells,
any other name the Go cells. --kernel-dir adds a directory of kernelspecs
(e.g. one holding a kernel.json for another sbir-kernel binary).
--client jupyter_client times the cells through jupyter_client's own
BlockingKernelClient instead (every message through Session.deserialize,
as a notebook front end receives it).
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402
from jupyter_client.kernelspec import KernelSpecManager  # noqa: E402
from jupyter_client.manager import KernelManager  # noqa: E402


def cells(name):
    k = compare.PandasKernel if name == "python3" else compare.SbirKernel
    return {"1 MiB in one write": k.print_one, "16,384 lines": k.print_lines}


class JupyterClientConn:
    """Cells through jupyter_client's BlockingKernelClient, timed to idle."""

    def __init__(self, km):
        self.kc = km.blocking_client()
        self.kc.start_channels()

    def wait_ready(self):
        self.kc.wait_for_ready(timeout=120)

    def execute(self, code):
        t0 = time.perf_counter()
        msg_id = self.kc.execute(code)
        while True:
            m = self.kc.get_iopub_msg(timeout=300)
            if (m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "status"
                    and m["content"]["execution_state"] == "idle"):
                idle = time.perf_counter() - t0
                break
        self.kc.get_shell_msg(timeout=300)
        return (idle,)

    def close(self):
        self.kc.stop_channels()


def run(name, ksm, n, client):
    km = KernelManager(kernel_name=name, kernel_spec_manager=ksm)
    km.start_kernel()
    conn = JupyterClientConn(km) if client == "jupyter_client" else compare.Conn(km)
    try:
        conn.wait_ready()
        conn.execute("1")
        out = {}
        for label, code in cells(name).items():
            for _ in range(3):
                conn.execute(code)
            out[label] = [conn.execute(code)[0] * 1000 for _ in range(n)]
        return out
    finally:
        conn.close()
        km.shutdown_kernel(now=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("kernels", nargs="+")
    p.add_argument("--runs", type=int, default=40, help="cells per kernel and round (default 40)")
    p.add_argument("--rounds", type=int, default=2, help="rounds of every kernel in turn (default 2)")
    p.add_argument("--kernel-dir", action="append", default=[], help="another directory of kernelspecs")
    p.add_argument("--client", choices=["raw", "jupyter_client"], default="raw",
                   help="compare.py's raw client (default) or jupyter_client's BlockingKernelClient")
    a = p.parse_args()
    ksm = KernelSpecManager()
    if a.kernel_dir:
        ksm.kernel_dirs = a.kernel_dir + list(ksm.kernel_dirs)
    for r in range(a.rounds):
        for name in a.kernels:
            for label, ts in run(name, ksm, a.runs, a.client).items():
                ts.sort()
                q = lambda f: ts[min(len(ts) - 1, int(f * len(ts)))]
                print(f"round {r + 1} {name:12} {label:20} p10 {q(0.1):6.1f}  median {statistics.median(ts):6.1f}"
                      f"  p90 {q(0.9):6.1f} ms", flush=True)


if __name__ == "__main__":
    main()
