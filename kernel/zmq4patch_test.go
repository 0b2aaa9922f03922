package kernel

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// TestPatchedZMQ4 runs the tests of the patches to zmq4 (see
// third_party/zmq4/PATCHES.md). The patched copy is a module of its own,
// which `go test ./...` in this module does not reach; the kernel depends
// on what they check, so they run with the kernel's tests.
func TestPatchedZMQ4(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs another module's tests")
	}
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		goBin = "go"
	}
	cmd := exec.Command(goBin, "test", "-count=1",
		"-run", "TestReadBoundsEveryLength|TestReadBodyGrowsWithData|TestMetadataUnmarshalTruncated|TestListenerSurvivesHugeFrames|TestSilentPeerDoesNotBlockAccept|TestMaxConns|TestWriteTimeoutClosesStalledPeer|TestPubNoDropDeliversEverything|TestPubIgnoresNonSubscriptionMessages|TestPubLastValueReplayedOnSubscribe|TestPubWrittenFreesFrames|TestPubWrittenOnDrop|TestReadBodyChargesBudget|TestRouterPendingBytesBounded|FuzzConnRead|FuzzMetadataUnmarshal",
		".")
	cmd.Dir = filepath.Join("..", "third_party", "zmq4")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test in %s: %v\n%s", cmd.Dir, err, out)
	}
	t.Logf("%s", out)
}
