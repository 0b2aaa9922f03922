package e2e

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// TestAgentBenchmark is the agent benchmark of issue 29: 20 analysis
// questions, each answered by a scripted agent (fixed Go code per
// question, written from run_go's description) through the official
// Python MCP SDK over stdio, on a generated CSV of 3,000 awards, and each
// answer's records checked for exact equality with the answer computed
// independently from the same CSV with Python's csv module. It also checks
// that the SDK's default environment gets the synthetic sample and a
// notice, and that SBIR_CSV_PATH given in env is served
// (e2e/testdata/mcp/agent_bench.py).
func TestAgentBenchmark(t *testing.T) {
	j := newJupyterEnv(t)
	py := mcpPythonClient(t)
	script, err := filepath.Abs(filepath.Join("testdata", "mcp", "agent_bench.py"))
	if err != nil {
		t.Fatal(err)
	}
	csvPath := filepath.Join(j.root, "awards.csv")
	gen := exec.Command(j.bin, "generate-data", "-rows", "3000", "-o", csvPath)
	gen.Env = j.env
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("generate-data: %v\n%s", err, out)
	}
	mcpRunClient(t, j, j.root, py, script, j.bin, csvPath, filepath.Join(j.root, "bench-cache"))
}
