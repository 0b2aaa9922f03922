#!/usr/bin/python3
"""compare.py: sbir against ipykernel + pandas, DuckDB and Polars, in one run.

Run through bench/compare.sh, which builds the kernel, installs its
kernelspec into a private Jupyter data directory and the Node packages into
a cache directory, then calls this script with Debian's python3.

Every engine answers the same questions on the same CSV:

  Output    1 MiB printed in one write; 16,384 printed lines (64 bytes each);
            with both kernels named, in fresh kernels taking turns cell by
            cell (--sequential-output: each kernel's in its own run)
  Queries   group by Agency, sum of Award Amount; Award Year >= 2015 and
            Phase II, count; Abstract contains "quantum", count; top 20
            companies by Phase II dollars; median Phase I amount by Award
            Year; each warm and its first run (sbir: in a fresh kernel of
            its own; the others: first after loading)
  Loading   CSV -> typed table (sbir: `sbir-kernel run` on an empty cache,
            to the printed answer; the table's note gives the time until
            the process exits with the Arrow file durable)
  Memory    growth of the kernel's processes over N trivial cells
  Operations  what pandas users reach for (bench/pandas_ops.py), sbir and
            pandas only: window functions, bins, per-group rows, text,
            dates, reshaping, comparisons; warm, answers compared

The two kernels run cells through jupyter_client, timed from sending
execute_request to the kernel's status idle for it (all output received).
DuckDB (@duckdb/node-api) and Polars (nodejs-polars) run in-process in Node
(bench/engines.mjs), with no kernel round trip. Times are medians of --runs
runs. Besides timing, the answers of all engines are compared: counts must
be equal and sums, medians and the top-20 list equal to a cent; --check
makes a difference fail the run (CI uses this on a small file).
"""

import argparse
import hmac
import json
import os
import platform
import statistics
import subprocess
import sys
import time

from pandas_ops import OPS, PANDAS_SETUP, pandas_answer_code, parse_sbir_answer, sbir_answer_code
from procfs import children_by_parent, host_reported_kib, is_sandbox_worker, minor_faults, tree_rss_kib

try:
    import zmq
    from jupyter_client.manager import KernelManager
except ImportError as e:  # pragma: no cover
    sys.exit(f"compare.py: {e}; run with /usr/bin/python3 after "
             "`apt-get install python3-jupyter-client python3-ipykernel python3-pandas`")

MIB = 1 << 20
LINES = 16384

# The questions as an analyst types them: each cell's value is displayed,
# as in a notebook. "answer" cells print the result in a form compare.py
# reads (tab-separated key and value per line, or one number).
SBIR = {
    "agency_sum": ('award_data.GroupBy("Agency").Sum("Award Amount")', "Agency", "Award Amount"),
    "year_phase_count": ('award_data.Where("Award Year", ">=", 2015).Where("Phase", "==", "Phase II").Count()', None, None),
    "quantum_count": ('award_data.Where("Abstract", "contains", "quantum").Count()', None, None),
    "top_companies": ('award_data.Where("Phase", "==", "Phase II").GroupBy("Company").Sum("Award Amount")'
                      '.Sort("-Award Amount").Head(20)', "Company", "Award Amount"),
    "median_phase1": ('award_data.Where("Phase", "==", "Phase I").GroupBy("Award Year").Median("Award Amount")',
                      "Award Year", "Award Amount"),
}
PANDAS = {
    "agency_sum": 'df.groupby("Agency", observed=True)["Award Amount"].sum()',
    "year_phase_count": 'int(((df["Award Year"] >= 2015) & (df["Phase"] == "Phase II")).sum())',
    "quantum_count": 'int(df["Abstract"].str.contains("quantum", case=False, regex=False, na=False).sum())',
    "top_companies": 'df[df["Phase"] == "Phase II"].groupby("Company")["Award Amount"].sum().nlargest(20)',
    "median_phase1": 'df[df["Phase"] == "Phase I"].groupby("Award Year")["Award Amount"].median()',
}
QUESTIONS = [
    ("agency_sum", "group by Agency, sum of Award Amount"),
    ("year_phase_count", "Award Year ≥ 2015 and Phase II, count"),
    ("quantum_count", 'Abstract contains "quantum", count'),
    ("top_companies", "top 20 companies by Phase II dollars"),
    ("median_phase1", "median Phase I amount by Award Year"),
]
CATEGORIES = ["Agency", "Branch", "Phase", "Program", "State", "HUBZone Owned",
              "Socially and Economically Disadvantaged", "Woman Owned"]


