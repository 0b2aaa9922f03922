package worker

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	award_data "github.com/sbirtools/sbir-kernel/award_data"
	"github.com/sbirtools/sbir-kernel/dataset"
)

// langPrograms are the programs of bench/lang (bench/lang.sh runs them
// through the kernel, CPython and gc).
var langPrograms = []string{"loop", "fib", "wordcount", "knapsack", "fieldsfunc", "sortslice", "methods", "ifaces", "closures", "apply", "textmining"}

// smallSize matches a size line a program marks with its CI value.
var smallSize = regexp.MustCompile(`(?m)^(\s*(?:const\s+)?\w+\s*=\s*)[\d_]+(\s*// small: ([\d_]+))\s*$`)

var loadLangData = sync.OnceValue(func() error {
	src, err := dataset.Locate(context.Background(), dataset.ConfigFromEnv(os.Getenv))
	if err != nil {
		return err
	}
	d, err := dataset.OpenFile(src.ArrowPath)
	if err != nil {
		return err
	}
	return award_data.Use(d)
})

// BenchmarkLang runs each program of bench/lang in an in-process
// interpreter, as the worker runs a cell: the interpreter's share of
// bench/lang.sh, where a profiler (-cpuprofile, valgrind --tool=callgrind
// on the test binary) can see it. The programs that read award_data get
// the data SBIR_CSV_PATH and SBIR_CACHE_DIR name (the embedded sample
// without them); SBIR_BENCH_SMALL=1 gives every program its CI sizes.
//
//	go test ./sandbox/internal/worker -run '^$' -bench 'Lang/fib' -benchtime 1x -cpuprofile /tmp/fib.prof
func BenchmarkLang(b *testing.B) {
	for _, name := range langPrograms {
		b.Run(name, func(b *testing.B) {
			src, err := os.ReadFile(filepath.Join("..", "..", "..", "bench", "lang", name, "main.go"))
			if err != nil {
				b.Fatal(err)
			}
			code := string(src)
			if os.Getenv("SBIR_BENCH_SMALL") == "1" {
				code = smallSize.ReplaceAllString(code, "${1}${3}${2}")
			}
			const dataImport = `"github.com/sbirtools/sbir-kernel/award_data"`
			if strings.Contains(code, dataImport) {
				if err := loadLangData(); err != nil {
					b.Fatal(err)
				}
				code = strings.Replace(code, dataImport, "", 1)
			}
			benchmarkCell(b, code)
		})
	}
}
