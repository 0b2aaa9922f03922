package kernelspec_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/sbirtools/sbir-kernel/kernelspec"
)

func ExampleInstall() {
	// A throw-away Jupyter data directory and a stand-in kernel binary.
	tmp, err := os.MkdirTemp("", "kernelspec-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	exe := filepath.Join(tmp, "sbir-kernel")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		log.Fatal(err)
	}
	data := filepath.Join(tmp, "jupyter")

	inst, err := kernelspec.Install(kernelspec.Options{
		Executable: exe,
		Args:       []string{"--cell-timeout", "10s"},
		Getenv: func(k string) string {
			if k == "JUPYTER_DATA_DIR" {
				return data
			}
			return ""
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	rel, _ := filepath.Rel(tmp, inst.Dir)
	fmt.Println("installed", inst.Name, "in", rel)
	fmt.Println("argv:", strings.Join(inst.Spec.Argv[1:], " "))
	entries, _ := os.ReadDir(inst.Dir)
	for _, e := range entries {
		fmt.Println(" ", e.Name())
	}
	// Output:
	// installed sbir in jupyter/kernels/sbir
	// argv: kernel --cell-timeout 10s -f {connection_file}
	//   kernel.json
	//   logo-32x32.png
	//   logo-64x64.png
	//   logo-svg.svg
}
