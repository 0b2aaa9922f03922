package pkgenv_test

import (
	"context"
	"fmt"
	"os"

	"github.com/sbirtools/sbir-kernel/internal/bytesize"
	"github.com/sbirtools/sbir-kernel/pkgenv"
)

func ExampleParseRequirements() {
	cell := `//sbir:require github.com/montanaflynn/stats v0.7.1
//sbir:requires golang.org/x/text v0.41.0
import "github.com/montanaflynn/stats"

m, _ := stats.Mean([]float64{1, 2, 3})
fmt.Println(m)
`
	reqs, errs := pkgenv.ParseRequirements(cell)
	for _, r := range reqs {
		fmt.Println("require", r, "on line", r.Line)
	}
	for _, err := range errs {
		fmt.Println(err)
	}
	// Output:
	// require github.com/montanaflynn/stats@v0.7.1 on line 1
	// line 2: //sbir:requires golang.org/x/text v0.41.0: unknown directive; requirements are declared with //sbir:require <module> <version> (did you mean "//sbir:require golang.org/x/text v0.41.0"?)
}

// The sandbox resolves a cell's declarations before running it and hands
// the environment to the worker read-only.
func ExampleEnsure() {
	dir := "/var/cache/sbir-kernel/packages" // the kernel uses <its cache directory>/packages
	reqs, _ := pkgenv.ParseRequirements("//sbir:require github.com/montanaflynn/stats v0.7.1\n")
	env, err := pkgenv.Ensure(context.Background(), reqs, pkgenv.Options{
		Dir:           dir,
		AllowInstall:  false, // the trust gate: only cached sets are usable
		KernelVersion: "0.1.0",
	})
	if err != nil {
		fmt.Println(err) // printed in the cell's output as it is
		return
	}
	defer env.Close()
	fmt.Println("GoPath for the worker:", env.Dir)
}

func ExamplePrune() {
	dir := "/var/cache/sbir-kernel/packages"
	rep, err := pkgenv.Prune(dir, 2<<30)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	fmt.Printf("removed %d environments, freed %s\n", len(rep.Removed), bytesize.Approx(rep.Freed))
}
