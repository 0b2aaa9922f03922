#!/usr/bin/python3
"""Benchmark the sbir kernel against Debian's ipykernel in one run.

For each kernel it measures, through jupyter_client (Debian's python3-jupyter-client):

  start      wall time from launching the kernel process to receiving the
             kernel_info_reply (median of --starts launches)
  trivial    a trivial cell: execute_request sent -> status idle (with that
             request as parent) received; p50 and p99 of --cells cells
  1 MiB      a cell printing 1 MiB to stdout: execute_request sent -> all
             1,048,576 bytes of stream output received (and -> idle);
             median of --big-runs cells

Messages go through jupyter_client's Session (signing, serialisation) on raw
pyzmq sockets polled in one thread, so the client adds the same small
overhead to both kernels and no ioloop thread hops.

Run (needs /usr/bin/python3 with python3-jupyter-client and python3-ipykernel):

  /usr/bin/python3 bench/kernel_bench.py                      # kernelspec "sbir" (or sbir-kernel on PATH) vs python3
  /usr/bin/python3 bench/kernel_bench.py --sbir-argv './sbir-kernel kernel -f {connection_file}'
  /usr/bin/python3 bench/kernel_bench.py --sbir-kernel sbir --no-python --json out.json

The sbir side can be any kernel command line containing {connection_file};
--sbir-env KEY=VALUE sets environment variables for it.
"""

import argparse
import hmac
import json
import os
import shlex
import shutil
import statistics
import sys
import tempfile
import time
import uuid

try:
    import zmq
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
    from jupyter_client.manager import KernelManager
except ImportError as e:  # pragma: no cover
    sys.exit(f"kernel_bench: {e}; run with /usr/bin/python3 after `apt-get install python3-jupyter-client python3-ipykernel`")

MIB = 1 << 20


class Kernel:
    """A kernel under test: how to start it and which code to run."""

    def __init__(self, label, kernel_name=None, argv=None, env=None, setup="", trivial="", big=""):
        self.label, self.kernel_name, self.argv, self.env = label, kernel_name, argv, env or {}
        self.setup, self.trivial, self.big = setup, trivial, big
        self._tmp = None

    def manager(self):
        if self.argv is None:
            return KernelManager(kernel_name=self.kernel_name)
        # A private kernelspec directory holding exactly this command line.
        if self._tmp is None:
            self._tmp = tempfile.mkdtemp(prefix="kernel-bench-")
            spec_dir = os.path.join(self._tmp, "bench-" + self.label)
            os.makedirs(spec_dir)
            with open(os.path.join(spec_dir, "kernel.json"), "w") as f:
                json.dump({"argv": self.argv, "display_name": self.label, "language": "go",
                           "interrupt_mode": "message", "env": self.env}, f)
        ksm = KernelSpecManager(kernel_dirs=[self._tmp])
        return KernelManager(kernel_name="bench-" + self.label, kernel_spec_manager=ksm)

    def cleanup(self):
        if self._tmp:
            shutil.rmtree(self._tmp, ignore_errors=True)


