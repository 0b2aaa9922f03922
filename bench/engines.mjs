// engines.mjs: the in-process anchors of bench/compare.py, DuckDB
// (@duckdb/node-api) and Polars (nodejs-polars), on one awards CSV.
//
// Usage: node engines.mjs duckdb|polars CSV RUNS
//
// Prints one JSON object: the CSV load time, for every question the time
// of its first run after loading and the runs that follow (seconds), and
// the answers in the shape compare.py compares across engines. Both
// engines run in this process with the table in memory: no kernel round
// trip, the bar an analyst compares a notebook with.
import { performance } from "node:perf_hooks";

const [engine, csv, runsArg] = process.argv.slice(2);
const runs = Number(runsArg || 5);
if (!engine || !csv) {
  console.error("usage: node engines.mjs duckdb|polars CSV RUNS");
  process.exit(2);
}

// time runs fn once (first), then runs more times (warm).
async function time(fn) {
  let t = performance.now();
  let answer = await fn();
  const first = (performance.now() - t) / 1000;
  const warm = [];
  for (let i = 0; i < runs; i++) {
    t = performance.now();
    answer = await fn();
    warm.push((performance.now() - t) / 1000);
  }
  return { first, warm, answer };
}

const num = (v) => (v === null || v === undefined ? null : Number(v));

async function duckdb() {
  const { DuckDBInstance } = await import("@duckdb/node-api");
  const instance = await DuckDBInstance.create(":memory:");
  const conn = await instance.connect();
  const q = async (sql) => (await conn.runAndReadAll(sql)).getRows();
  const path = csv.replaceAll("'", "''");
  // Types of the columns the questions use are given; the rest are sniffed
  // from the whole file so that a late odd value cannot fail the load.
  const t = performance.now();
  await conn.run(`CREATE TABLE awards AS SELECT * FROM read_csv('${path}', header=true,
    sample_size=-1, types={'Award Amount': 'DOUBLE', 'Award Year': 'BIGINT'})`);
  const load = (performance.now() - t) / 1000;
  const rows = Number((await q("SELECT count(*) FROM awards"))[0][0]);
  const questions = {
    agency_sum: async () =>
      Object.fromEntries((await q(`SELECT Agency, sum("Award Amount") FROM awards GROUP BY Agency`)).map((r) => [r[0], num(r[1])])),
    year_phase_count: async () =>
      num((await q(`SELECT count(*) FROM awards WHERE "Award Year" >= 2015 AND Phase = 'Phase II'`))[0][0]),
    quantum_count: async () =>
      num((await q(`SELECT count(*) FROM awards WHERE Abstract ILIKE '%quantum%'`))[0][0]),
    top_companies: async () =>
      (await q(`SELECT Company, sum("Award Amount") AS s FROM awards WHERE Phase = 'Phase II'
                GROUP BY Company ORDER BY s DESC LIMIT 20`)).map((r) => [r[0], num(r[1])]),
    median_phase1: async () =>
      Object.fromEntries((await q(`SELECT "Award Year", median("Award Amount") FROM awards WHERE Phase = 'Phase I'
                GROUP BY "Award Year"`)).map((r) => [String(r[0]), num(r[1])])),
  };
  return { load, rows, questions };
}

async function polars() {
  const pl = (await import("nodejs-polars")).default;
  const t = performance.now();
  // Types of the columns the questions use are given; the rest are
  // inferred from the whole file.
  const df = pl.readCSV(csv, {
    inferSchemaLength: null,
    dtypes: { "Award Amount": pl.Float64, "Award Year": pl.Int64 },
  });
  const load = (performance.now() - t) / 1000;
  const col = pl.col;
  const questions = {
    agency_sum: async () => {
      const r = df.groupBy("Agency").agg(col("Award Amount").sum());
      const a = r.getColumn("Agency").toArray(), s = r.getColumn("Award Amount").toArray();
      return Object.fromEntries(a.map((k, i) => [k, num(s[i])]));
    },
    year_phase_count: async () =>
      df.filter(col("Award Year").gtEq(2015).and(col("Phase").eq(pl.lit("Phase II")))).height,
    quantum_count: async () => df.filter(col("Abstract").str.contains("(?i)quantum")).height,
    top_companies: async () => {
      const r = df.filter(col("Phase").eq(pl.lit("Phase II")))
        .groupBy("Company").agg(col("Award Amount").sum())
        .sort("Award Amount", true).head(20);
      const c = r.getColumn("Company").toArray(), s = r.getColumn("Award Amount").toArray();
      return c.map((k, i) => [k, num(s[i])]);
    },
    median_phase1: async () => {
      const r = df.filter(col("Phase").eq(pl.lit("Phase I")))
        .groupBy("Award Year").agg(col("Award Amount").median());
      const y = r.getColumn("Award Year").toArray(), m = r.getColumn("Award Amount").toArray();
      return Object.fromEntries(y.map((k, i) => [String(k), num(m[i])]));
    },
  };
  return { load, rows: df.height, questions };
}

const setup = engine === "duckdb" ? duckdb : engine === "polars" ? polars : null;
if (!setup) {
  console.error(`engines.mjs: unknown engine ${engine} (want duckdb or polars)`);
  process.exit(2);
}
const { load, rows, questions } = await setup();
const out = { engine, load, rows, questions: {} };
for (const [name, fn] of Object.entries(questions)) {
  out.questions[name] = await time(fn);
}
console.log(JSON.stringify(out, (_, v) => (typeof v === "bigint" ? Number(v) : v)));
