"""Reads an Arrow file written by sbir-kernel with pyarrow, validates it
fully, and decodes each stored text dictionary (format 3) against the
column it encodes. Prints one JSON object; the Go test asserts on it."""
import json
import sys

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.ipc as ipc

path = sys.argv[1]
with pa.memory_map(path) as src:
    reader = ipc.open_file(src)
    table = reader.read_all()
    meta = {k.decode(): v.decode() for k, v in (reader.schema.metadata or {}).items()}
table.validate(full=True)

out = {
    "pyarrow": pa.__version__,
    "rows": table.num_rows,
    "columns": table.num_columns,
    "format_version": meta.get("sbir-kernel.format_version"),
    "dictionaries": {},
}
for field in table.schema:
    fm = {k.decode(): v.decode() for k, v in (field.metadata or {}).items()}
    if fm.get("sbir-kernel.index_kind") != "text_dictionary":
        continue
    column = fm["sbir-kernel.index_of"]
    ix = table.column(field.name).combine_chunks()
    data = table.column(column).combine_chunks()
    d = {"distinct": int(fm["sbir-kernel.index_distinct"]), "type": str(field.type),
         "column_nulls": data.null_count}
    if pa.types.is_dictionary(field.type):
        values = ix.dictionary.to_pylist()
        decoded = ix.dictionary.take(ix.indices)
        same = pc.or_kleene(pc.equal(decoded, data), pc.and_(pc.is_null(decoded), pc.is_null(data)))
        d.update({
            "values": len(values),
            "decodes_to_column": pc.all(same.fill_null(False)).as_py(),
            "values_sorted_distinct": all(a.encode() < b.encode() for a, b in zip(values, values[1:])),
            "index_nulls": ix.null_count,
        })
    out["dictionaries"][column] = d
json.dump(out, sys.stdout)