class Conn:
    """Raw shell + iopub sockets of a started kernel.

    Messages are decoded with json.loads after checking their HMAC, not
    with Session.deserialize, whose date parsing costs ~130 us a message
    and would make a fast cell measure the client rather than the kernel.
    """

    def __init__(self, km):
        self.km, self.session = km, km.session
        self.shell = km.connect_shell()
        self.iopub = km.connect_iopub()
        self.poller = zmq.Poller()
        self.poller.register(self.shell, zmq.POLLIN)
        self.poller.register(self.iopub, zmq.POLLIN)

    def send(self, msg_type, content):
        msg = self.session.msg(msg_type, content)
        self.session.send(self.shell, msg)
        return msg["header"]["msg_id"]

    def recv(self, timeout):
        deadline = time.perf_counter() + timeout
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError("no message from the kernel within %.0f s" % timeout)
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
                yield ("shell" if sock is self.shell else "iopub"), h["msg_type"], json.loads(parent), body

    def wait_ready(self, timeout=120):
        """kernel_info until iopub delivers (as jupyter_client's wait_for_ready)."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            msg_id = self.send("kernel_info_request", {})
            try:
                for ch, _, parent, _ in self.recv(5):
                    if ch == "iopub" and parent.get("msg_id") == msg_id:
                        return
            except TimeoutError:
                continue
        raise TimeoutError("the kernel never answered on iopub")

    def execute(self, code, timeout=300):
        """Runs code; returns (seconds to idle, stdout text, reply content)."""
        t0 = time.perf_counter()
        msg_id = self.send("execute_request", {"code": code, "silent": False, "store_history": True,
                                               "user_expressions": {}, "allow_stdin": False,
                                               "stop_on_error": True})
        reply, idle, out = None, None, []
        for ch, msg_type, parent, body in self.recv(timeout):
            if parent.get("msg_id") != msg_id:
                continue
            if ch == "shell":
                reply = json.loads(body)
            elif msg_type == "stream":
                c = json.loads(body)
                if c["name"] == "stdout":
                    out.append(c["text"])
            elif msg_type == "status" and json.loads(body)["execution_state"] == "idle":
                idle = time.perf_counter() - t0
            if reply is not None and idle is not None:
                if reply["status"] != "ok":
                    raise RuntimeError(f"cell failed: {reply.get('ename')}: {reply.get('evalue')}\n{code}")
                return idle, "".join(out), reply

    def close(self):
        self.shell.close(linger=0)
        self.iopub.close(linger=0)


def kernel_pid(km):
    prov = getattr(km, "provisioner", None)
    if prov is not None and getattr(prov, "process", None) is not None:
        return prov.process.pid
    return km.kernel.pid


class KernelEngine:
    """A Jupyter kernel driven through jupyter_client: sbir or ipykernel."""

    def __init__(self, name, kernel_name, args):
        self.name, self.kernel_name, self.args = name, kernel_name, args
        self.km = self.conn = None

    def start(self):
        self.km = KernelManager(kernel_name=self.kernel_name)
        self.km.start_kernel()
        self.conn = Conn(self.km)
        self.conn.wait_ready()

    def stop(self):
        if self.conn:
            self.conn.close()
        if self.km:
            self.km.shutdown_kernel(now=False)
        self.km = self.conn = None

    def timed(self, code, runs):
        return [self.conn.execute(code)[0] for _ in range(runs)]

    def check_lines(self):
        _, out, _ = self.conn.execute(self.print_lines)
        if len(out.encode()) != MIB:
            raise RuntimeError(f"{self.name}: the 16,384-line cell printed {len(out.encode())} bytes, want {MIB}")

    def first_runs(self):
        """Each question's first run in a fresh kernel of its own, after
        one trivial cell, or None where a fresh kernel would have to load
        the CSV again (ipykernel: then each question's first run after
        loading is taken, as for DuckDB and Polars)."""
        return None

    def run(self, csv):
        a = self.args
        res = {"engine": self.name, "questions": {}}
        res.update(self.prepare(csv))
        firsts = self.first_runs()
        self.start()
        try:
            self.conn.execute(self.trivial)  # the kernel is up and has run a cell
            if "load" not in res:
                res["load"] = self.load(csv)
            for key, _ in QUESTIONS:
                first = firsts[key] if firsts else self.conn.execute(self.query(key))[0]
                res["questions"][key] = {"warm": self.timed(self.query(key), a.runs), "first": first,
                                         "answer": self.answer(key)}
            if not a.interleave_output:
                res["print_1mib"] = self.timed(self.print_one, a.runs)
                res["print_lines"] = self.timed(self.print_lines, a.runs)
                self.check_lines()
            pid = kernel_pid(self.km)
            for _ in range(min(100, a.mem_cells)):  # warm-up: first cells may size buffers
                self.conn.execute(self.trivial)
            before = tree_rss_kib(pid)
            for _ in range(a.mem_cells):
                self.conn.execute(self.trivial)
            res["mem_growth_kib"] = tree_rss_kib(pid) - before
            res["mem_rss_kib"] = tree_rss_kib(pid)
        finally:
            self.stop()
        return res


    def prepare_ops(self, csv):
        """Readies a started kernel for the operations: the data loaded."""


class SbirKernel(KernelEngine):
    trivial = "1"
    print_one = 'import "strings"\nfmt.Print(strings.Repeat("x", 1<<20))'
    print_lines = 'import "strings"\nline := strings.Repeat("x", 63)\nfor i := 0; i < 16384; i++ {\n\tfmt.Println(line)\n}'

    def __init__(self, name, kernel_name, args):
        super().__init__(name, kernel_name, args)
        self.first_faults, self.warm_faults = {}, {}  # by question key; by cell code

    def run(self, csv):
        res = super().run(csv)
        for key, _ in QUESTIONS:
            q = res["questions"][key]
            if key in self.first_faults:
                q["first_faults"] = self.first_faults[key]
            if self.query(key) in self.warm_faults:
                q["warm_faults"] = self.warm_faults[self.query(key)]
        return res

    def prepare(self, csv):
        """Times the CSV → Arrow conversion: `sbir-kernel run` on an empty
        cache (process start and one trivial cell included), median of up
        to three runs; the kernel then uses the last cache. "load" is the
        time to the printed answer; the process exits later, once the Arrow
        file is durable (synced and marked), which "load_durable" times."""
        a = self.args
        times, durable, peaks = [], [], []
        reported_before = host_reported_kib()
        for i in range(min(3, a.runs)):
            cache = os.path.join(a.work, f"sbir-cache-{i}")
            env = dict(os.environ, SBIR_CSV_PATH=csv, SBIR_CACHE_DIR=cache)
            t0 = time.perf_counter()
            proc = subprocess.Popen([a.sbir_bin, "run", "-c", "award_data.Count()"], env=env,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            answer = proc.stdout.readline()
            times.append(time.perf_counter() - t0)
            proc.stdout.read()
            _, status, ru = os.wait4(proc.pid, 0)
            durable.append(time.perf_counter() - t0)
            proc.returncode = os.waitstatus_to_exitcode(status)
            if proc.returncode != 0 or not answer.strip().isdigit():
                raise RuntimeError(f"sbir-kernel run failed: {answer.decode()}{proc.stderr.read().decode()}")
            proc.stdout.close()
            proc.stderr.close()
            peaks.append(ru.ru_maxrss / 1024)
        os.environ["SBIR_CSV_PATH"], os.environ["SBIR_CACHE_DIR"] = csv, cache
        return {"load": statistics.median(times), "load_runs": times, "load_durable": statistics.median(durable),
                "load_rss_mib": max(peaks),
                "load_host_reported_kib": None if reported_before is None else
                [reported_before, host_reported_kib() - reported_before]}

    def first_runs(self):
        # Whatever a question builds on first use (indexes not in the
        # cache, code paths run for the first time) is paid here. One
        # sample of a few milliseconds is at the mercy of the scheduler:
        # the median of up to three fresh kernels per question is taken.
        # The worker's page faults during the run are counted too: a new
        # process pays one for every 4 KiB of fresh memory until its heap
        # has grown, which is most of what a first run costs beyond a warm
        # one (docs/performance.md, "First runs and fresh memory").
        firsts = {}
        self.first_faults = {}
        for key, _ in QUESTIONS:
            times, faults = [], []
            for _ in range(min(3, self.args.runs)):
                self.start()
                try:
                    self.conn.execute(self.trivial)
                    worker = self.worker_pid()
                    before = minor_faults(worker) if worker else None
                    times.append(self.conn.execute(self.query(key))[0])
                    after = minor_faults(worker) if worker else None
                    if before is not None and after is not None:
                        faults.append(after - before)
                finally:
                    self.stop()
            firsts[key] = statistics.median(times)
            if faults:
                self.first_faults[key] = statistics.median(faults)
        return firsts

    def op_cell(self, key):
        return OPS[key][1]

    def op_answer(self, key):
        return parse_sbir_answer(key, self.conn.execute(sbir_answer_code(key))[1])

    def worker_pid(self):
        kids = [p for p in children_by_parent().get(kernel_pid(self.km), []) if is_sandbox_worker(p)]
        return kids[0] if len(kids) == 1 else None

    def timed(self, code, runs):
        """Times runs of code; for a question, also counts the worker's
        page faults over them (see first_runs)."""
        worker = self.worker_pid()
        before = minor_faults(worker) if worker else None
        times = super().timed(code, runs)
        after = minor_faults(worker) if worker else None
        if before is not None and after is not None and runs:
            self.warm_faults[code] = (after - before) / runs
        return times

    def query(self, key):
        return SBIR[key][0]

    def answer(self, key):
        expr, k, v = SBIR[key]
        if k is None:
            _, out, _ = self.conn.execute(f"fmt.Println({expr})")
            return int(out.strip())
        code = (f"f := {expr}\nk := f.Strings({json.dumps(k)})\nv := f.Floats({json.dumps(v)})\n"
                'for i := range k {\n\tfmt.Printf("%s\\t%v\\n", k[i], v[i])\n}')
        _, out, _ = self.conn.execute(code)
        pairs = [line.split("\t") for line in out.splitlines()]
        pairs = [[a, float(b)] for a, b in pairs]
        return pairs if key == "top_companies" else dict(pairs)


class PandasKernel(KernelEngine):
    trivial = "1"

    def prepare(self, csv):
        return {}
    print_one = 'import sys; sys.stdout.write("x" * (1 << 20))'
    print_lines = 'line = "x" * 63\nfor i in range(16384):\n    print(line)'

    def load(self, csv):
        setup = ("import pandas as pd\n"
                 f"df = pd.read_csv({csv!r}, dtype={{c: 'category' for c in {CATEGORIES!r}}}, low_memory=False, "
                 # Only an empty field is null, as in award_data ("N/A" is text).
                 "keep_default_na=False, na_values=[''])")
        return self.conn.execute(setup)[0]

    def query(self, key):
        return PANDAS[key]

    def prepare_ops(self, csv):
        self.load(csv)
        self.conn.execute(PANDAS_SETUP)

    def op_cell(self, key):
        return OPS[key][3]

    def op_answer(self, key):
        out = self.conn.execute(pandas_answer_code(key))[1].strip()
        return json.loads(out) if out.startswith("{") else float(out)

    def answer(self, key):
        expr = PANDAS[key]
        if key in ("year_phase_count", "quantum_count"):
            _, out, _ = self.conn.execute(f"print({expr})")
            return int(out.strip())
        code = ("import json\n"
                f"print(json.dumps([[str(k), float(v)] for k, v in ({expr}).items()]))")
        _, out, _ = self.conn.execute(code)
        pairs = json.loads(out)
        return pairs if key == "top_companies" else dict(pairs)


def interleaved_output(kernels, runs):
    """Times the output cells in fresh kernels taking turns cell by cell
    (the first kernel leads in even runs, the other in odd ones), so that
    a slow or fast moment of the machine weighs on both alike: each cell
    is a few milliseconds, and a median of the kernels measured one after
    the other moved by as much as the margins it is judged by. Returns
    {engine name: {"print_1mib": [...], "print_lines": [...]}}."""
    out = {k.name: {} for k in kernels}
    for k in kernels:
        k.start()
    try:
        for k in kernels:
            k.conn.execute(k.trivial)
            for code in (k.print_one, k.print_lines):
                for _ in range(3):  # warm-up, as every cell before it is timed elsewhere
                    k.conn.execute(code)
            k.check_lines()
        for key, cell in (("print_1mib", "print_one"), ("print_lines", "print_lines")):
            for k in kernels:
                out[k.name][key] = []
            for i in range(runs):
                for k in (kernels if i % 2 == 0 else kernels[::-1]):
                    out[k.name][key].append(k.conn.execute(getattr(k, cell))[0])
    finally:
        for k in kernels:
            k.stop()
    return out


def interleaved_ops(kernels, csv, runs, keys=tuple(OPS)):
    """Times the operations of pandas_ops.OPS named by keys in fresh
    kernels taking turns run by run (the first kernel leads in even runs,
    the other in odd ones), each warm (after one untimed run), and reads
    their answers: on a busy machine, a slow moment weighs on both alike.
    Returns {engine name: {key: {"warm": [...], "answer": ...}}}."""
    out = {k.name: {} for k in kernels}
    for k in kernels:
        k.start()
    try:
        for k in kernels:
            k.conn.execute(k.trivial)
            k.prepare_ops(csv)
        for key in keys:
            for k in kernels:
                k.conn.execute(k.op_cell(key))
                out[k.name][key] = {"warm": []}
            for i in range(runs):
                for k in (kernels if i % 2 == 0 else kernels[::-1]):
                    out[k.name][key]["warm"].append(k.conn.execute(k.op_cell(key))[0])
            for k in kernels:
                out[k.name][key]["answer"] = k.op_answer(key)
    finally:
        for k in kernels:
            k.stop()
    return out


def node_engine(name, csv, args):
    out = subprocess.run(["node", os.path.join(args.node_dir, "engines.mjs"), name, csv, str(args.runs)],
                         cwd=args.node_dir, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"{name} failed:\n{out.stderr}")
    r = json.loads(out.stdout)
    res = {"engine": name, "load": r["load"], "rows": r["rows"], "questions": {}}
    for key, q in r["questions"].items():
        res["questions"][key] = {"warm": q["warm"], "first": q["first"], "answer": q["answer"]}
    return res


def same(a, b):
    """Answers equal: numbers to a cent, everything else exactly."""
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) <= max(0.005, 1e-9 * max(abs(a), abs(b)))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def compare_answers(results):
    """Returns a list of differences between engines' answers."""
    diffs = []
    ref = results[0]
    with_ops = [r for r in results if "ops" in r]
    for key in with_ops[0]["ops"] if len(with_ops) > 1 else []:
        want = with_ops[0]["ops"][key]["answer"]
        for r in with_ops[1:]:
            got = r["ops"][key]["answer"]
            if not same(want, got):
                diffs.append(f"{key}: {r['engine']} answered {json.dumps(got)[:400]}\n"
                             f"    but {with_ops[0]['engine']} answered {json.dumps(want)[:400]}")
    for key, _ in QUESTIONS if "questions" in ref else []:
        want = ref["questions"][key]["answer"]
        for r in results[1:]:
            got = r["questions"][key]["answer"]
            if not same(want, got):
                diffs.append(f"{key}: {r['engine']} answered {json.dumps(got)[:400]}\n"
                             f"    but {ref['engine']} answered {json.dumps(want)[:400]}")
    return diffs


