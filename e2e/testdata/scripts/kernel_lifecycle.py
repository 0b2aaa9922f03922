"""Drive a kernel through jupyter_client.KernelManager: interrupt, restart,
shutdown, and look for processes left behind.

Usage: kernel_lifecycle.py KERNEL_NAME [--binary PATH]

KERNEL_NAME is a kernelspec name ("sbir", or "python3" to validate this
script against ipykernel). --binary is the kernel executable: any process
running it (the kernel and its sandbox workers, whatever their argv says) is
tracked through /proc.

Prints one JSON object: {"checks": [{"name", "ok", "detail"}...], "info": {...}}
and exits 0 when every check passed, 1 otherwise.
"""

import argparse
import json
import os
import signal
import sys
import time
from queue import Empty

from jupyter_client.manager import KernelManager

# Cells per language: an endless loop (that says when it has started), a
# cell that stores state, a cell that prints it, and a print.
CELLS = {
    "go": {
        "endless": 'fmt.Println("started")\nfor {\n}',
        "store": "answer := 41 + 1",
        "read": "fmt.Println(answer)",
        "print": 'fmt.Println("alive")',
    },
    "python": {
        "endless": "print('started', flush=True)\nwhile True:\n    pass",
        "store": "answer = 41 + 1",
        "read": "print(answer)",
        "print": "print('alive')",
    },
}

# How long to wait for what must come; scaled by SBIR_TEST_SLOW, as the Go
# tests' limits are, since it bounds only a failure.
SLOW = float(os.environ.get("SBIR_TEST_SLOW") or 1)
TIMEOUT = 30 * SLOW


class Checks:
    def __init__(self):
        self.items = []
        self.info = {}

    def check(self, name, ok, detail=""):
        self.items.append({"name": name, "ok": bool(ok), "detail": str(detail)})
        return ok

    def done(self):
        print(json.dumps({"checks": self.items, "info": self.info}, indent=1))
        sys.exit(0 if all(c["ok"] for c in self.items) else 1)


