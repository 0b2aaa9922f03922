// Drives `sbir-kernel mcp` with the official TypeScript MCP SDK
// (@modelcontextprotocol/sdk from npm).
//
// Usage:
//   node client.mjs stdio BINARY [server flags...]
//   node client.mjs http URL TOKEN
//
// Runs the scenario of e2e/mcp_test.go and exits non-zero with a message on
// the first check that fails. The server must run with a short
// --cell-timeout (2 s, scaled by SBIR_TEST_SLOW), --max-output-bytes 65536
// and --max-sessions 3.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

function check(cond, what, got) {
  if (!cond) {
    console.error(`FAIL (typescript): ${what}` + (got === undefined ? "" : `: got ${JSON.stringify(got)}`));
    process.exit(1);
  }
}

const [mode, target, ...rest] = process.argv.slice(2);
const transport = mode === "stdio"
  ? new StdioClientTransport({ command: target, args: ["mcp", ...rest], env: process.env, stderr: "inherit" })
  : new StreamableHTTPClientTransport(new URL(target), { requestInit: { headers: { Authorization: `Bearer ${rest[0]}` } } });
const client = new Client({ name: "sbir-e2e", version: "1.0.0" });
await client.connect(transport);

async function runGo(code, session = "default", extra = {}) {
  const res = await client.callTool({ name: "run_go", arguments: { code, session, ...extra } });
  return [res, res.structuredContent ?? {}];
}

const tools = (await client.listTools()).tools.map((t) => t.name).sort();
check(JSON.stringify(tools) === JSON.stringify(["api_reference", "describe_data", "reset_session", "run_go"]), "list tools", tools);

// Define, reuse, fail, recover.
let [res, out] = await runGo("x := 20", "a");
check(out.success === true, "define", out);
[res, out] = await runGo("x * 2", "a");
check(out.value === "40", "reuse", out);
[res, out] = await runGo("fmt.Println(1)\nundefinedName", "a");
check(res.isError && out.error?.name === "CompileError" && out.error?.line === 2 && out.error?.column === 1, "fail", out);
[res, out] = await runGo("x + 1", "a");
check(out.value === "21", "recover", out);
[res, out] = await runGo("award_data.Where?", "a");
check(out.success === true && (out.value || "").includes("func Where(column, op string, value any) Frame"), "help cell", out);

// Frames as records.
[res, out] = await runGo('award_data.Head(10).Select("Company", "Award Amount")', "a", { max_rows: 2 });
check(out.frame?.records?.length === 2 && typeof out.frame.records[0]["Award Amount"] === "number" && out.frame.truncated === true, "frame", out.frame);

// Timeout, then the session still answers.
[res, out] = await runGo("for {}", "t");
check(out.error?.name === "Timeout", "timeout", out);
[res, out] = await runGo("2 * 3", "t");
check(out.value === "6", "after the timeout", out);

// Reset.
res = await client.callTool({ name: "reset_session", arguments: { session: "a" } });
check(res.structuredContent?.existed === true, "reset", res.structuredContent);
[res, out] = await runGo("x", "a");
check(out.error?.name === "CompileError", "after reset", out);

// Two sessions in parallel keep separate state.
await client.callTool({ name: "reset_session", arguments: { session: "t" } });
await runGo('who := "a"', "a");
await runGo('who := "p"', "p");
// While a's call sleeps until its time limit, p's call is answered: in
// order, not by the clock (serialised, p would wait for a's limit).
const slow = runGo("time.Sleep(time.Hour)", "a").then((r) => ["slow", r]);
const quick = runGo("who", "p").then((r) => ["quick", r]);
const [first] = await Promise.race([slow, quick]);
check(first === "quick", "parallel sessions", first);
const [, [, o2]] = await quick;
const [, [, o1]] = await slow;
check(o2.value === '"p"' && o1.error?.name === "Timeout", "separate sessions", [o1, o2]);
[res, out] = await runGo("who", "a");
check(out.value === '"a"' || out.restarted === true, "separate state", out);

// More sessions than the cap (3).
await runGo("1", "c");
[res, out] = await runGo("1", "d");
check(res.isError && res.content.map((c) => c.text ?? "").join("").includes("sessions are open"), "session cap", res.content);
await client.callTool({ name: "reset_session", arguments: { session: "c" } });

// A flood of output, and wrong argument types.
// 20,000 lines (218 kB) pass the 64 KiB cap three times over and fit in
// the short time limit on a loaded machine.
[res, out] = await runGo('for i := 0; i < 20000; i++ { fmt.Println("flood", i) }', "a");
check(out.output_truncated === true && out.stdout.length < 70000, "flood", out.stdout.length);
res = await client.callTool({ name: "run_go", arguments: { code: ["not", "a", "string"] } });
check(res.isError === true, "wrong argument type", res);
let unknown;
try {
  unknown = await client.callTool({ name: "run_python", arguments: {} });
  check(unknown.isError === true, "unknown tool", unknown);
} catch (e) {
  check(String(e).includes("run_python"), "unknown tool error names it", String(e));
}

// Data and docs, as tools and as resources.
res = await client.callTool({ name: "describe_data", arguments: {} });
check(res.structuredContent.columns.some((c) => c.name === "Agency" && c.type === "category"), "describe_data", res.structuredContent);
res = await client.callTool({ name: "api_reference", arguments: { query: "display.Markdown" } });
check(res.structuredContent.entries[0]?.name === "Markdown", "api_reference", res.structuredContent);
const schema = await client.readResource({ uri: "sbir://schema" });
check(JSON.parse(schema.contents[0].text).rows > 0, "schema resource", schema);

await client.close();
console.log("ok (typescript)");
