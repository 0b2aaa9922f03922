package dataset_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sbirtools/sbir-kernel/dataset"
)

func ExampleConvert() {
	csv := "Company,Award Title,Agency,Phase,Program,Award Year,Award Amount,Proposal Award Date\r\n" +
		`"ACME, INC.",Better widgets,Department of Energy,Phase I,SBIR,2024,"$149,999.00",5/7/2024` + "\r\n" +
		`WIDGETCO,Faster widgets,Department of Energy,Phase II,SBIR,2024,N/A,2024-13-01` + "\r\n"
	var arrowFile bytes.Buffer
	report, err := dataset.Convert(context.Background(), strings.NewReader(csv), int64(len(csv)), &arrowFile, dataset.ConvertOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(report.Rows, "rows,", len(report.MissingColumns), "columns missing from the CSV")
	fmt.Println(report.ColumnIssues[dataset.ColAwardAmount].Unparseable, "unparseable amount at line", report.ColumnIssues[dataset.ColAwardAmount].FirstLine)
	// Output:
	// 2 rows, 34 columns missing from the CSV
	// 1 unparseable amount at line 3
}

func ExampleLocate() {
	cache, err := os.MkdirTemp("", "sbir-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(cache)

	// With no SBIR_CSV_PATH and nothing downloaded, Locate falls back to the
	// synthetic sample compiled into the binary, and says so.
	src, err := dataset.Locate(context.Background(), dataset.Config{CacheDir: cache})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(src.Kind)
	fmt.Println(src.Describe())
	// Output:
	// embedded sample
	// 2,000 synthetic awards (run `sbir-kernel download-data` for the real data)
}

func ExampleOpenFile() {
	cache, err := os.MkdirTemp("", "sbir-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(cache)
	src, err := dataset.Locate(context.Background(), dataset.Config{CacheDir: cache})
	if err != nil {
		log.Fatal(err)
	}

	d, err := dataset.OpenFile(src.ArrowPath)
	if err != nil {
		log.Fatal(err)
	}
	defer d.Close()

	// Columns are typed Arrow arrays read straight from the mapped file.
	rec := d.Record()
	amounts := rec.Column(d.Schema().FieldIndices(dataset.ColAwardAmount)[0]).(*array.Float64)
	phases := rec.Column(d.Schema().FieldIndices(dataset.ColPhase)[0]).(*array.Dictionary)
	names := phases.Dictionary().(*array.String)
	total := map[string]float64{}
	for i := 0; i < d.NumRows(); i++ {
		if amounts.IsValid(i) && phases.IsValid(i) {
			total[names.Value(phases.GetValueIndex(i))] += amounts.Value(i)
		}
	}
	fmt.Printf("%d awards; Phase I total $%.0fM, Phase II total $%.0fM\n", d.NumRows(), total["Phase I"]/1e6, total["Phase II"]/1e6)
	// Output:
	// 2000 awards; Phase I total $165M, Phase II total $580M
}

func ExampleGenerate() {
	var buf bytes.Buffer
	if err := dataset.Generate(&buf, dataset.GenerateOptions{Rows: 3, Seed: 1, Shape: dataset.ShapeLegacy41}); err != nil {
		log.Fatal(err)
	}
	header, _, _ := strings.Cut(buf.String(), "\r\n")
	fmt.Println(len(strings.Split(header, ",")), "columns; UEI present:", strings.Contains(header, "UEI"))
	// Output:
	// 41 columns; UEI present: false
}