def fmt_s(x):
    if x is None:
        return "–"
    ms = x * 1000
    if ms >= 1000:
        return f"{x:.2f} s"
    return f"{ms:.1f} ms" if ms >= 10 else f"{ms:.2f} ms"


def ratio(other, sbir):
    if other is None or sbir is None or sbir <= 0:
        return "–"
    return f"{other / sbir:.1f}×"


def table(results, extra):
    """Markdown sections: each row gives every engine and other ÷ sbir."""
    by = {r["engine"]: r for r in results}
    names = [n for n in ("sbir", "pandas", "duckdb", "polars") if n in by]
    label = {"sbir": "sbir", "pandas": "ipykernel + pandas", "duckdb": "DuckDB", "polars": "Polars"}
    anchors = [n for n in names if n != "sbir"]
    head = "| | " + " | ".join(label[n] for n in names) + " | " + \
        " | ".join(f"{label[n]} ÷ sbir" for n in anchors) + " |"
    sep = "|---" * (1 + len(names) + len(anchors)) + "|"
    lines = []

    def row(text, get, fmt=fmt_s, ratios=True):
        vals = {n: get(by[n]) for n in names}
        cells = [fmt(vals[n]) for n in names]
        rs = [ratio(vals[n], vals.get("sbir")) if ratios else "–" for n in anchors]
        lines.append(f"| {text} | " + " | ".join(cells) + " | " + " | ".join(rs) + " |")

    med = lambda xs: statistics.median(xs) if xs else None
    lines += ["### Output", "", head, sep]
    row("1 MiB printed in one write", lambda r: med(r.get("print_1mib")))
    row("16,384 printed lines (1 MiB)", lambda r: med(r.get("print_lines")))
    lines += ["", "### Queries", "", head, sep]
    for key, text in QUESTIONS:
        row(text, lambda r, key=key: med(r["questions"][key]["warm"]))
    for key, text in QUESTIONS:
        row(f"{text}, first run", lambda r, key=key: r["questions"][key].get("first"))
    lines += ["", "First run: sbir's in a fresh kernel of its own (after one cell of `1`; the median of "
                  "three kernels); the other engines' first after loading the CSV."]
    if "sbir" in by:
        q = by["sbir"]["questions"]
        lines += ["sbir's first run ÷ its warm time: " + "; ".join(
            f"{text} {q[key]['first'] / med(q[key]['warm']):.1f}×" for key, text in QUESTIONS
            if q[key].get("first") and med(q[key]["warm"])) + "."]
        if all("first_faults" in q[key] and "warm_faults" in q[key] for key, _ in QUESTIONS):
            lines += ["sbir's worker page faults per run, first / warm (a new process faults in its heap as "
                      "it grows): " + "; ".join(f"{text} {q[key]['first_faults']:.0f} / {q[key]['warm_faults']:.0f}"
                                                for key, text in QUESTIONS) + "."]
    if all("ops" in by[n] for n in ("sbir", "pandas") if n in by) and "sbir" in by and "pandas" in by:
        lines += [""] + ops_table(by)
    lines += ["", "### Loading", "", head, sep]
    row("CSV → typed table", lambda r: r.get("load"))
    if extra.get("sbir_load_durable"):
        lines += ["", "sbir's time is `sbir-kernel run -c 'award_data.Count()'` on an empty cache, from the "
                      "start of the process to the printed answer (process start, CSV → typed Arrow file, "
                      "a worker started on it, the cell); the Arrow file is synced to disk in the background "
                      f"meanwhile, and the process exits once it is durable: {fmt_s(extra['sbir_load_durable'])}. "
                      f"It peaked at {extra['sbir_load_rss_mib']:.0f} MiB resident. "
                      "The conversions, in order: " + ", ".join(fmt_s(t) for t in extra["sbir_load_runs"]) + "."]
        rep = extra.get("sbir_load_host_reported")
        if rep is None:
            lines += ["", "This machine hands no free memory back to a host (no free page reporting): the "
                          "conversions' memory is there when they fault it in."]
        else:
            lines += ["", f"This VM hands free memory back to its host (free page reporting: "
                          f"{rep[0] / (1 << 20):,.0f} GiB since it booted, {rep[1] / 1024:,.0f} MiB during these "
                          "conversions). A conversion that faults in memory the host has taken back takes 0.15–0.3 s "
                          "longer here than one that reuses memory freed moments before (docs/performance.md, "
                          "\"The load and the VM's free page reporting\"; `bench/coldload.py --pauses 0,6` "
                          "measures both)."]
    lines += ["", "### Memory", "", head, sep]
    row(f"kernel processes' RSS growth over {extra['mem_cells']:,} cells of `1`",
        lambda r: r.get("mem_growth_kib"), fmt=lambda v: "–" if v is None else f"{v / 1024:+.1f} MiB", ratios=False)
    row("kernel processes' RSS after them", lambda r: r.get("mem_rss_kib"),
        fmt=lambda v: "–" if v is None else f"{v / 1024:.0f} MiB", ratios=False)
    return "\n".join(lines)


