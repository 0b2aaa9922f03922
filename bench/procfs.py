"""What Linux's /proc and /sys say about processes and the machine, for the
benchmark scripts (compare.py, coldload.py). Standard library only."""

import os


def stat_fields(pid):
    """The fields of /proc/<pid>/stat after the command name (state,
    ppid, ...), or None when the process is gone (Linux /proc)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def children_by_parent():
    """Every process's children, by parent pid."""
    children = {}
    for d in os.listdir("/proc"):
        if d.isdigit() and (fields := stat_fields(d)) is not None:
            children.setdefault(int(fields[1]), []).append(int(d))
    return children


def is_sandbox_worker(pid):
    """Whether pid is a sandbox worker (its second argument is
    wire.WorkerArg), not another child of the kernel such as a build."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            args = f.read().split(b"\0")
    except OSError:
        return False
    return len(args) > 1 and args[1] == b"__sbir_worker"


def tree_rss_kib(pid):
    """Resident set of pid and all its descendants, in KiB (Linux /proc)."""
    children = children_by_parent()
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        todo.extend(children.get(p, []))
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total


def minor_faults(pid):
    """Minor page faults of pid so far, or None (Linux /proc)."""
    fields = stat_fields(pid)
    return int(fields[7]) if fields else None


HOST_REPORTED = "/sys/module/page_reporting/parameters/reported_kib"


def host_reported_kib():
    """How much free memory this VM's guest has handed back to its host so
    far (free page reporting, e.g. a virtio balloon), in KiB, or None where
    nothing is reported. Memory handed back is supplied afresh by the host
    when it is next touched: a conversion right after a few hundred MiB went
    back paid 0.15–0.3 s more (docs/performance.md, "The load and the VM's
    free page reporting"), which is why the report names it."""
    try:
        with open(HOST_REPORTED) as f:
            return int(f.read())
    except (OSError, ValueError):
        return None
