package sandbox_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/sbirtools/sbir-kernel/pkgenv"
	"github.com/sbirtools/sbir-kernel/sandbox"
)

// A cell declares the modules it needs with //sbir:require. Installing a
// set that is not cached needs Options.Packages.AllowInstall (the trust
// gate); with it closed, as here, only cached sets can be used.
func ExampleOptions_packages() {
	cache, err := os.MkdirTemp("", "packages-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(cache)
	ctx := context.Background()
	s, err := sandbox.NewSession(ctx, sandbox.Options{Packages: pkgenv.Options{
		Dir:          cache,
		AllowInstall: false, // the kernel's --allow-packages
	}})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	res, err := s.Run(ctx, `//sbir:require github.com/montanaflynn/stats v0.7.1
import "github.com/montanaflynn/stats"
stats.Median([]float64{1, 2, 3})`, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.ErrorName)
	fmt.Println(res.ErrorMessage)
	// Output:
	// PackageError
	// go: cannot install github.com/montanaflynn/stats@v0.7.1: package installs are disabled on this server; only environments already in the package cache can be used (an administrator can start the kernel with --allow-packages to allow installs)
}
