"""Drives `sbir-kernel mcp` with the official Python MCP SDK (PyPI `mcp`).

Usage:
  client.py stdio BINARY [server flags...]
  client.py http URL TOKEN

Runs the scenario of e2e/mcp_test.go and exits non-zero with a message on
the first check that fails. The server must run with a short --cell-timeout
(2 s, scaled by SBIR_TEST_SLOW), --max-output-bytes 65536,
--max-code-bytes 100000 and --max-sessions 3.
"""

import asyncio
import os
import sys

import httpx
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client


def check(cond, what, got=None):
    if not cond:
        raise SystemExit(f"FAIL (python): {what}" + (f": got {got!r}" if got is not None else ""))


async def run_go(s, code, session="default", **extra):
    res = await s.call_tool("run_go", {"code": code, "session": session, **extra})
    return res, (res.structuredContent or {})


async def scenario(s):
    await s.initialize()
    tools = sorted(t.name for t in (await s.list_tools()).tools)
    check(tools == ["api_reference", "describe_data", "reset_session", "run_go"], "list tools", tools)

    # Define, reuse, fail, recover.
    _, out = await run_go(s, "x := 20", "a")
    check(out.get("success") is True, "define", out)
    _, out = await run_go(s, "x * 2", "a")
    check(out.get("value") == "40", "reuse", out)
    res, out = await run_go(s, "y := x +\n", "a")
    err = out.get("error") or {}
    check(res.isError and err.get("name") == "SyntaxError" and err.get("line"), "fail", out)
    res, out = await run_go(s, 'award_data.Where("Agncy", "==", "x")', "a")
    check(out.get("error", {}).get("suggestion") == 'did you mean "Agency"?', "suggestion", out)
    _, out = await run_go(s, "x + 1", "a")
    check(out.get("value") == "21", "recover", out)
    _, out = await run_go(s, "award_data.Where?", "a")
    check(out.get("success") is True and "func Where(column, op string, value any) Frame" in (out.get("value") or ""), "help cell", out)

    # Frames come back as records.
    _, out = await run_go(s, 'award_data.Head(10).Select("Company", "Award Year")', "a", max_rows=3)
    f = out.get("frame") or {}
    check(f.get("columns") == ["Company", "Award Year"] and len(f.get("records", [])) == 3 and f.get("rows") == 10, "frame", f)

    # A timeout keeps the server usable.
    _, out = await run_go(s, "for {}", "t")
    check(out.get("error", {}).get("name") == "Timeout", "timeout", out)
    _, out = await run_go(s, "1 + 1", "t")
    check(out.get("value") == "2", "after the timeout", out)

    # Reset forgets the session's variables.
    res = await s.call_tool("reset_session", {"session": "a"})
    check(res.structuredContent.get("existed") is True, "reset", res.structuredContent)
    _, out = await run_go(s, "x", "a")
    check(out.get("error", {}).get("name") == "CompileError", "after reset", out)

    # Two sessions in parallel with separate state (a and t are open: the cap is 3).
    await s.call_tool("reset_session", {"session": "t"})
    await run_go(s, 'who := "a"', "a")
    await run_go(s, 'who := "p"', "p")
    # While a's call sleeps until its time limit, p's call is answered:
    # in order, not by the clock (serialised, p would wait for a's limit).
    slow = asyncio.ensure_future(run_go(s, "time.Sleep(time.Hour)", "a"))
    quick = asyncio.ensure_future(run_go(s, "who", "p"))
    done, _ = await asyncio.wait([slow, quick], return_when=asyncio.FIRST_COMPLETED)
    check(quick in done and slow not in done, "parallel sessions", [f.done() for f in (slow, quick)])
    _, o2 = await quick
    _, o1 = await slow
    check(o2.get("value") == '"p"' and o1.get("error", {}).get("name") == "Timeout", "separate sessions", (o1, o2))
    _, o1 = await run_go(s, "who", "a")
    check(o1.get("value") == '"a"' or o1.get("restarted"), "separate state", o1)

    # More sessions than the cap.
    await run_go(s, "1", "c")
    res, out = await run_go(s, "1", "d")
    text = "".join(c.text for c in res.content if hasattr(c, "text"))
    check(res.isError and "sessions are open" in text, "session cap", text)
    await s.call_tool("reset_session", {"session": "c"})

    # Output flood and code over the cap.
    # 20,000 lines (218 kB) pass the 64 KiB cap three times over and fit in
    # the short time limit on a loaded machine.
    _, out = await run_go(s, 'for i := 0; i < 20000; i++ { fmt.Println("flood", i) }', "a")
    check(out.get("output_truncated") is True and len(out.get("stdout", "")) < 70000, "flood", len(out.get("stdout", "")))
    _, out = await run_go(s, "x := 1\n" * 20000, "a")
    check(out.get("error", {}).get("name") == "CodeTooLarge", "code cap", out.get("error"))

    # Wrong argument types and unknown tools.
    res = await s.call_tool("run_go", {"code": 42})
    check(res.isError, "wrong argument type", res)
    try:
        res = await s.call_tool("run_python", {})
        check(res.isError, "unknown tool", res)
    except Exception as e:  # a JSON-RPC error is also a clear answer
        check("run_python" in str(e), "unknown tool error names it", str(e))

    # Data, docs, resources.
    res = await s.call_tool("describe_data", {})
    d = res.structuredContent
    check(d["loaded"] and d["synthetic"] and any(c["name"] == "Award Amount" and c["type"] == "float" for c in d["columns"]), "describe_data", d)
    res = await s.call_tool("api_reference", {"query": "GroupBy"})
    check(any(e["name"] == "Frame.GroupBy" for e in res.structuredContent["entries"]), "api_reference", res.structuredContent)
    uris = sorted(str(r.uri) for r in (await s.list_resources()).resources)
    check(uris == ["sbir://docs/award_data", "sbir://docs/display", "sbir://schema"], "resources", uris)
    r = await s.read_resource("sbir://docs/award_data")
    check("Where" in r.contents[0].text, "docs resource")
    print("ok (python)")


async def main():
    mode = sys.argv[1]
    if mode == "stdio":
        params = StdioServerParameters(command=sys.argv[2], args=["mcp", *sys.argv[3:]], env=dict(os.environ))
        async with stdio_client(params) as (r, w):
            async with ClientSession(r, w) as s:
                await scenario(s)
    else:
        url, token = sys.argv[2], sys.argv[3]
        async with httpx.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60) as hc:
            async with streamable_http_client(url, http_client=hc) as (r, w, _):
                async with ClientSession(r, w) as s:
                    await scenario(s)


asyncio.run(main())
