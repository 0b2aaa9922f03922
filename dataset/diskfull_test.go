package dataset

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDownloadDiskFull downloads into a real 1 MiB tmpfs: the download
// fails with the disk-full message, and the data that was there before is
// untouched. It needs root (mount).
func TestDownloadDiskFull(t *testing.T) {
	cache := mountTmpfs(t, "1m")

	// A small good download first: it fits.
	var small bytes.Buffer
	if err := Generate(&small, GenerateOptions{Rows: 20, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	smallPath := filepath.Join(t.TempDir(), "small.csv")
	if err := os.WriteFile(smallPath, small.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Download(context.Background(), DownloadOptions{URL: smallPath, CacheDir: cache}); err != nil {
		t.Fatalf("a small download into the tmpfs: %v", err)
	}
	before, err := os.ReadFile(filepath.Join(cache, "award_data.csv"))
	if err != nil {
		t.Fatal(err)
	}

	// Then one that cannot fit.
	var big bytes.Buffer
	if err := Generate(&big, GenerateOptions{Rows: 3000, Seed: 4}); err != nil {
		t.Fatal(err)
	}
	bigPath := filepath.Join(t.TempDir(), "big.csv")
	if err := os.WriteFile(bigPath, big.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Download(context.Background(), DownloadOptions{URL: bigPath, CacheDir: cache})
	if err == nil || !strings.Contains(err.Error(), "disk full while writing to "+cache) || !strings.Contains(err.Error(), "SBIR_CACHE_DIR") {
		t.Fatalf("download of %d bytes into a 1 MiB tmpfs: err = %v, want the disk-full message", big.Len(), err)
	}
	after, err := os.ReadFile(filepath.Join(cache, "award_data.csv"))
	if err != nil || !bytes.Equal(before, after) {
		t.Fatalf("the previous data changed after a failed download (%v)", err)
	}
	entries, _ := os.ReadDir(cache)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") || strings.HasPrefix(e.Name(), ".") && e.Name() != ".lock" {
			t.Errorf("left behind in the cache: %s", e.Name())
		}
	}
}
