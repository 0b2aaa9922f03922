package dataset

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// TestLocateWriteOnlyCacheDir converts into a cache directory its user
// may write and search but not list (mode 0333): files can be created and
// renamed there, but the directory cannot be opened to sync it. The
// conversion must still end with a marker, so that the next Locate, in
// another process, uses the file instead of failing or converting again
// (a Locate without Config.DeferSync failed, and one with it converted
// on every start).
// Run as root, the Locates run as user nobody (root ignores the mode).
func TestLocateWriteOnlyCacheDir(t *testing.T) {
	base, err := os.MkdirTemp("", "sbir-writeonly-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		os.Chmod(filepath.Join(base, "cache"), 0o755)
		os.RemoveAll(base)
	})
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	csvPath := filepath.Join(base, "awards.csv")
	if err := os.WriteFile(csvPath, generated(t, GenerateOptions{Rows: 300, Seed: 31}), 0o644); err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(base, "cache")
	if err := os.Mkdir(cache, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := os.Args[0]
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		const nobody = 65534
		cred = &syscall.Credential{Uid: nobody, Gid: nobody}
		if err := os.Chown(cache, nobody, nobody); err != nil {
			t.Fatal(err)
		}
		// The test binary's own directory is private to root.
		b, err := os.ReadFile(os.Args[0])
		if err != nil {
			t.Fatal(err)
		}
		bin = filepath.Join(base, "dataset.test")
		if err := os.WriteFile(bin, b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(cache, 0o333); err != nil {
		t.Fatal(err)
	}
	// The third Locate follows a change of the CSV: it removes the old
	// marker, and syncs that removal, before its rename.
	for i, wantConverted := range []bool{true, false, true} {
		if i == 2 {
			if err := os.WriteFile(csvPath, generated(t, GenerateOptions{Rows: 300, Seed: 32}), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command(bin, "-test.run=^$")
		cmd.Env = append(os.Environ(), "SBIR_DATASET_TEST_HELPER=locate", "SBIR_CACHE_DIR="+cache, "SBIR_CSV_PATH="+csvPath, "TMPDIR="+base)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		out, err := cmd.Output()
		if err != nil {
			var stderr []byte
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = ee.Stderr
			}
			t.Fatalf("Locate %d in a write-only cache directory: %v: %s", i+1, err, stderr)
		}
		var src Source
		if err := json.Unmarshal(out, &src); err != nil {
			t.Fatalf("Locate %d printed %q: %v", i+1, out, err)
		}
		if src.Converted != wantConverted || src.Rows != 300 || filepath.Dir(src.ArrowPath) != cache {
			t.Fatalf("Locate %d: converted %v, %d rows, %s; want converted %v, 300 rows, in %s", i+1, src.Converted, src.Rows, src.ArrowPath, wantConverted, cache)
		}
	}
}
