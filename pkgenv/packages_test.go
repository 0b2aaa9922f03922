package pkgenv

import (
	"go/parser"
	"go/token"
	"runtime"
	"testing"
)

func TestYaegiSkipsFile(t *testing.T) {
	other := "windows"
	if runtime.GOOS == "windows" {
		other = "linux"
	}
	tests := map[string]bool{
		"a.go":                               false,
		"a_test.go":                          true,
		"_a.go":                              true,
		".a.go":                              true,
		"a.s":                                true,
		"a_" + runtime.GOOS + ".go":          false,
		"a_" + other + ".go":                 true,
		"a_" + runtime.GOARCH + ".go":        false,
		"a_" + runtime.GOOS + "_mips64le.go": runtime.GOARCH != "mips64le",
		"a_" + other + "_" + runtime.GOARCH + ".go": true,
		"some_name.go": false,
		"a_riscv64.go": false, // yaegi v0.16.1 does not know riscv64
	}
	for name, want := range tests {
		if got := yaegiSkipsFile(name); got != want {
			t.Errorf("yaegiSkipsFile(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestYaegiBuildOK(t *testing.T) {
	tests := []struct {
		src             string
		ok, goBuildOnly bool
	}{
		{"package a\n", true, false},
		{"// +build ignore\n\npackage a\n", false, false},
		{"//go:build ignore\n\npackage a\n", true, true},
		{"//go:build ignore\n// +build ignore\n\npackage a\n", false, false},
		{"// +build " + runtime.GOOS + "\n\npackage a\n", true, false},
		{"// +build !" + runtime.GOOS + "\n\npackage a\n", false, false},
		{"// +build cgo\n\npackage a\n", false, false},
		{"// +build !cgo\n\npackage a\n", true, false},
		{"// +build go1.1\n\npackage a\n", true, false},
		{"// +build go1.999\n\npackage a\n", false, false},
		{"// +build nope " + runtime.GOARCH + "\n\npackage a\n", true, false},
		{"// +build nope," + runtime.GOARCH + "\n\npackage a\n", false, false},
		{"package a\n\n// +build ignore\n", true, false}, // after the package clause: not a constraint
	}
	for _, tc := range tests {
		f, err := parser.ParseFile(token.NewFileSet(), "a.go", tc.src, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		ok, gbo := yaegiBuildOK(f)
		if ok != tc.ok || gbo != tc.goBuildOnly {
			t.Errorf("yaegiBuildOK(%q) = %v, %v; want %v, %v", tc.src, ok, gbo, tc.ok, tc.goBuildOnly)
		}
	}
}
