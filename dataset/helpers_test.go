package dataset

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// arrowFile returns the Arrow IPC file arrow-go writes for schema and
// recs (none: a file with the schema alone).
func arrowFile(t testing.TB, schema *arrow.Schema, recs []arrow.RecordBatch, opts ...ipc.Option) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := ipc.NewFileWriter(&buf, append([]ipc.Option{ipc.WithSchema(schema)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// bulkHeader is the 42-column header of the current bulk file.
var bulkHeader = func() string {
	names := make([]string, len(canonical))
	for i, c := range canonical {
		names[i] = c.name
	}
	return strings.Join(names, ",")
}()

// row returns a 42-field record with the given fields set (by canonical
// name) and every other field empty.
func row(set map[string]string) string {
	fields := make([]string, len(canonical))
	for i, c := range canonical {
		fields[i] = set[c.name]
	}
	return strings.Join(fields, ",")
}

// minimalRow is a valid record with the core fields filled.
func minimalRow() map[string]string {
	return map[string]string{
		ColCompany: "ACME INC", ColAwardTitle: "Widgets", ColAgency: "Department of Energy",
		ColPhase: "Phase I", ColProgram: "SBIR", ColAwardYear: "2024", ColAwardAmount: "150000",
	}
}

func with(m map[string]string, kv ...string) map[string]string {
	out := make(map[string]string, len(m)+len(kv)/2)
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

// convertString converts csv in memory, writes the Arrow file to a temp
// dir and opens it. The Dataset is closed when the test ends.
func convertString(t testing.TB, csv string) (*LoadReport, *Dataset) {
	t.Helper()
	var out bytes.Buffer
	rep, err := Convert(context.Background(), strings.NewReader(csv), int64(len(csv)), &out, ConvertOptions{})
	if err != nil {
		t.Fatalf("Convert: %v", err)
	}
	path := filepath.Join(t.TempDir(), "t.arrow")
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := OpenFile(path)
	if err != nil {
		t.Fatalf("OpenFile: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	return rep, d
}

// col returns the named column of d.
func col(t testing.TB, d *Dataset, name string) arrow.Array {
	t.Helper()
	idx := d.Schema().FieldIndices(name)
	if len(idx) != 1 {
		t.Fatalf("column %q: %d matches in schema", name, len(idx))
	}
	return d.Record().Column(idx[0])
}

// text returns row i of a utf8 or dictionary column, and whether it is valid.
func text(t testing.TB, a arrow.Array, i int) (string, bool) {
	t.Helper()
	if a.IsNull(i) {
		return "", false
	}
	switch a := a.(type) {
	case *array.String:
		return a.Value(i), true
	case *array.Dictionary:
		return a.Dictionary().(*array.String).Value(a.GetValueIndex(i)), true
	}
	t.Fatalf("column of type %s is not text", a.DataType())
	return "", false
}

// sharedSamplePath is the 5-row real sample kept outside the project.
func sharedSamplePath(t testing.TB) string {
	p := filepath.Join("..", "..", "shared", "data", "sample-sbir-awards.csv")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("real sample not available: %v", err)
	}
	return p
}

func writeFile(t testing.TB, path, content string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// generated returns a generated CSV.
func generated(t testing.TB, opts GenerateOptions) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Generate(&b, opts); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// mountTmpfs mounts a tmpfs of size (mount's syntax: "2m") on a new
// directory, unmounted when the test ends, so that a test can fill a real
// file system. It skips the test where mounting is not allowed (not root).
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v: %s", err, out)
	}
	t.Cleanup(func() { syscall.Unmount(dir, 0) })
	return dir
}
