#!/usr/bin/python3
"""Put parameters into a Go notebook, the way papermill does for Python.

papermill has no translator for Go, so `papermill -p NAME VALUE` cannot
parameterize an sbir-kernel notebook by itself. This script writes the
parameters cell instead; run the result with papermill (without -p) or with
`jupyter nbconvert --execute`:

    inject_go_parameters.py report.ipynb report-2015.ipynb year=2015 agency=NASA 'phases=["Phase I","Phase II"]'
    papermill report-2015.ipynb out.ipynb        # or: jupyter nbconvert --to notebook --execute ...

Each VALUE is JSON (2015, 1.5, true, null, "text", [..], {..}); anything
that is not valid JSON is taken as a string, so agency=NASA works.

Like papermill, the new cell (tagged "injected-parameters") goes right after
the cell tagged "parameters" (or first, when there is none) and replaces a
previous injected cell. A name that the parameters cell declares (var NAME,
var NAME TYPE = ..., NAME := ...) is assigned, so it keeps its declared type:
year=2015 into `var minAmount = 100000.0` stays a float64. Other names are
declared with `var`.

Go literals: strings keep every character (non-ASCII included); integers
are untyped constants; floats keep a decimal point; inf/nan become
math.Inf/math.NaN; lists and objects become []T / map[string]T when every
element has one type, []any / map[string]any otherwise; null becomes nil
(only for names declared with a nillable type).
"""

import json
import math
import re
import sys

import nbformat

def go_type(value):
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float64"
    if isinstance(value, str):
        return "string"
    return "any"


def element_type(values):
    types = {go_type(v) for v in values}
    if types == {"int", "float64"}:
        return "float64"
    return types.pop() if len(types) == 1 else "any"


def go_literal(value, as_type=None):
    """Render a JSON value as a Go expression."""
    if value is None:
        return "nil"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"float64({value})" if as_type == "float64" else str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "math.NaN()"
        if math.isinf(value):
            return "math.Inf(1)" if value > 0 else "math.Inf(-1)"
        return repr(value)  # always has '.' or 'e': a float constant
    if isinstance(value, str):
        # JSON string escapes are Go string escapes, as long as nothing is
        # escaped as a UTF-16 surrogate pair (ensure_ascii=False).
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        t = element_type(value)
        items = ", ".join(go_literal(v, t) for v in value)
        return f"[]{t}{{{items}}}"
    if isinstance(value, dict):
        t = element_type(list(value.values()))
        items = ", ".join(f"{json.dumps(str(k), ensure_ascii=False)}: {go_literal(v, t)}" for k, v in value.items())
        return f"map[string]{t}{{{items}}}"
    raise TypeError(f"cannot write {type(value).__name__} as Go")


def declared_names(source):
    names = set()
    in_block = False
    for line in source.splitlines():
        stripped = line.strip()
        if stripped.startswith("//"):
            continue
        if re.match(r"^var\s*\($", stripped):
            in_block = True
            continue
        if in_block:
            if stripped == ")":
                in_block = False
            elif m := re.match(r"^([A-Za-z_]\w*)\b", stripped):
                names.add(m.group(1))
            continue
        if m := re.match(r"^var\s+([A-Za-z_]\w*)\b", stripped):
            names.add(m.group(1))
        elif m := re.match(r"^([A-Za-z_]\w*)\s*:=", stripped):
            names.add(m.group(1))
    return names


def parameters_cell(params, declared):
    lines = ["// Parameters"]
    for name, value in params.items():
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise ValueError(f"parameter name {name!r} is not a Go identifier")
        if name in declared:
            lines.append(f"{name} = {go_literal(value)}")
        else:
            if value is None:
                raise ValueError(f"parameter {name}=null: declare {name} with a type in the parameters cell first")
            lines.append(f"var {name} = {go_literal(value)}")
    return "\n".join(lines)


def inject(nb, params):
    """Insert (or replace) the injected-parameters cell, as papermill does."""
    cells = nb.cells
    cells[:] = [c for c in cells if "injected-parameters" not in c.get("metadata", {}).get("tags", [])]
    index, declared = 0, set()
    for i, cell in enumerate(cells):
        if "parameters" in cell.get("metadata", {}).get("tags", []):
            index, declared = i + 1, declared_names(cell.source)
            break
    cell = nbformat.v4.new_code_cell(parameters_cell(params, declared))
    cell.metadata["tags"] = ["injected-parameters"]
    cells.insert(index, cell)
    return nb


def parse_args(argv):
    params = {}
    for arg in argv:
        name, sep, raw = arg.partition("=")
        if not sep:
            raise SystemExit(f"parameter {arg!r}: write NAME=VALUE")
        try:
            params[name] = json.loads(raw)
        except ValueError:
            params[name] = raw
    return params


def main(argv):
    if len(argv) < 3:
        raise SystemExit("usage: inject_go_parameters.py IN.ipynb OUT.ipynb NAME=VALUE...")
    nb = nbformat.read(argv[1], as_version=4)
    try:
        inject(nb, parse_args(argv[3:]))
    except (ValueError, TypeError) as e:
        raise SystemExit(f"inject_go_parameters.py: {e}")
    nbformat.write(nb, argv[2])


if __name__ == "__main__":
    main(sys.argv)