def ops_table(by):
    """The operations' section: sbir and pandas, medians and ratio."""
    med = lambda xs: statistics.median(xs) if xs else None
    lines = ["### Operations pandas users reach for (issue 31)", "",
             "| | sbir | ipykernel + pandas | pandas ÷ sbir |", "|---|---|---|---|"]
    for key in by["sbir"]["ops"]:
        s_, p_ = med(by["sbir"]["ops"][key]["warm"]), med(by["pandas"]["ops"][key]["warm"])
        lines.append(f"| {OPS[key][0]} | {fmt_s(s_)} | {fmt_s(p_)} | {ratio(p_, s_)} |")
    lines += ["", "Warm runs (after one untimed run), medians, in fresh kernels of their own taking turns run "
                  "by run; each cell as an analyst types it in each kernel (bench/pandas_ops.py), displayed "
                  "as in a notebook."]
    return lines


def machine_facts(args, load_start):
    """The facts a reader needs to weigh the numbers, as markdown lines."""
    def run(*cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True, check=False).stdout.strip()
        except OSError:
            return "?"

    def node_version(pkg):
        try:
            with open(os.path.join(args.node_dir, "node_modules", pkg, "package.json")) as f:
                return json.load(f)["version"]
        except (OSError, ValueError, KeyError):
            return "?"

    import ipykernel
    import jupyter_client
    import pandas
    mem = run("free", "-h").splitlines()
    mem = mem[1].split()[1] if len(mem) > 1 else "?"
    load_end = os.getloadavg()
    return [
        f"- machine: {os.cpu_count()} cores (`nproc`), memory {mem} (`free -h`), "
        f"{platform.system()} {platform.release()}; load average {load_start[0]:.1f} at the start, "
        f"{load_end[0]:.1f} at the end (2 cores: above 2 means other work competed)",
        f"- sbir-kernel: {run(args.sbir_bin, 'version').splitlines()[0]} (this checkout, {run('git', '-C', os.path.dirname(os.path.abspath(__file__)), 'rev-parse', '--short', 'HEAD')})",
        f"- Python {platform.python_version()}: pandas {pandas.__version__}, ipykernel {ipykernel.__version__}, "
        f"jupyter_client {jupyter_client.__version__} (Debian's)",
        f"- Node {run('node', '--version')}: @duckdb/node-api {node_version('@duckdb/node-api')}, "
        f"nodejs-polars {node_version('nodejs-polars')}",
    ]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("csv")
    p.add_argument("--node-dir", required=True, help="directory with engines.mjs and its node_modules")
    p.add_argument("--sbir-kernel", default="sbir", help="kernelspec name of the sbir kernel")
    p.add_argument("--python-kernel", default="python3", help="kernelspec name of ipykernel")
    p.add_argument("--sbir-bin", required=True, help="the sbir-kernel binary (the kernelspec's)")
    p.add_argument("--work", required=True, help="scratch directory for the Arrow caches")
    p.add_argument("--runs", type=int, default=5, help="timed runs per measurement (median; default 5)")
    p.add_argument("--mem-cells", type=int, default=5000, help="trivial cells for memory growth (default 5000)")
    p.add_argument("--engines", default="sbir,pandas,duckdb,polars")
    p.add_argument("--check", action="store_true", help="exit 1 if the engines' answers differ")
    p.add_argument("--no-ops", dest="ops", action="store_false",
                   help="skip the operations of pandas_ops.py (sbir and pandas only)")
    p.add_argument("--ops", dest="only_ops", metavar="KEYS",
                   help="time only these operations of pandas_ops.py (comma-separated keys, e.g. cut,qcut,month), "
                        "sbir and pandas taking turns, and nothing else")
    p.add_argument("--json", help="also write all measurements to this file")
    p.add_argument("--sequential-output", action="store_true",
                   help="time the output cells in each kernel's own run instead of both kernels taking turns")
    args = p.parse_args()
    names = args.engines.split(",")
    args.interleave_output = not args.sequential_output and "sbir" in names and "pandas" in names
    csv = os.path.abspath(args.csv)

    load_start = os.getloadavg()
    if args.only_ops:
        only_ops(args, csv, load_start)
        return
    results = []
    for name in names:
        print(f"compare: running {name}...", file=sys.stderr, flush=True)
        if name == "sbir":
            r = SbirKernel("sbir", args.sbir_kernel, args).run(csv)
        elif name == "pandas":
            r = PandasKernel("pandas", args.python_kernel, args).run(csv)
        elif name in ("duckdb", "polars"):
            r = node_engine(name, csv, args)
        else:
            sys.exit(f"compare.py: unknown engine {name!r}")
        results.append(r)
    if args.interleave_output:
        print("compare: output cells, sbir and ipykernel taking turns...", file=sys.stderr, flush=True)
        times = interleaved_output([SbirKernel("sbir", args.sbir_kernel, args),
                                    PandasKernel("pandas", args.python_kernel, args)], args.runs)
        for r in results:
            r.update(times.get(r["engine"], {}))

    if args.ops and "sbir" in names and "pandas" in names:
        print("compare: the operations of pandas_ops.py, sbir and ipykernel taking turns...", file=sys.stderr, flush=True)
        ops = interleaved_ops([SbirKernel("sbir", args.sbir_kernel, args),
                               PandasKernel("pandas", args.python_kernel, args)], csv, args.runs)
        for r in results:
            if r["engine"] in ops:
                r["ops"] = ops[r["engine"]]
    sbir = next((r for r in results if r["engine"] == "sbir"), {})
    extra = {"mem_cells": args.mem_cells, "sbir_load_rss_mib": sbir.get("load_rss_mib"),
             "sbir_load_durable": sbir.get("load_durable"), "sbir_load_runs": sbir.get("load_runs", []),
             "sbir_load_host_reported": sbir.get("load_host_reported_kib")}
    print(table(results, extra))
    diffs = compare_answers(results)
    print()
    if diffs:
        print("**Answers differ between engines:**\n")
        for d in diffs:
            print("- " + d)
    else:
        ops = f" and sbir and pandas to the {len(OPS)} operations" if sum("ops" in r for r in results) > 1 else ""
        print(f"All {len(results)} engines gave the same answers to the {len(QUESTIONS)} questions{ops} "
              "(counts equal, sums and medians to a cent, the same top-20 list).")
    print(f"\nMedians of {args.runs} runs; cells timed from execute_request to idle through jupyter_client; "
          "ratios are the other engine's time ÷ sbir's (above 1× means sbir is faster)."
          + (" Output cells: sbir and ipykernel in fresh kernels of their own, taking turns cell by cell."
             if args.interleave_output else " Output cells: each kernel's in its own run.") + "\n")
    rows = next((r.get("rows") for r in results if r.get("rows")), None)
    print(f"- input: {csv} ({os.path.getsize(csv) / 1e6:.0f} MB" + (f", {rows:,} rows" if rows else "") + ")")
    print("\n".join(machine_facts(args, load_start)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"results": results, "python": platform.python_version()}, f, indent=1)
    if diffs and args.check:
        sys.exit(1)


