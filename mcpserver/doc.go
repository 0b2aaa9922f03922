// Package mcpserver serves sandboxed Go sessions over the Model Context
// Protocol, for programs (LLM agents above all) that write Go, run it, read
// the result and iterate.
//
// A [Server] offers four tools: run_go (run code in a named, persistent
// session), reset_session, describe_data (the awards table's schema and
// load report) and api_reference (searchable documentation of the
// award_data and display packages, generated from their doc comments), and
// the schema and documentation again as resources. It is built on the
// official Go SDK (github.com/modelcontextprotocol/go-sdk) and serves any of
// its transports: stdio, streamable HTTP ([Server.HTTPHandler]) or the
// in-memory one of tests.
//
// Each session is a [sandbox.Session]: its own worker process with the
// kernel's limits, so that one session's crash, memory blow-up or endless
// loop never touches another. Sessions belong to the MCP connection that
// created them (another client cannot name them), are closed when it ends,
// expire after Options.IdleTimeout without calls, and are capped in number
// (Options.MaxSessions) and in total heap budget (Options.MaxMemory).
//
// run_go's results are [cellresult.Result] values, the shape
// `sbir-kernel run --json` prints too (there with a schema field, see
// [cellresult.Schema]): a frame value's rows come as exact records, read
// from the table representation award_data produces, a page at a time.
package mcpserver

//go:generate go run ./internal/apidocgen -o apidocs.json -pandas ../docs/pandas.md -hide award_data.Use,award_data.SetRecordWindow,display.SetSink ../award_data ../display
