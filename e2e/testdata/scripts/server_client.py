"""Run cells on a kernel through a Jupyter Server's REST and websocket API,
as JupyterLab does: the client of the Kernel Gateway and JupyterHub tests.

Usage: server_client.py BASE_URL TOKEN COMMAND [ARGS]

BASE_URL is the server's root (http://127.0.0.1:PORT, or
http://127.0.0.1:PORT/user/NAME behind JupyterHub); TOKEN goes in the
Authorization header. Commands:

  kernelspecs                 print the kernelspecs the server offers
  notebook PATH [--kernel K]  start a kernel, run every code cell of the
                              notebook, shut the kernel down
  cells JSON [--kernel K] [--keep] [--kernel-id ID]
                              run the JSON list of cells (on a new kernel,
                              or on kernel ID); --keep leaves it running
  hang [--kernel K]           start a kernel, start an endless cell, print
                              {"kernel_id": ...} and block until killed
  kernel ID                   print the server's model of kernel ID

Each command prints one JSON object on its last line. For cells, each result
is {"status", "stdout", "stderr", "data" (MIME bundle of execute_result and
display_data), "error"}.
"""

import argparse
import datetime
import json
import os
import sys
import time
import urllib.error
import urllib.request
import uuid

import websocket  # websocket-client

TIMEOUT = 60 * float(os.environ.get("SBIR_TEST_SLOW") or 1)  # scaled as the Go tests' limits are


class Server:
    def __init__(self, base, token):
        self.base = base.rstrip("/")
        self.token = token

    def request(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Authorization", f"token {self.token}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(req, timeout=TIMEOUT) as resp:
            raw = resp.read()
            return json.loads(raw) if raw else None

    def start_kernel(self, name):
        return self.request("POST", "/api/kernels", {"name": name})["id"]

    def shutdown_kernel(self, kid):
        self.request("DELETE", f"/api/kernels/{kid}")

    def channels(self, kid):
        url = self.base.replace("http", "ws", 1) + f"/api/kernels/{kid}/channels?session_id={uuid.uuid4()}"
        return websocket.create_connection(url, header=[f"Authorization: token {self.token}"], timeout=TIMEOUT)


def message(msg_type, content, channel="shell"):
    return {
        "header": {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "username": "e2e",
                   "session": uuid.uuid4().hex, "version": "5.3",
                   # The kernel refuses signed requests without a current date
                   # (its replay defence); jupyter_client and JupyterLab send one.
                   "date": datetime.datetime.now(datetime.timezone.utc).isoformat()},
        "parent_header": {}, "metadata": {}, "content": content, "channel": channel, "buffers": [],
    }


def execute(ws, code, timeout=TIMEOUT):
    msg = message("execute_request", {"code": code, "silent": False, "store_history": True,
                                      "user_expressions": {}, "allow_stdin": False, "stop_on_error": True})
    ws.send(json.dumps(msg))
    result = {"status": None, "stdout": "", "stderr": "", "data": {}, "error": None}
    idle = False
    deadline = time.monotonic() + timeout
    while not (idle and result["status"]):
        ws.settimeout(max(0.1, deadline - time.monotonic()))
        reply = json.loads(ws.recv())
        if reply.get("parent_header", {}).get("msg_id") != msg["header"]["msg_id"]:
            continue
        kind, content = reply["msg_type"], reply["content"]
        if kind == "stream":
            result[content["name"]] += content["text"]
        elif kind in ("execute_result", "display_data"):
            result["data"].update(content["data"])
        elif kind == "error":
            result["error"] = f"{content['ename']}: {content['evalue']}"
        elif kind == "status" and content["execution_state"] == "idle":
            idle = True
        elif kind == "execute_reply":
            result["status"] = content["status"]
    return result


def wait_kernel_info(ws):
    msg = message("kernel_info_request", {})
    ws.send(json.dumps(msg))
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        reply = json.loads(ws.recv())
        if reply["msg_type"] == "kernel_info_reply":
            return reply["content"]
    raise TimeoutError("no kernel_info_reply")


def run_cells(server, cells, kernel, keep=False, kid=None):
    started = time.monotonic()
    kid = kid or server.start_kernel(kernel)
    ws = server.channels(kid)
    info = wait_kernel_info(ws)
    ready = time.monotonic() - started
    results = [execute(ws, c) for c in cells]
    ws.close()
    if not keep:
        server.shutdown_kernel(kid)
    return {"kernel_id": kid, "implementation": info.get("implementation"),
            "ready_seconds": round(ready, 3), "results": results}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("token")
    ap.add_argument("command")
    ap.add_argument("arg", nargs="?")
    ap.add_argument("--kernel", default="sbir")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--kernel-id", default=None)
    args = ap.parse_args()
    server = Server(args.base, args.token)
    try:
        if args.command == "kernelspecs":
            out = server.request("GET", "/api/kernelspecs")
            out = {"default": out.get("default"), "names": sorted(out["kernelspecs"]),
                   "display_names": {k: v["spec"]["display_name"] for k, v in out["kernelspecs"].items()}}
        elif args.command == "notebook":
            with open(args.arg) as f:
                nb = json.load(f)
            cells = ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
                     for c in nb["cells"] if c["cell_type"] == "code"]
            out = run_cells(server, cells, args.kernel)
        elif args.command == "cells":
            out = run_cells(server, json.loads(args.arg), args.kernel, args.keep, args.kernel_id)
        elif args.command == "kernel":
            out = server.request("GET", f"/api/kernels/{args.arg}")
        elif args.command == "hang":
            kid = server.start_kernel(args.kernel)
            ws = server.channels(kid)
            wait_kernel_info(ws)
            ws.send(json.dumps(message("execute_request", {"code": "for {\n}", "silent": False, "store_history": True,
                                                            "user_expressions": {}, "allow_stdin": False})))
            print(json.dumps({"kernel_id": kid}), flush=True)
            while True:
                try:
                    ws.recv()
                except websocket.WebSocketTimeoutException:
                    pass
        else:
            raise SystemExit(f"unknown command {args.command}")
    except urllib.error.HTTPError as e:
        out = {"http_error": e.code, "reason": e.reason, "body": e.read().decode("utf-8", "replace")[:2000]}
        print(json.dumps(out))
        sys.exit(1)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