def proc_table():
    """Map pid -> (ppid, cmdline, exe) for every live, non-zombie process."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        pid = int(entry)
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                stat = f.read().decode("utf-8", "replace")
            # The command name is in parentheses and may contain spaces.
            rest = stat[stat.rindex(")") + 2:].split()
            state, ppid = rest[0], int(rest[1])
            if state in ("Z", "X"):
                continue
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
            try:
                exe = os.readlink(f"/proc/{pid}/exe")
            except OSError:
                exe = ""
        except (OSError, ValueError):
            continue
        table[pid] = (ppid, cmdline, exe)
    return table


def ancestors():
    """This process and its ancestors (their argv may mention the binary)."""
    table, out, pid = proc_table(), set(), os.getpid()
    while pid and pid not in out:
        out.add(pid)
        pid = table.get(pid, (0,))[0]
    return out


def matching(connection_file, binary):
    """Processes of the kernel: argv[0] or exe is binary, or the argv holds
    the connection file."""
    found, mine = {}, ancestors()
    for pid, (_, cmdline, exe) in proc_table().items():
        if pid in mine:
            continue
        argv0 = cmdline.split(" ", 1)[0]
        if (binary and binary in (argv0, exe)) or connection_file in cmdline:
            found[pid] = cmdline
    return found


def descendants(root):
    table = proc_table()
    out, frontier = set(), {root}
    while frontier:
        children = {pid for pid, (ppid, _, _) in table.items() if ppid in frontier}
        children -= out
        out |= children
        frontier = children
    return out


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read().decode()
        return stat[stat.rindex(")") + 2] not in "ZX"
    except OSError:
        return False


def wait_reply(kc, msg_id, timeout=TIMEOUT):
    deadline = time.monotonic() + timeout
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError(f"no execute_reply for {msg_id} within {timeout}s")
        reply = kc.get_shell_msg(timeout=remaining)
        if reply["parent_header"].get("msg_id") == msg_id:
            return reply


def iopub_until_idle(kc, msg_id, timeout=TIMEOUT):
    """Collect iopub messages of msg_id up to and including its idle status."""
    msgs = []
    deadline = time.monotonic() + timeout
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError(f"no idle status for {msg_id} within {timeout}s (got {[m['msg_type'] for m in msgs]})")
        msg = kc.get_iopub_msg(timeout=remaining)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        msgs.append(msg)
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            return msgs


def wait_started(kc, msg_id, timeout=TIMEOUT):
    """Wait until the cell msg_id has printed "started": its code is running.
    (execute_input is sent before the code runs; ipykernel ignores a SIGINT
    that arrives in between, a window a loaded machine widens.)"""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        msg = kc.get_iopub_msg(timeout=deadline - time.monotonic())
        if (msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "stream"
                and "started" in msg["content"]["text"]):
            return
    raise TimeoutError("cell never printed that it started")


def run(kc, code, timeout=TIMEOUT, stop_on_error=True):
    msg_id = kc.execute(code, stop_on_error=stop_on_error)
    reply = wait_reply(kc, msg_id, timeout)
    outputs = iopub_until_idle(kc, msg_id, timeout)
    return reply, outputs


def text_of(outputs):
    parts = []
    for m in outputs:
        c = m["content"]
        if m["msg_type"] == "stream":
            parts.append(c["text"])
        elif m["msg_type"] in ("execute_result", "display_data"):
            parts.append(c["data"].get("text/plain", ""))
        elif m["msg_type"] == "error":
            parts.append(f"{c['ename']}: {c['evalue']}")
    return "".join(parts)


def interrupt_and_recover(c, km, kc, cells, how):
    """Start an endless cell, interrupt it with how(), and check recovery.

    The endless cell runs with stop_on_error=False: what is checked is that
    the kernel recovers, and ipykernel otherwise aborts a request that
    arrives before its abort window (scheduled on its event loop) closes,
    which under load can be the next cell (seen in CI once).
    """
    msg_id = kc.execute(cells["endless"], stop_on_error=False)
    wait_started(kc, msg_id)  # its code runs: from then on an interrupt reaches it
    started = time.monotonic()
    how()
    try:
        reply = wait_reply(kc, msg_id)
    except (TimeoutError, Empty) as e:
        c.check(f"interrupt ({how.__name__}): the running cell ends", False, f"{e}; kernel alive: {km.is_alive()}")
        return False
    took = time.monotonic() - started
    outputs = iopub_until_idle(kc, msg_id)
    content = reply["content"]
    errors = [m["content"] for m in outputs if m["msg_type"] == "error"]
    c.check(
        f"interrupt ({how.__name__}): the running cell ends with an error reply",
        content["status"] == "error",
        f"status {content['status']!r}, ename {content.get('ename')!r}, after {took:.2f}s; error outputs {[(e['ename'], e['evalue']) for e in errors]}",
    )
    c.info[f"interrupt_{how.__name__}_seconds"] = round(took, 3)
    c.info[f"interrupt_{how.__name__}_ename"] = content.get("ename")
    survived = km.is_alive()
    c.check(f"interrupt ({how.__name__}): the kernel survives", survived, "" if survived else "the kernel process died")
    reply, outputs = run(kc, cells["print"])
    return c.check(
        f"interrupt ({how.__name__}): the next cell runs",
        reply["content"]["status"] == "ok" and "alive" in text_of(outputs),
        f"reply {reply['content'].get('status')}, output {text_of(outputs)!r}",
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kernel")
    ap.add_argument("--binary", default="")
    args = ap.parse_args()
    binary = os.path.realpath(args.binary) if args.binary else ""

    c = Checks()
    km = KernelManager(kernel_name=args.kernel)
    language = km.kernel_spec.language
    cells = CELLS[language]
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=60 * SLOW)
    except RuntimeError as e:
        c.check("kernel starts and answers kernel_info", False, e)
        km.shutdown_kernel(now=True)
        c.done()

    kernel_proc = km.provisioner.process
    first_pid = kernel_proc.pid
    c.info["kernel_pid"] = first_pid
    # A first cell makes sure any lazily started worker exists.
    reply, _ = run(kc, cells["print"])
    c.check("a first cell runs", reply["content"]["status"] == "ok", reply["content"])
    seen = matching(km.connection_file, binary)
    workers = descendants(first_pid)
    c.info["processes_while_running"] = seen
    c.info["kernel_descendants"] = sorted(workers)
    c.check("the kernel process is visible in /proc", first_pid in seen, f"matching processes: {seen}")
    if binary:
        c.check(
            "its sandbox worker is visible in /proc (so the stray check can see workers)",
            len(workers) > 0 and any(p in seen for p in workers),
            f"descendants {sorted(workers)}, matching {seen}",
        )
    tracked = set(seen) | workers

    # 1. Interrupt, as JupyterLab's stop button does (interrupt_request on
    # control, because kernel.json says interrupt_mode "message").
    def interrupt_kernel():
        km.interrupt_kernel()

    interrupt_and_recover(c, km, kc, cells, interrupt_kernel)

    # 2. SIGINT to the kernel's process group, as a terminal's Ctrl-C would.
    def sigint():
        km.signal_kernel(signal.SIGINT)

    interrupt_and_recover(c, km, kc, cells, sigint)

    # 3. Restart: state is lost, the kernel is a new process, the old one
    # (and its workers) exited by themselves.
    run(kc, cells["store"])
    reply, outputs = run(kc, cells["read"])
    c.check("state is kept between cells", "42" in text_of(outputs), f"reply {reply['content']}, output {text_of(outputs)!r}")
    started = time.monotonic()
    km.restart_kernel(now=False)
    took = time.monotonic() - started
    c.info["restart_seconds"] = round(took, 3)
    c.check(
        "restart: the old kernel exits by itself after shutdown_request(restart=True)",
        kernel_proc.returncode == 0,
        f"exit status {kernel_proc.returncode} (negative = killed by that signal), restart took {took:.2f}s",
    )
    kernel_proc = km.provisioner.process
    c.check("restart: a new kernel process", kernel_proc.pid != first_pid, f"pid {kernel_proc.pid}")
    try:
        kc.wait_for_ready(timeout=60 * SLOW)
        # This cell fails on purpose: with stop_on_error, ipykernel aborts
        # a request that arrives before its abort window closes, which
        # under load was the next cell (CI once got an empty output).
        reply, outputs = run(kc, cells["read"], stop_on_error=False)
        c.check(
            "restart: variables are gone",
            reply["content"]["status"] == "error",
            f"status {reply['content']['status']}, output {text_of(outputs)!r}",
        )
        reply, outputs = run(kc, cells["print"])
        c.check("restart: the new kernel runs cells", "alive" in text_of(outputs), text_of(outputs))
    except (RuntimeError, TimeoutError, Empty) as e:
        c.check("restart: the new kernel answers", False, e)
    # The old kernel exited (its exit status was checked); its workers
    # follow it out.
    deadline = time.monotonic() + 10 * SLOW
    while True:
        left = [p for p in tracked if alive(p)]
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    c.check("restart: no process of the old kernel is left", not left, {p: proc_table().get(p) for p in left})

    # 4. Shutdown.
    tracked = set(matching(km.connection_file, binary)) | descendants(kernel_proc.pid)
    started = time.monotonic()
    km.shutdown_kernel(now=False)
    took = time.monotonic() - started
    c.info["shutdown_seconds"] = round(took, 3)
    c.check(
        "shutdown: the kernel exits by itself after shutdown_request",
        kernel_proc.returncode == 0,
        f"exit status {kernel_proc.returncode}, shutdown took {took:.2f}s",
    )
    kc.stop_channels()
    deadline = time.monotonic() + 10 * SLOW
    while time.monotonic() < deadline:
        left = {p: cmd for p, cmd in matching(km.connection_file, binary).items()}
        left.update({p: proc_table().get(p, ("", "?", ""))[1] for p in tracked if alive(p)})
        if not left:
            break
        time.sleep(0.1)
    c.check("shutdown: no stray processes (kernel or workers) remain", not left, left)
    c.done()


if __name__ == "__main__":
    main()
