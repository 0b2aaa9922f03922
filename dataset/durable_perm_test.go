package dataset

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// unprivileged is a directory and a way to run this test binary's Locate
// helper as a user the modes of files apply to: the test's own user, or
// nobody when the test runs as root (root ignores modes).
type unprivileged struct {
	base string // a directory every user may write (like /tmp), removed at the end
	bin  string // this test binary, where that user may run it
	cred *syscall.Credential
}

func newUnprivileged(t *testing.T) *unprivileged {
	t.Helper()
	base, err := os.MkdirTemp("", "sbir-perm-")
	if err != nil {
		t.Fatal(err)
	}
	u := &unprivileged{base: base, bin: os.Args[0]}
	t.Cleanup(func() {
		filepath.WalkDir(base, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				os.Chmod(p, 0o755)
			}
			return nil
		})
		os.RemoveAll(base)
	})
	if err := os.Chmod(base, 0o777|os.ModeSticky); err != nil { // like /tmp
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		const nobody = 65534
		u.cred = &syscall.Credential{Uid: nobody, Gid: nobody}
		// The test binary's own directory is private to root.
		b, err := os.ReadFile(os.Args[0])
		if err != nil {
			t.Fatal(err)
		}
		u.bin = filepath.Join(base, "dataset.test")
		if err := os.WriteFile(u.bin, b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return u
}

// dir makes a directory under base owned by the helper's user.
func (u *unprivileged) dir(t *testing.T, name string) string {
	t.Helper()
	d := filepath.Join(u.base, name)
	if err := os.Mkdir(d, 0o755); err != nil {
		t.Fatal(err)
	}
	if u.cred != nil {
		if err := os.Chown(d, int(u.cred.Uid), int(u.cred.Gid)); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// locate runs Locate (without DeferSync) in a process of the helper's
// user, with TMPDIR at base (the fallback cache directory goes there).
func (u *unprivileged) locate(t *testing.T, cache, csvPath string) (Source, error) {
	t.Helper()
	cmd := exec.Command(u.bin, "-test.run=^$")
	cmd.Env = append(os.Environ(), "SBIR_DATASET_TEST_HELPER=locate", "SBIR_CACHE_DIR="+cache, "SBIR_CSV_PATH="+csvPath, "TMPDIR="+u.base)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: u.cred}
	var src Source
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return src, fmt.Errorf("%v: %s", err, ee.Stderr)
		}
		return src, err
	}
	if err := json.Unmarshal(out, &src); err != nil {
		return src, fmt.Errorf("the helper printed %q: %v", out, err)
	}
	return src, nil
}

// TestLocateWriteOnlyCacheDir converts into a cache directory its user
// may write and search but not list (mode 0333): files can be created and
// renamed there, but the directory cannot be opened to sync it. The
// conversion must still end with a marker, so that the next Locate, in
// another process, uses the file instead of failing or converting again
// (a Locate without Config.DeferSync failed, and one with it converted
// on every start).
func TestLocateWriteOnlyCacheDir(t *testing.T) {
	u := newUnprivileged(t)
	csvPath := filepath.Join(u.base, "awards.csv")
	if err := os.WriteFile(csvPath, generated(t, GenerateOptions{Rows: 300, Seed: 31}), 0o644); err != nil {
		t.Fatal(err)
	}
	cache := u.dir(t, "cache")
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
		src, err := u.locate(t, cache, csvPath)
		if err != nil {
			t.Fatalf("Locate %d in a write-only cache directory: %v", i+1, err)
		}
		if src.Converted != wantConverted || src.Rows != 300 || filepath.Dir(src.ArrowPath) != cache {
			t.Fatalf("Locate %d: converted %v, %d rows, %s; want converted %v, 300 rows, in %s", i+1, src.Converted, src.Rows, src.ArrowPath, wantConverted, cache)
		}
	}
}

// TestLocateReadOnlyCacheDir makes a converted cache directory read-only:
// its marked file is used as it is. Without the marker (a cache from
// before markers) the file is not trusted: Locate converts once into the
// temporary directory, with a warning, and then uses that conversion.
func TestLocateReadOnlyCacheDir(t *testing.T) {
	u := newUnprivileged(t)
	csvPath := filepath.Join(u.base, "awards.csv")
	if err := os.WriteFile(csvPath, generated(t, GenerateOptions{Rows: 250, Seed: 33}), 0o644); err != nil {
		t.Fatal(err)
	}
	cache := u.dir(t, "cache")
	first, err := u.locate(t, cache, csvPath)
	if err != nil || !first.Converted {
		t.Fatalf("first Locate: %+v, %v", first, err)
	}
	if err := os.Chmod(cache, 0o555); err != nil {
		t.Fatal(err)
	}
	src, err := u.locate(t, cache, csvPath)
	if err != nil {
		t.Fatal(err)
	}
	if src.Converted || src.ArrowPath != first.ArrowPath || len(src.Warnings) != 0 {
		t.Fatalf("read-only cache with a marked file: %+v, want %s used as it is", src, first.ArrowPath)
	}

	os.Chmod(cache, 0o755)
	if err := os.Remove(markerPath(first.ArrowPath)); err != nil {
		t.Fatal(err)
	}
	os.Chmod(cache, 0o555)
	alt := filepath.Join(u.base, "sbir-kernel-"+fmt.Sprint(os.Getuid()))
	if u.cred != nil {
		alt = filepath.Join(u.base, "sbir-kernel-"+fmt.Sprint(u.cred.Uid))
	}
	for i, wantConverted := range []bool{true, false} {
		src, err := u.locate(t, cache, csvPath)
		if err != nil {
			t.Fatal(err)
		}
		if src.Converted != wantConverted || filepath.Dir(src.ArrowPath) != alt || src.Rows != 250 {
			t.Fatalf("Locate %d with an unmarked file in a read-only cache: converted %v, %s; want converted %v in %s", i+1, src.Converted, src.ArrowPath, wantConverted, alt)
		}
		if len(src.Warnings) != 1 || !strings.Contains(src.Warnings[0], "not writable") {
			t.Errorf("warnings %q, want one naming the unwritable directory", src.Warnings)
		}
	}
	readMarker(t, filepath.Join(alt, filepath.Base(first.ArrowPath)))
}
