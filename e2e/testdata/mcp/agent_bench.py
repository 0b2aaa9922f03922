"""The agent benchmark: 20 analysis questions about the awards, answered by a
scripted agent through the official Python MCP SDK (PyPI `mcp`) talking to
`sbir-kernel mcp` over stdio, each answer checked for exact equality against
one computed here, independently, with the standard library's csv module
from the same generated CSV file.

Usage:
  agent_bench.py BINARY CSV CACHE_DIR

The agent is scripted: one fixed piece of Go per question, written from
run_go's tool description alone (every award_data call it uses appears in
that description's cheat sheet, which is checked first). It counts its tool
calls. Exit status 0 and a last line "ok (...)" when every answer is equal.

It also checks the environment question: a server started the way the SDK
starts servers by default (only HOME, PATH and a few more) serves the
synthetic sample and says so; one given SBIR_CSV_PATH in `env` serves the
file, and says nothing.
"""

import asyncio
import csv
import datetime
import math
import os
import re
import sys
from collections import defaultdict

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import get_default_environment, stdio_client


class Failure(Exception):
    pass


def fail(what, got=None, want=None):
    msg = f"FAIL (agent benchmark): {what}"
    if got is not None or want is not None:
        msg += f"\n  got:  {got!r}\n  want: {want!r}"
    raise Failure(msg)


# ---- the data, read independently of the engine (docs/data.md's rules) ----

def text(v):
    return v if v != "" else None


def amount(v):
    if v == "":
        return None
    try:
        return float(v.replace(",", "").replace("$", ""))
    except ValueError:
        return None


def integer(v):
    if v == "":
        return None
    try:
        return int(v)
    except ValueError:
        return None


def day(v):
    if v == "":
        return None
    m = re.fullmatch(r"(\d{4})-(\d\d)-(\d\d)", v) or None
    if m:
        return datetime.date(int(m[1]), int(m[2]), int(m[3]))
    m = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", v)
    if m:
        return datetime.date(int(m[3]), int(m[1]), int(m[2]))
    return None


