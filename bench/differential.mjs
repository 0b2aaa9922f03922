// differential.mjs: the DuckDB side of bench/differential_test.go.
//
// Usage: node differential.mjs NODE_DIR JOB.json
//
// JOB.json is {"setup": [SQL, ...], "queries": [SQL, ...]}, written by the
// test: the setup statements load the awards CSV into a table (with the
// documented conversion rules written in SQL), then every query runs in
// turn. NODE_DIR is where bench/compare.sh installed the pinned
// @duckdb/node-api (bench/package.json). Prints one JSON line per query:
// {"i": N, "rows": [[cell, ...], ...]} or {"i": N, "error": "..."}, in
// which integers are strings (exact beyond 2^53), non-finite doubles are
// "NaN"/"Infinity", dates and other values are their text.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [nodeDir, jobPath] = process.argv.slice(2);
if (!nodeDir || !jobPath) {
  console.error("usage: node differential.mjs NODE_DIR JOB.json");
  process.exit(2);
}
const require = createRequire(join(nodeDir, "package.json"));
const { DuckDBInstance } = await import(pathToFileURL(require.resolve("@duckdb/node-api")).href);
const job = JSON.parse(readFileSync(jobPath, "utf8"));

const instance = await DuckDBInstance.create(":memory:");
const conn = await instance.connect();
for (const sql of job.setup) {
  await conn.run(sql);
}

const cell = (v) => {
  if (v === null || v === undefined) return null;
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") return Number.isFinite(v) ? v : String(v);
  if (typeof v === "string" || typeof v === "boolean") return v;
  return String(v);
};

const out = [];
for (const [i, sql] of job.queries.entries()) {
  try {
    const rows = (await conn.runAndReadAll(sql)).getRows();
    out.push(JSON.stringify({ i, rows: rows.map((r) => r.map(cell)) }));
  } catch (e) {
    out.push(JSON.stringify({ i, error: String(e.message || e) }));
  }
}
process.stdout.write(out.join("\n") + "\n");
