"""One cell flooding output: the kernel's memory, the client's idle and the
truncation note, measured through jupyter_client.

Usage (Debian's /usr/bin/python3 has jupyter_client):

    /usr/bin/python3 bench/flood.py --binary ./sbir-kernel [--count 1000000]
        [--cases println,print,markdown,html] [--json out.json]

A case may carry its own count: --cases println:200000,markdown:40000.
--stall 5000:5 makes the client stop reading for 5 s after the 5,000th
message of each cell, as a slow client would: the kernel disconnects it
after its --iopub-stall-timeout (3 s unless --install-arg sets one), and
it must still get its idle (it loses the output between). --kernel-log
PATH keeps the kernel's log (its disconnects are logged there).

The binary's kernelspec is installed (`sbir-kernel install`) into a private
JUPYTER_DATA_DIR and the kernel is started by jupyter_client's
KernelManager, as JupyterLab and nbclient start it. Each case is one cell
that makes COUNT calls:

    println   for i := 0; i < COUNT; i++ { fmt.Println(i) }
    print     for i := 0; i < COUNT; i++ { fmt.Print("x") }
    markdown  for i := 0; i < COUNT; i++ { display.Markdown("**row** " + strconv.Itoa(i)) }
    html      for i := 0; i < COUNT; i++ { display.HTML("<b>x</b>") }

For each the script reports: the kernel process's peak RSS during the cell
(VmHWM from /proc/PID/status, reset before the cell through
/proc/PID/clear_refs; VmRSS is also sampled every 20 ms), the same for the
sandbox worker (a child process), the wall time from sending the request
to `status: idle` on iopub, whether idle and execute_reply arrived, how
many iopub messages and wire bytes the client received for the cell, and
the notes ("... [") the kernel added to say what it dropped.

iopub is read from the client's own socket and decoded by its Session, so
the byte count is what crossed the wire. Prints one JSON object per case
and, with --json, writes them all to a file.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import zmq

from scale import children  # descendants of a pid, thread by thread

# The tests run this on loaded machines: their waits (not the measurements)
# grow with SBIR_TEST_SLOW, as the Go tests' limits do.
SLOW = float(os.environ.get("SBIR_TEST_SLOW") or 1)

CELLS = {
    "warm": 'fmt.Println("warm", {n})',
    "println": 'for i := 0; i < {n}; i++ {{ fmt.Println(i) }}',
    "print": 'for i := 0; i < {n}; i++ {{ fmt.Print("x") }}',
    "markdown": 'for i := 0; i < {n}; i++ {{ display.Markdown("**row** " + strconv.Itoa(i)) }}',
    "html": 'for i := 0; i < {n}; i++ {{ display.HTML("<b>x</b>") }}',
}


def status_kib(pid, field):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def reset_peak(pid):
    """Resets VmHWM to the current RSS (Linux >= 4.0); False if refused."""
    try:
        with open(f"/proc/{pid}/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


class Sampler(threading.Thread):
    """Samples VmRSS of the kernel and its descendants until stopped."""

    def __init__(self, kernel_pid, interval=0.02):
        super().__init__(daemon=True)
        self.kernel_pid = kernel_pid
        self.interval = interval
        self.stop_event = threading.Event()
        self.kernel_max = 0
        self.worker_max = 0
        self.workers = set()
        self.samples = 0

    def run(self):
        while not self.stop_event.is_set():
            self.kernel_max = max(self.kernel_max, status_kib(self.kernel_pid, "VmRSS"))
            kids = children(self.kernel_pid)
            self.workers.update(kids)
            for c in kids:
                self.worker_max = max(self.worker_max, status_kib(c, "VmRSS"))
            self.samples += 1
            self.stop_event.wait(self.interval)

    def stop(self):
        self.stop_event.set()
        self.join()


def run_case(kc, sock, kernel_pid, name, count, timeout, stall=None):
    code = CELLS[name].format(n=count)
    workers = children(kernel_pid)
    reset_ok = reset_peak(kernel_pid)
    for w in workers:
        reset_ok = reset_peak(w) and reset_ok
    rss_before = status_kib(kernel_pid, "VmRSS")
    sampler = Sampler(kernel_pid)
    sampler.start()
    session = kc.session
    t0 = time.monotonic()
    msg_id = kc.execute(code, store_history=False)
    res = {
        "case": name, "count": count, "code": code,
        "idle": False, "reply_status": None, "iopub_messages": 0, "iopub_bytes": 0,
        "by_type": {}, "stream_bytes": 0, "notes": [],
    }
    deadline = t0 + timeout
    tails = {}  # the last bytes of each stream, where the notes are
    while time.monotonic() < deadline:
        if not sock.poll(max(1, int((deadline - time.monotonic()) * 1000))):
            break
        frames = sock.recv_multipart(copy=True)
        if stall and res["iopub_messages"] == stall[0] and "stalled_s" not in res:
            # A client that stops reading (a busy notebook, a loaded host):
            # the kernel disconnects it after its stall timeout; it must
            # still get idle.
            time.sleep(stall[1])
            res["stalled_s"] = stall[1]
        _, parts = session.feed_identities(frames, copy=True)
        msg = session.deserialize(parts, content=True, copy=True)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        size = sum(len(f) for f in frames)
        typ = msg["msg_type"]
        res["iopub_messages"] += 1
        res["iopub_bytes"] += size
        res["by_type"][typ] = res["by_type"].get(typ, 0) + 1
        content = msg["content"]
        if typ == "stream":
            text = content.get("text", "")
            res["stream_bytes"] += len(text.encode())
            tails[content["name"]] = (tails.get(content["name"], "") + text)[-8192:]
        elif typ == "error":
            res["error"] = f'{content.get("ename")}: {content.get("evalue")}'[:500]
        elif typ == "status" and content.get("execution_state") == "idle":
            res["idle"] = True
            break
    res["to_idle_s"] = round(time.monotonic() - t0, 3)
    try:
        reply = kc.get_shell_msg(timeout=10 * SLOW)
        res["reply_status"] = reply["content"].get("status")
    except Exception as e:  # report, don't hide
        res["reply_status"] = f"no execute_reply: {type(e).__name__}"
    sampler.stop()
    for stream, tail in sorted(tails.items()):
        for line in tail.splitlines():
            # The note follows the last byte kept, which may end mid-line.
            if "... [" in line:
                res["notes"].append({"stream": stream, "text": line[line.index("... ["):]})
    res["kernel_rss_before_mib"] = round(rss_before / 1024, 1)
    res["kernel_vmhwm_mib"] = round(status_kib(kernel_pid, "VmHWM") / 1024, 1)
    res["kernel_vmrss_sampled_max_mib"] = round(sampler.kernel_max / 1024, 1)
    res["kernel_vmrss_after_mib"] = round(status_kib(kernel_pid, "VmRSS") / 1024, 1)
    live = [w for w in sampler.workers if status_kib(w, "VmHWM")]
    res["worker_pids"] = sorted(sampler.workers)
    res["worker_vmhwm_mib"] = round(max([status_kib(w, "VmHWM") for w in live] or [0]) / 1024, 1)
    res["worker_vmrss_sampled_max_mib"] = round(sampler.worker_max / 1024, 1)
    res["peak_reset_before_cell"] = reset_ok
    res["rss_samples"] = sampler.samples
    return res


def subscribe(kc, sock, timeout=60 * SLOW):
    """Sends kernel_info until our iopub socket sees the kernel's status
    (a SUB socket receives nothing until its subscription has reached the
    kernel), and drains what is left."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        kc.kernel_info()
        try:
            kc.get_shell_msg(timeout=10 * SLOW)
        except Exception:
            continue
        if sock.poll(500):
            while sock.poll(200):
                sock.recv_multipart()
            return
    raise TimeoutError("the kernel's iopub status never reached the client")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--count", type=int, default=1_000_000)
    ap.add_argument("--cases", default="println,print,markdown,html")
    ap.add_argument("--timeout", type=float, default=600, help="seconds each cell may take to reach idle")
    ap.add_argument("--kernel-log", metavar="PATH", help="copy the kernel's whole stderr log here")
    ap.add_argument("--install-arg", action="append", default=[], help="extra `sbir-kernel install` flag (repeatable)")
    ap.add_argument("--json", help="also write the results here")
    ap.add_argument("--stall", metavar="N:SECONDS",
                    help="stop reading iopub for SECONDS after the N-th message of each cell (a slow client)")
    args = ap.parse_args()
    binary = os.path.realpath(args.binary)
    stall = None
    if args.stall:
        try:
            n, secs = args.stall.split(":")
            stall = (int(n), float(secs))
        except ValueError:
            sys.exit(f"flood.py: --stall {args.stall!r}: want N:SECONDS, e.g. 5000:5")
    cases = []  # (name, count)
    for c in args.cases.split(","):
        name, _, n = c.partition(":")
        if name not in CELLS:
            sys.exit(f"flood.py: unknown case {name!r} in --cases; the cases are {', '.join(CELLS)}")
        try:
            cases.append((name, int(n) if n else args.count))
        except ValueError:
            sys.exit(f"flood.py: --cases {c!r}: the count after ':' must be an integer")

    with tempfile.TemporaryDirectory(prefix="sbir-flood-") as work:
        data = os.path.join(work, "data")
        os.environ["JUPYTER_DATA_DIR"] = data
        os.environ["JUPYTER_RUNTIME_DIR"] = os.path.join(work, "runtime")
        os.environ.setdefault("SBIR_CACHE_DIR", os.path.join(work, "cache"))
        subprocess.run([binary, "install", *args.install_arg], check=True, stdout=subprocess.DEVNULL,
                       env=os.environ)
        from jupyter_client import KernelManager  # after JUPYTER_DATA_DIR is set

        km = KernelManager(kernel_name="sbir")
        log_path = os.path.join(work, "kernel.log")
        log = open(log_path, "wb")
        km.start_kernel(stderr=log)
        kc = km.client()
        # iopub is read from a plain SUB socket of our own, so that every
        # frame is counted as received; shell goes through the client.
        kc.start_channels(iopub=False, stdin=False)
        sock = zmq.Context.instance().socket(zmq.SUB)
        sock.setsockopt(zmq.SUBSCRIBE, b"")
        sock.setsockopt(zmq.LINGER, 0)
        sock.connect(f"{km.transport}://{km.ip}:{km.iopub_port}")
        results = []
        try:
            subscribe(kc, sock)
            kernel_pid = km.provisioner.pid
            # Start the worker and settle the kernel before measuring.
            run_case(kc, sock, kernel_pid, "warm", 1, 60 * SLOW)
            for name, count in cases:
                res = run_case(kc, sock, kernel_pid, name, count, args.timeout, stall)
                results.append(res)
                print(json.dumps(res), flush=True)
                if not res["idle"]:
                    break  # the kernel is stuck; later cases would measure nothing
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=False)
            log.close()
            with open(log_path, errors="replace") as f:
                tail = f.read().strip().splitlines()[-5:]
            if tail:
                print("kernel stderr (last lines): " + " | ".join(tail)[:2000], file=sys.stderr)
            if args.kernel_log:
                shutil.copyfile(log_path, args.kernel_log)
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"binary": binary, "count": args.count, "results": results}, f, indent=1)
        if not results or not all(r["idle"] for r in results):
            sys.exit(1)


if __name__ == "__main__":
    main()