def only_ops(args, csv, load_start):
    """--ops: the named operations alone, sbir and pandas taking turns."""
    keys = args.only_ops.split(",")
    unknown = [k for k in keys if k not in OPS]
    if unknown:
        sys.exit(f"compare.py: unknown operation {', '.join(unknown)}; pandas_ops.py has {', '.join(OPS)}")
    print(f"compare: {', '.join(keys)}, sbir and ipykernel taking turns...", file=sys.stderr, flush=True)
    # sbir's kernel converts the CSV on first use (an untimed run), as
    # SbirKernel.prepare would before it, without timing conversions.
    os.environ["SBIR_CSV_PATH"], os.environ["SBIR_CACHE_DIR"] = csv, os.path.join(args.work, "sbir-cache-ops")
    ops = interleaved_ops([SbirKernel("sbir", args.sbir_kernel, args),
                           PandasKernel("pandas", args.python_kernel, args)], csv, args.runs, keys)
    results = [{"engine": name, "ops": ops[name]} for name in ("sbir", "pandas")]
    print("\n".join(ops_table({r["engine"]: r for r in results})))
    diffs = compare_answers(results)
    print()
    for d in diffs:
        print("- " + d)
    if not diffs:
        print(f"sbir and pandas gave the same answers to the {len(keys)} operations.")
    print(f"\nMedians of {args.runs} runs.\n")
    print(f"- input: {csv} ({os.path.getsize(csv) / 1e6:.0f} MB)")
    print("\n".join(machine_facts(args, load_start)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"results": results, "python": platform.python_version()}, f, indent=1)
    if diffs and args.check:
        sys.exit(1)


if __name__ == "__main__":
    main()
