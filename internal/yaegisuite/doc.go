// Package yaegisuite runs the test suite of upstream yaegi v0.16.1 against
// the patched copy in third_party/yaegi, and against v0.16.1 itself, and
// compares the two program by program.
//
// The suite is not copied into the repository: it is read from the module
// cache (`go mod download github.com/traefik/yaegi@v0.16.1`). Two GOPATH
// trees are built in a scratch directory, where upstream's tests expect to
// find themselves ($GOPATH/src/github.com/traefik/yaegi, for the _test
// programs that import their sibling packages): one is v0.16.1 as
// downloaded, the other the same with every non-test file of
// third_party/yaegi laid over it (so both run upstream's tests, and only
// the interpreter differs). `go test -json ./interp` runs in each, with one
// file of ours added (recorder.go.txt) that records what each _test
// program wrote to stdout and stderr.
//
// A _test program passes when upstream's own check does (its stdout equals
// its "// Output:" block, or its error contains the "// Error:" block).
// The patched copy makes yaegi behave as gc does where upstream's blocks
// record yaegi's old behaviour, so a program that fails upstream's check
// on the patched copy is judged further (Judge): it passes when its output
// matches with stdout and stderr merged (println writes to stderr, as gc
// does: patch 1), or when it behaves exactly as the same program built by
// gc; an "// Error:" program that gc also refuses "refuses" (with another
// message). Everything else fails.
//
// third_party/yaegi/UPSTREAM_FAILURES lists every test and program that
// does not pass on the patched copy, with its cause. The test of this
// package (TestUpstreamSuite) fails when a failure is not listed, when a
// listed one passes, when a program that v0.16.1 passes is not passed by
// the patched copy without being listed, when the patched copy passes fewer
// programs than v0.16.1, or when the summary in third_party/yaegi/PATCHES.md
// is not today's.
package yaegisuite
