package kernel

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"testing"
)

// helperEnv, when set to 1, makes the test binary serve a kernel with the
// script evaluator on the connection file named by its last argument
// instead of running tests, so real Jupyter clients can start it as a
// kernel process (TestJupyterClient; bench/kernel_bench.py with
// --sbir-argv "$(go test -c) {connection_file}" --sbir-env SBIR_KERNEL_TEST_SERVE=1).
const helperEnv = "SBIR_KERNEL_TEST_SERVE"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" && len(os.Args) > 1 {
		os.Exit(serveHelper(os.Args[len(os.Args)-1]))
	}
	if spec := os.Getenv(attackEnv); spec != "" {
		os.Exit(runAttack(spec))
	}
	os.Exit(m.Run())
}

func serveHelper(path string) int {
	ci, err := ReadConnectionFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	_, err = Serve(context.Background(), ci, Config{
		Evaluator: &scriptEvaluator{},
		Banner:    "kernel test helper (script evaluator)",
		Signals:   sigs,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}
