package pkgenv

import (
	"os"
	"testing"

	"github.com/sbirtools/sbir-kernel/pkgenv/pkgenvtest"
)

// The tests install from a module proxy and checksum database served
// from a temporary directory (package pkgenvtest): never the network.
type (
	testModule = pkgenvtest.Module
	testProxy  = pkgenvtest.Proxy
)

func newTestProxy(t testing.TB, mods ...testModule) *testProxy {
	t.Helper()
	return pkgenvtest.New(t, mods...)
}

func writeFile(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
