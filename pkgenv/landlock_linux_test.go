package pkgenv

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// envFD is the descriptor a child inherits the environment on, as the
// sandbox's worker inherits the data file.
const envFD = 3

// TestEnvUsableUnderLandlock checks the wiring the sandbox is meant to
// use: the supervisor opens Env.Dir and passes the descriptor to the
// worker, which allows read-only access beneath it (and nothing else)
// with Landlock and points yaegi at it with GoPath "." and
// os.DirFS("/proc/self/fd/N"). The environment must then import while
// every other file is out of reach.
func TestEnvUsableUnderLandlock(t *testing.T) {
	if os.Getenv("PKGENV_HELPER") == "landlock" {
		landlockChild()
		return
	}
	tp := newTestProxy(t, fixtureModules()...)
	opts := testOptions(t, tp)
	env, err := Ensure(context.Background(), []Requirement{reqStats, reqTextutil}, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	d, err := os.Open(env.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestEnvUsableUnderLandlock$", "-test.count=1")
	cmd.Env = append(os.Environ(), "PKGENV_HELPER=landlock")
	cmd.ExtraFiles = []*os.File{d} // fd 3
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	if strings.Contains(out.String(), "LANDLOCK UNAVAILABLE") {
		t.Skip("Landlock is not available on this host")
	}
	if err != nil || !strings.Contains(out.String(), "LANDLOCK CHILD DONE") {
		t.Fatalf("child: %v\n%s", err, out.String())
	}
}

// landlockChild runs in the child process. It reports on stdout and
// leaves with a raw exit: under Landlock the test framework could not
// write its coverage or other files at exit.
func landlockChild() {
	failed := false
	fail := func(format string, args ...any) {
		fmt.Printf("FAIL: "+format+"\n", args...)
		failed = true
	}
	root := fmt.Sprintf("/proc/self/fd/%d", envFD)
	rule := landlock.PathAccess(llsys.AccessFSReadFile|llsys.AccessFSReadDir, root)
	if err := landlock.V7.BestEffort().RestrictPaths(rule); err != nil {
		fail("restricting: %v", err)
		syscall.Exit(1)
	}
	if _, err := os.ReadFile("/etc/passwd"); err == nil {
		fmt.Println("LANDLOCK UNAVAILABLE")
		syscall.Exit(0)
	}
	for _, p := range []string{"example.com/stats", "example.com/textutil"} {
		if err := yaegiImport(context.Background(), root, p); err != nil {
			fail("importing %s through the inherited descriptor under Landlock: %v", p, err)
		}
	}
	if _, err := os.ReadFile(root + "/manifest.json"); err != nil {
		fail("reading inside the environment: %v", err)
	}
	if err := os.WriteFile(root+"/src/x.go", nil, 0o644); err == nil {
		fail("wrote inside the environment under a read-only rule")
	}
	if failed {
		syscall.Exit(1)
	}
	fmt.Println("LANDLOCK CHILD DONE")
	syscall.Exit(0)
}
