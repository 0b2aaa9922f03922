"""Execute a notebook with nbclient the way papermill does, and save it even
when a cell fails.

Usage: run_notebook.py IN.ipynb OUT.ipynb [--timeout SECONDS]
                       [--go-params JSON] [--csharp-params JSON]

nbclient is papermill's execution engine: allow_stdin is false, the run stops
at the first cell that raises an error, and the notebook is written with
that cell's error output in place (papermill then exits non-zero; so does
this script). `jupyter nbconvert --execute` stops the same way but writes
nothing, which is why the e2e tests use this script to inspect a failed run.

--go-params injects a parameters cell with inject_go_parameters.py.
--csharp-params injects the cell that `papermill -l .net-csharp -p ...`
writes (papermill's CSharpTranslator output format, re-implemented here
because papermill is not packaged by Debian), to show what of it a Go
kernel accepts.

Prints one JSON object: {"ok": bool, "error": str, "injected": str}.
"""

import argparse
import json
import sys

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError

import inject_go_parameters


def csharp_literal(value):
    """A value as papermill's CSharpTranslator writes it."""
    if value is None:
        # papermill raises NotImplementedError("Option type not implemented for C#.")
        raise NotImplementedError("papermill cannot write null for .net-csharp")
    if isinstance(value, str):
        escaped = value.encode("unicode_escape").decode("utf-8").replace('"', r"\"")
        return f'"{escaped}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"{value}L" if not -2147483648 <= value <= 2147483647 else str(value)
    if isinstance(value, float):
        return str(value)
    if isinstance(value, dict):
        pairs = ", ".join(f"{{ {csharp_literal(str(k))} , {csharp_literal(v)} }}" for k, v in value.items())
        return f"new Dictionary<string,Object>{{ {pairs} }}"
    if isinstance(value, list):
        return f"new [] {{ {', '.join(csharp_literal(v) for v in value)} }}"
    return csharp_literal(str(value))


def csharp_cell(params):
    lines = ["// Parameters"]
    for name, value in params.items():
        lines.append(f"var {name} = {csharp_literal(value)};")
    return "\n".join(lines) + "\n"


def inject_csharp(nb, params):
    index = 0
    for i, cell in enumerate(nb.cells):
        if "parameters" in cell.get("metadata", {}).get("tags", []):
            index = i + 1
            break
    cell = nbformat.v4.new_code_cell(csharp_cell(params))
    cell.metadata["tags"] = ["injected-parameters"]
    nb.cells.insert(index, cell)
    return cell.source


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--kernel", default=None)
    ap.add_argument("--go-params", default=None)
    ap.add_argument("--csharp-params", default=None)
    args = ap.parse_args()

    nb = nbformat.read(args.input, as_version=4)
    injected = ""
    if args.go_params:
        inject_go_parameters.inject(nb, json.loads(args.go_params))
        injected = next(c.source for c in nb.cells if "injected-parameters" in c.metadata.get("tags", []))
    if args.csharp_params:
        injected = inject_csharp(nb, json.loads(args.csharp_params))

    kwargs = {"timeout": args.timeout, "allow_errors": False, "record_timing": False}
    if args.kernel:
        kwargs["kernel_name"] = args.kernel
    client = NotebookClient(nb, **kwargs)
    result = {"ok": True, "error": "", "injected": injected}
    try:
        client.execute()
    except (CellExecutionError, CellTimeoutError) as e:
        result = {"ok": False, "error": f"{type(e).__name__}: {e}", "injected": injected}
    finally:
        nbformat.write(nb, args.output)
    print(json.dumps(result))
    sys.exit(0 if result["ok"] else 1)


if __name__ == "__main__":
    main()
