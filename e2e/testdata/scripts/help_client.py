"""Send complete, inspect and execute requests to a kernel through
jupyter_client, as JupyterLab's completer, its tooltip (shift-tab) and a
cell run do, and print the replies.

Usage: help_client.py KERNEL_NAME < requests.json

requests.json is a JSON list of {"op": "complete"|"inspect"|"execute",
"code": ..., "cursor": N (code points; default: the end), "detail": 0|1}.
Prints a JSON list with one object per request: the reply content, and for
"execute" also "outputs", the data of its execute_result and display_data
messages. Exits 1 when the kernel does not answer.
"""

import json
import os
import sys

from jupyter_client.manager import KernelManager

TIMEOUT = 60 * float(os.environ.get("SBIR_TEST_SLOW") or 1)  # scaled as the Go tests' limits are


def main():
    requests = json.load(sys.stdin)
    km = KernelManager(kernel_name=sys.argv[1])
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    results = []
    try:
        kc.wait_for_ready(timeout=TIMEOUT)
        for r in requests:
            code = r["code"]
            cursor = r.get("cursor", len(code))
            if r["op"] == "complete":
                msg_id = kc.complete(code, cursor)
                results.append(wait_reply(kc, msg_id)["content"])
            elif r["op"] == "inspect":
                msg_id = kc.inspect(code, cursor, r.get("detail", 0))
                results.append(wait_reply(kc, msg_id)["content"])
            else:
                outputs = []

                def hook(msg):
                    if msg["msg_type"] in ("execute_result", "display_data", "error", "stream"):
                        outputs.append({"type": msg["msg_type"], "content": msg["content"]})

                reply = kc.execute_interactive(code, output_hook=hook, timeout=TIMEOUT)
                content = dict(reply["content"])
                content["outputs"] = outputs
                results.append(content)
    finally:
        print(json.dumps(results, indent=1))
        kc.stop_channels()
        km.shutdown_kernel(now=False)


def wait_reply(kc, msg_id):
    while True:
        msg = kc.get_shell_msg(timeout=TIMEOUT)
        if msg["parent_header"].get("msg_id") == msg_id:
            return msg


if __name__ == "__main__":
    main()
