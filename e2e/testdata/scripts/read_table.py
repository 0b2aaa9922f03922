"""Reads a frame's table representation with pandas, as a Jupyter user
would: pandas.read_json(..., orient="table"), and compares it with the same
frame's ToCSV() read by pandas.read_csv.

Input (stdin): the JSON `sbir-kernel run --json` prints for a cell that
prints f.ToCSV() and ends in f. Exits non-zero with a message on the first
difference; prints "ok (pandas X)" otherwise.
"""

import io
import json
import math
import sys

import pandas as pd

out = json.load(sys.stdin)
if not out.get("success"):
    sys.exit(f"the cell failed: {out.get('error')}")
resource = out["value_bundle"]["application/vnd.dataresource+json"]
note = ""
if int(pd.__version__.split(".")[0]) < 2:
    # pandas before 2.0 writes a nullable integer column as
    # {"type": "integer", "extDtype": "Int64"} but reads "integer" as int64,
    # which cannot hold a null: it cannot read its own output. Such columns
    # are read as floats there (their values are still compared).
    for f in resource["schema"]["fields"]:
        if f.get("extDtype") and any(r.get(f["name"]) is None for r in resource["data"]):
            f["type"], note = "number", f" (pandas {pd.__version__} reads nullable integers as float)"
            del f["extDtype"]
table = pd.read_json(io.StringIO(json.dumps(resource)), orient="table")
text_cols = {f["name"]: str for f in resource["schema"]["fields"] if f["type"] in ("string", "any")}
csv = pd.read_csv(io.StringIO(out["stdout"]), dtype=text_cols, keep_default_na=False, na_values=[""])

if list(table.columns) != list(csv.columns):
    sys.exit(f"columns {list(table.columns)} != {list(csv.columns)}")
if len(table) != len(csv) or len(table) == 0:
    sys.exit(f"{len(table)} rows from the table, {len(csv)} from the CSV")
types = {f["name"]: f["type"] for f in resource["schema"]["fields"]}
for col in table.columns:
    for k in range(len(table)):
        a, b = table[col].iloc[k], csv[col].iloc[k]
        if pd.isna(a) and pd.isna(b):
            continue
        if types[col] == "datetime":
            same = pd.Timestamp(a) == pd.Timestamp(b)
        elif types[col] in ("number", "integer"):
            same = float(a) == float(b)
        else:
            same = str(a) == str(b)
        if not same:
            sys.exit(f"row {k} column {col!r} ({types[col]}): table {a!r}, CSV {b!r}")
dtypes = {c: str(t) for c, t in table.dtypes.items()}
for col, want in (("Award Year", "Int64" if not note else "int64"), ("Award Amount", "float64"), ("Agency", "category"), ("Proposal Award Date", "datetime64[ns]")):
    if col in dtypes and dtypes[col] != want:
        sys.exit(f"pandas read {col!r} as {dtypes[col]}, want {want}")
print(f"ok (pandas {pd.__version__}): {len(table)} rows x {len(table.columns)} columns equal; dtypes {dtypes}{note}")