class Conn:
    """Raw shell + iopub sockets of a started kernel."""

    def __init__(self, km):
        self.km, self.session = km, km.session
        self.shell = km.connect_shell()
        self.iopub = km.connect_iopub()  # subscribes to everything
        self.poller = zmq.Poller()
        self.poller.register(self.shell, zmq.POLLIN)
        self.poller.register(self.iopub, zmq.POLLIN)

    def send(self, msg_type, content):
        msg = self.session.msg(msg_type, content)
        self.session.send(self.shell, msg)
        return msg["header"]["msg_id"]

    def recv(self, timeout):
        """Yields (channel, msg) until timeout seconds pass.

        Messages are decoded with plain json.loads after checking their
        HMAC, not with Session.deserialize: jupyter_client's deserialize
        spends ~130 us per message extracting dates, which would make a
        sub-millisecond cell measure the client rather than the kernel.
        Contents are unpacked only where the caller needs them.
        """
        deadline = time.perf_counter() + timeout
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError("no message within %.1f s" % timeout)
            for sock, _ in self.poller.poll(left * 1000):
                frames = sock.recv_multipart(copy=True)
                i = frames.index(b"<IDS|MSG>")
                sig, header, parent, metadata, body = frames[i + 1:i + 6]
                if self.session.auth is not None:
                    mac = self.session.auth.copy()
                    for f in (header, parent, metadata, body):
                        mac.update(f)
                    if not hmac.compare_digest(mac.hexdigest().encode(), sig):
                        raise ValueError("invalid signature from the kernel")
                h = json.loads(header)
                msg = {"header": h, "msg_type": h["msg_type"], "parent_header": json.loads(parent),
                       "content": body}
                yield ("shell" if sock is self.shell else "iopub"), msg

    def wait_reply(self, msg_id, timeout=60):
        for ch, msg in self.recv(timeout):
            if ch == "shell" and msg["parent_header"].get("msg_id") == msg_id:
                return content(self.session, msg)

    def wait_ready(self, timeout=60):
        """Like jupyter_client's wait_for_ready: kernel_info until iopub delivers."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            self.wait_reply(self.send("kernel_info_request", {}), timeout)
            try:
                for ch, _ in self.recv(0.2):
                    if ch == "iopub":
                        # drain the rest of this request's messages
                        try:
                            for _ in self.recv(0.05):
                                pass
                        except TimeoutError:
                            pass
                        return
            except TimeoutError:
                continue
        raise TimeoutError("iopub never delivered")

    def execute(self, code, timeout=60):
        """Runs code; returns (seconds to idle, seconds to 1 MiB of stdout or None, reply, stdout bytes)."""
        t0 = time.perf_counter()
        msg_id = self.send("execute_request", {"code": code, "silent": False, "store_history": True,
                                               "user_expressions": {}, "allow_stdin": False,
                                               "stop_on_error": True})
        reply, got, t_all, t_idle = None, 0, None, None
        for ch, msg in self.recv(timeout):
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if ch == "shell":
                reply = content(self.session, msg)
            elif msg["msg_type"] == "stream" and content(self.session, msg)["content"]["name"] == "stdout":
                got += len(msg["content"]["text"].encode())
                if got >= MIB and t_all is None:
                    t_all = time.perf_counter() - t0
            elif msg["msg_type"] == "status" and content(self.session, msg)["content"]["execution_state"] == "idle":
                t_idle = time.perf_counter() - t0
            if reply is not None and t_idle is not None:
                return t_idle, t_all, reply, got

    def close(self):
        self.shell.close(linger=0)
        self.iopub.close(linger=0)


def content(session, msg):
    """Unpacks msg's content in place (it was deserialized without it)."""
    if isinstance(msg["content"], (bytes, memoryview)):
        msg["content"] = json.loads(msg["content"])
    return msg


def pct(xs, p):
    xs = sorted(xs)
    k = max(0, min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1)))))
    return xs[k]


def check_ok(reply, what):
    if reply["content"]["status"] != "ok":
        c = reply["content"]
        raise RuntimeError(f"{what} failed: {c.get('ename')}: {c.get('evalue')}")


def bench(kernel, args):
    res = {"kernel": kernel.label}
    starts = []
    for i in range(args.starts):
        km = kernel.manager()
        t0 = time.perf_counter()
        km.start_kernel()
        conn = Conn(km)
        try:
            conn.wait_reply(conn.send("kernel_info_request", {}), timeout=60)
            starts.append(time.perf_counter() - t0)
            if i == args.starts - 1:
                conn.wait_ready()
                if kernel.setup:
                    _, _, rep, _ = conn.execute(kernel.setup)
                    check_ok(rep, "setup cell")
                for _ in range(args.warmup):
                    conn.execute(kernel.trivial)
                trivial = []
                for _ in range(args.cells):
                    t, _, rep, _ = conn.execute(kernel.trivial)
                    check_ok(rep, "trivial cell")
                    trivial.append(t)
                big_all, big_idle = [], []
                for _ in range(args.big_runs):
                    t_idle, t_all, rep, got = conn.execute(kernel.big)
                    check_ok(rep, "1 MiB cell")
                    if got < MIB:
                        raise RuntimeError(f"1 MiB cell printed only {got} bytes")
                    big_all.append(t_all)
                    big_idle.append(t_idle)
                res.update({
                    "trivial_p50_ms": 1000 * pct(trivial, 50),
                    "trivial_p99_ms": 1000 * pct(trivial, 99),
                    "big_all_output_ms": 1000 * statistics.median(big_all),
                    "big_idle_ms": 1000 * statistics.median(big_idle),
                })
        finally:
            conn.close()
            km.shutdown_kernel(now=False)
    res["start_median_ms"] = 1000 * statistics.median(starts)
    kernel.cleanup()
    return res