def load(path):
    rows = []
    with open(path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            rows.append({
                "Company": text(r["Company"]), "Award Title": text(r["Award Title"]),
                "Agency": text(r["Agency"]), "Phase": text(r["Phase"]), "Program": text(r["Program"]),
                "State": text(r["State"]), "Woman Owned": text(r["Woman Owned"]),
                "Award Year": integer(r["Award Year"]), "Award Amount": amount(r["Award Amount"]),
                "Number Employees": integer(r["Number Employees"]),
                "Proposal Award Date": day(r["Proposal Award Date"]), "Abstract": text(r["Abstract"]),
            })
    return rows


def iso(d):
    """A date as the table representation writes it (pandas' form)."""
    return None if d is None else d.isoformat() + "T00:00:00.000"


def groups(rows, *keys):
    g = defaultdict(list)
    for r in rows:
        g[tuple(r[k] for k in keys)].append(r)
    return g


def key_order(v):
    """Sort order of award_data: values in byte order, nulls last."""
    return (v is None, "" if v is None else v)


def total(rs, col):
    return sum((r[col] for r in rs if r[col] is not None), 0.0)


def quantile(values, q):
    """The linear interpolation of numpy's default (Hyndman and Fan's type 7)."""
    s = sorted(values)
    pos = q * (len(s) - 1)
    lo, hi = math.floor(pos), math.ceil(pos)
    return s[lo] if lo == hi else s[lo] + (s[hi] - s[lo]) * (pos - lo)


def counts_by(rs, key):
    return [{key: k[0], "Count": len(v)} for k, v in sorted(groups(rs, key).items(), key=lambda kv: key_order(kv[0][0]))]


# ---- the questions: Go code from the tool description, and the answer ----

def questions(rows):
    by_agency = sorted(groups(rows, "Agency").items(), key=lambda kv: key_order(kv[0][0]))
    phase2 = [r for r in rows if r["Phase"] == "Phase II"]
    ohio = [(i, r) for i, r in enumerate(rows) if r["State"] == "Ohio"]
    ohio_cols = ["Company", "Award Title", "Award Amount", "Proposal Award Date", "Number Employees", "Abstract"]
    largest = sorted(((r["Award Amount"], i) for i, r in enumerate(rows) if r["Award Amount"] is not None), key=lambda t: -t[0])
    per_emp = [(r["Award Amount"] / r["Number Employees"], i) for i, r in enumerate(rows)
               if r["Number Employees"] is not None and r["Number Employees"] > 0 and r["Award Amount"] is not None]
    per_emp.sort(key=lambda t: -t[0])
    company_dollars = sorted(((k[0], total(v, "Award Amount")) for k, v in groups(rows, "Company").items()),
                             key=lambda t: (-t[1], key_order(t[0])))
    agency_counts = sorted(((k[0], len(v)) for k, v in by_agency), key=lambda t: (-t[1], key_order(t[0])))
    phase2_dollars = {k[0]: total(v, "Award Amount") for k, v in groups(phase2, "Agency").items()}
    sensor = [r for r in rows if r["Abstract"] is not None and "sensor" in r["Abstract"].lower()]
    big_recent = [r for r in rows if r["Award Year"] is not None and 2015 <= r["Award Year"] <= 2020
                  and r["Award Amount"] is not None and r["Award Amount"] >= 1e6]
    undated = [r for r in rows if r["Proposal Award Date"] is None]
    geo = [r for r in rows if r["Company"] is not None and r["Company"].upper().startswith("GEO")]

    return [
        ("How many awards does each agency have, most first?",
         'award_data.ValueCounts("Agency").Sort("-Count", "Agency")',
         [{"Agency": a, "Count": n} for a, n in agency_counts]),
        ("Total award dollars by agency?",
         'award_data.GroupBy("Agency").Sum("Award Amount").Sort("Agency")',
         [{"Agency": k[0], "Award Amount": total(v, "Award Amount")} for k, v in by_agency]),
        ("Phase II awards per year?",
         'award_data.Where("Phase", "==", "Phase II").GroupBy("Award Year").Count().Sort("Award Year")',
         counts_by(phase2, "Award Year")),
        ("The ten companies with the most award dollars?",
         'award_data.GroupBy("Company").Sum("Award Amount").Sort("-Award Amount", "Company").Head(10)',
         [{"Company": c, "Award Amount": d} for c, d in company_dollars[:10]]),
        ("Mean award by program and phase?",
         'award_data.GroupBy("Program", "Phase").Mean("Award Amount").Sort("Program", "Phase")',
         [{"Program": k[0], "Phase": k[1], "Award Amount": total(v, "Award Amount") / sum(1 for r in v if r["Award Amount"] is not None)}
          for k, v in sorted(groups(rows, "Program", "Phase").items())]),
        ("Median award by agency?",
         'award_data.GroupBy("Agency").Median("Award Amount").Sort("Agency")',
         [{"Agency": k[0], "Award Amount": quantile([r["Award Amount"] for r in v if r["Award Amount"] is not None], 0.5)} for k, v in by_agency]),
        ("The 90th percentile of award amounts in each phase?",
         'award_data.GroupBy("Phase").Quantile("Award Amount", 0.9).Sort("Phase")',
         [{"Phase": k[0], "Award Amount": quantile([r["Award Amount"] for r in v if r["Award Amount"] is not None], 0.9)}
          for k, v in sorted(groups(rows, "Phase").items())]),
        ("The share of woman-owned awardees in each state?",
         'award_data.GroupBy("State").Share("Woman Owned", "==", "Y").Sort("State")',
         [{"State": k[0], "Count": len(v), "Share": sum(1 for r in v if r["Woman Owned"] == "Y") / len(v)}
          for k, v in sorted(groups(rows, "State").items(), key=lambda kv: key_order(kv[0][0]))]),
        ("How many abstracts mention sensors, per agency?",
         'award_data.Where("Abstract", "contains", "sensor").GroupBy("Agency").Count().Sort("Agency")',
         counts_by(sensor, "Agency")),
        ("How many distinct companies has each agency funded?",
         'award_data.GroupBy("Agency").CountDistinct("Company").Sort("Agency")',
         [{"Agency": k[0], "Distinct Company": len({r["Company"] for r in v if r["Company"] is not None})} for k, v in by_agency]),
        ("The five largest awards?",
         'award_data.NLargest(5, "Award Amount").Select("Company", "Award Amount", "Award Year")',
         [{"Company": rows[i]["Company"], "Award Amount": a, "Award Year": rows[i]["Award Year"]} for a, i in largest[:5]]),
        ("Awards of a million dollars or more in 2015-2020, per agency?",
         'award_data.Where("Award Year", "between", []int{2015, 2020}).Where("Award Amount", ">=", 1e6).GroupBy("Agency").Count().Sort("Agency")',
         counts_by(big_recent, "Agency")),
        ("Award dollars by agency and phase, as a table?",
         'award_data.Pivot(award_data.PivotOptions{Rows: "Agency", Columns: "Phase", Values: "Award Amount", Agg: "sum"})',
         [{"Agency": k[0], **{p: (total([r for r in v if r["Phase"] == p], "Award Amount") if any(r["Phase"] == p for r in v) else None)
                              for p in ("Phase I", "Phase II")}} for k, v in by_agency]),
        ("Per agency: awards, dollars and firms?",
         'award_data.GroupBy("Agency").Agg("count() as Awards", "sum(Award Amount) as Dollars", "nunique(Company) as Firms").Sort("Agency")',
         [{"Agency": k[0], "Awards": len(v), "Dollars": total(v, "Award Amount"), "Firms": len({r["Company"] for r in v if r["Company"] is not None})}
          for k, v in by_agency]),
        ("Each agency's awards next to its Phase II dollars?",
         'award_data.GroupBy("Agency").Count().Join(award_data.Where("Phase", "==", "Phase II").GroupBy("Agency").Sum("Award Amount"), "left", "Agency").Sort("Agency")',
         [{"Agency": k[0], "Count": len(v), "Award Amount": phase2_dollars.get(k[0])} for k, v in by_agency]),
        ("The five largest awards per employee?",
         'award_data.Where("Number Employees", ">", 0).Compute("Per Employee", "Award Amount", "/", "Number Employees").NLargest(5, "Per Employee").Select("Company", "Per Employee")',
         [{"Company": rows[i]["Company"], "Per Employee": v} for v, i in per_emp[:5]]),
        ("Awards without a proposal award date, per year?",
         'award_data.Where("Proposal Award Date", "is null", nil).GroupBy("Award Year").Count().Sort("Award Year")',
         counts_by(undated, "Award Year")),
        ("Each agency's first and last proposal award date?",
         'award_data.GroupBy("Agency").Agg("min(Proposal Award Date) as First", "max(Proposal Award Date) as Last").Sort("Agency")',
         [{"Agency": k[0],
           "First": iso(min((r["Proposal Award Date"] for r in v if r["Proposal Award Date"]), default=None)),
           "Last": iso(max((r["Proposal Award Date"] for r in v if r["Proposal Award Date"]), default=None))} for k, v in by_agency]),
        ("Every award in Ohio, with its abstract (paged)?",
         'award_data.Where("State", "==", "Ohio").Select("Company", "Award Title", "Award Amount", "Proposal Award Date", "Number Employees", "Abstract")',
         [{c: (iso(r[c]) if c == "Proposal Award Date" else r[c]) for c in ohio_cols} for _, r in ohio]),
        ("The companies whose names start with GEO, by number of awards?",
         'award_data.Where("Company", "prefix", "GEO").ValueCounts("Company").Sort("-Count", "Company")',
         [{"Company": c, "Count": n} for c, n in sorted(((k[0], len(v)) for k, v in groups(geo, "Company").items()), key=lambda t: (-t[1], t[0]))]),
    ]


# ---- the scripted agent ----

class Agent:
    def __init__(self, session):
        self.s = session
        self.calls = defaultdict(int)

    async def call(self, tool, args):
        self.calls[tool] += 1
        res = await self.s.call_tool(tool, args)
        return res, (res.structuredContent or {})

    async def frame(self, code, page, session="bench"):
        """Runs code and returns its frame's records, page rows a call."""
        records, offset = [], 0
        while True:
            res, out = await self.call("run_go", {"code": code, "session": session, "max_rows": page, "offset": offset})
            if res.isError or not out.get("success"):
                fail(f"run_go {code}", out.get("error"))
            f = out.get("frame")
            if f is None:
                fail(f"run_go {code}: no frame", out)
            records += f["records"]
            if not f.get("truncated"):
                return records, out
            offset = f["next_offset"]


def same(got, want):
    """Exact equality, numbers included: an integer column gives ints, a float column floats."""
    if isinstance(want, dict):
        return isinstance(got, dict) and got.keys() == want.keys() and all(same(got[k], want[k]) for k in want)
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(same(g, w) for g, w in zip(got, want))
    if isinstance(want, float) and isinstance(got, float):
        return got == want or (math.isnan(got) and math.isnan(want))
    return type(got) is type(want) and got == want


async def check_description(s):
    tools = {t.name: t for t in (await s.list_tools()).tools}
    desc = tools["run_go"].description
    for name in ("ValueCounts", "GroupBy", "Sum", "Sort", "Where", "Head", "Mean", "Median", "Quantile", "Share",
                 "CountDistinct", "NLargest", "Select", "Pivot", "Agg", "Join", "Compute"):
        if not re.search(rf"\b{name}\b", desc):
            fail(f"run_go's description does not show {name}: the scripted agent's code could not come from it")
    if "no package clause" in desc:
        fail("run_go's description still says cells have no package clause")


async def environment(binary, env, want_synthetic, want_rows=None):
    params = StdioServerParameters(command=binary, args=["mcp", "--cell-timeout", "60s"], env=env)
    async with stdio_client(params) as (r, w):
        async with ClientSession(r, w) as s:
            await s.initialize()
            d = (await s.call_tool("describe_data", {})).structuredContent
            out = (await s.call_tool("run_go", {"code": "award_data.Count()"})).structuredContent
            if d["synthetic"] != want_synthetic or bool(d.get("notice")) != want_synthetic or bool(out.get("notice")) != want_synthetic:
                fail(f"environment (synthetic {want_synthetic}): describe_data {d.get('synthetic')} notice {d.get('notice')!r}, run_go notice {out.get('notice')!r}")
            if want_synthetic and "SBIR_CSV_PATH" not in out["notice"]:
                fail("the synthetic notice does not say how to serve the real data", out["notice"])
            if want_rows is not None and (d["rows"] != want_rows or d["origin"] != "SBIR_CSV_PATH"):
                fail("describe_data with SBIR_CSV_PATH", (d["rows"], d["origin"]), (want_rows, "SBIR_CSV_PATH"))


async def main():
    binary, path, cache = sys.argv[1], sys.argv[2], sys.argv[3]
    rows = load(path)
    # What an SDK user gets without `env`: the sample, and a notice.
    await environment(binary, get_default_environment(), True)
    env = {**get_default_environment(), "SBIR_CSV_PATH": path, "SBIR_CACHE_DIR": cache}
    await environment(binary, env, False, len(rows))

    params = StdioServerParameters(command=binary, args=["mcp", "--cell-timeout", "60s"], env=env)
    async with stdio_client(params) as (r, w):
        async with ClientSession(r, w) as s:
            await s.initialize()
            await check_description(s)
            agent = Agent(s)
            _, d = await agent.call("describe_data", {})
            if d["rows"] != len(rows):
                fail("describe_data rows", d["rows"], len(rows))
            qs = questions(rows)
            if len(qs) != 20:
                fail(f"{len(qs)} questions, want 20")
            for n, (question, code, want) in enumerate(qs, 1):
                # One question pages through its frame 50 rows at a time.
                got, _ = await agent.frame(code, 50 if "(paged)" in question else 1000)
                if not same(got, want):
                    for k, (g, w) in enumerate(zip(got, want)):
                        if not same(g, w):
                            fail(f"question {n} ({question}) record {k}", g, w)
                    fail(f"question {n} ({question}): {len(got)} records", got[len(want):][:3], want[len(got):][:3])
                print(f"{n:2}. {question} {len(want)} records equal", flush=True)
            calls = sum(agent.calls.values())
            print(f"ok (agent benchmark): 20/20 answers equal; {calls} tool calls ({dict(agent.calls)}); {len(rows)} awards")


def failure(e):
    """The Failure inside the exception groups the SDK's task groups wrap it in."""
    if isinstance(e, Failure):
        return e
    for sub in getattr(e, "exceptions", ()):
        if f := failure(sub):
            return f
    return None


try:
    asyncio.run(main())
except BaseException as e:
    if f := failure(e):
        sys.exit(str(f))
    raise
