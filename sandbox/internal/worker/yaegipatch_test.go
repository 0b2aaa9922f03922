package worker

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// TestPatchedYaegi runs the tests of the patches to yaegi (see
// third_party/yaegi/PATCHES.md; every test in that copy's interp package
// is a patch's). The patched copy is a module of its own, which `go test
// ./...` in this module does not reach; the worker depends on what they
// check, so they run with the worker's tests.
func TestPatchedYaegi(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs another module's tests")
	}
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		goBin = "go"
	}
	cmd := exec.Command(goBin, "test", "-count=1", "./interp")
	cmd.Dir = filepath.Join("..", "..", "..", "third_party", "yaegi")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test in %s: %v\n%s", cmd.Dir, err, out)
	}
	t.Logf("%s", out)
}