def default_sbir(args):
    env = dict(kv.split("=", 1) for kv in args.sbir_env)
    code = dict(setup=args.sbir_setup, trivial=args.sbir_trivial, big=args.sbir_big)
    if args.sbir_argv:
        return Kernel("sbir", argv=shlex.split(args.sbir_argv), env=env, **code)
    name = args.sbir_kernel
    try:
        KernelSpecManager().get_kernel_spec(name)
        return Kernel("sbir", kernel_name=name, **code)
    except NoSuchKernel:
        exe = shutil.which("sbir-kernel")
        if not exe:
            sys.exit(f"kernel_bench: no kernelspec {name!r} and no sbir-kernel on PATH; "
                     "pass --sbir-argv 'PATH/sbir-kernel kernel -f {connection_file}' or --no-sbir")
        return Kernel("sbir", argv=[exe, "kernel", "-f", "{connection_file}"], env=env, **code)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sbir-kernel", default="sbir", help="installed kernelspec name of the sbir kernel (default sbir)")
    p.add_argument("--sbir-argv", help="kernel command line with {connection_file}, instead of a kernelspec")
    p.add_argument("--sbir-env", action="append", default=[], metavar="KEY=VALUE", help="environment for --sbir-argv")
    p.add_argument("--sbir-setup", default="", help="cell run once before measuring")
    p.add_argument("--sbir-trivial", default="1", help="the trivial cell (default: 1)")
    p.add_argument("--sbir-big", default='import "strings"\nfmt.Print(strings.Repeat("x", 1<<20))',
                   help="a cell printing exactly 1 MiB to stdout")
    p.add_argument("--python-kernel", default="python3", help="ipykernel's kernelspec name (default python3)")
    p.add_argument("--no-sbir", action="store_true")
    p.add_argument("--no-python", action="store_true")
    p.add_argument("--starts", type=int, default=10, help="kernel launches for the start time (default 10)")
    p.add_argument("--cells", type=int, default=300, help="trivial cells timed (default 300)")
    p.add_argument("--warmup", type=int, default=20, help="untimed trivial cells first (default 20)")
    p.add_argument("--big-runs", type=int, default=5, help="1 MiB cells timed (default 5)")
    p.add_argument("--json", help="also write the results to this file")
    args = p.parse_args()

    kernels = []
    if not args.no_sbir:
        kernels.append(default_sbir(args))
    if not args.no_python:
        kernels.append(Kernel("python3", kernel_name=args.python_kernel, trivial="1",
                              big='import sys; sys.stdout.write("x" * (1 << 20))'))
    results = [bench(k, args) for k in kernels]

    cols = [("start_median_ms", "start->kernel_info (median)"), ("trivial_p50_ms", "trivial cell p50"),
            ("trivial_p99_ms", "trivial cell p99"), ("big_all_output_ms", "1 MiB: all output"),
            ("big_idle_ms", "1 MiB: idle")]
    print(f"{'metric (ms)':30}" + "".join(f"{r['kernel']:>12}" for r in results)
          + ("       ratio" if len(results) == 2 else ""))
    for key, label in cols:
        row = f"{label:30}" + "".join(f"{r[key]:12.2f}" for r in results)
        if len(results) == 2 and results[0][key] > 0:
            row += f"{results[1][key] / results[0][key]:11.1f}x"
        print(row)
    if len(results) == 2:
        print(f"(ratio = {results[1]['kernel']} / {results[0]['kernel']})")
    print(f"({args.starts} starts, {args.cells} trivial cells, {args.big_runs} 1 MiB cells; "
          f"python {sys.version.split()[0]}, run {time.strftime('%Y-%m-%d %H:%M:%S')})")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"results": results, "args": vars(args)}, f, indent=2)


if __name__ == "__main__":
    main()
