// Package progen generates random, valid, deterministic Go programs for
// differential testing of the kernel against gc, in the spirit of Csmith
// and gosmith: a seed gives one program, always the same text, which uses
// only packages cells may import and which prints what it computes.
//
// The programs cover what users write: integers of every size with
// overflow, untyped constants, strings, runes and bytes, slices (append,
// cap, copy, slicing), maps (printed or folded so that iteration order
// does not matter), structs, methods, interfaces, closures, defer and
// recover, named results, switch and fallthrough, labelled break and
// continue, every range form (over ints and function iterators too),
// generics, goroutines with channels used deterministically, and panics
// whose messages gc defines. Every program terminates: loops have
// constant bounds, calls go only to functions declared earlier (or
// recurse on a decreasing bound), values stay small.
//
// A Program is written out in the forms the kernel runs: a whole file,
// cells (declarations first, func main last), main's body at the top
// level of a cell, and a package of a batch that one gc binary runs (see
// Program.Package).
package progen

import (
	"fmt"
	"sort"
	"strings"
)

// Options change what Generate writes.
type Options struct {
	// Suffix is appended to every name the program declares, so that
	// programs can follow one another in one kernel session.
	Suffix string
	// Avoid names constructs (Constructs) not to generate: each is a known
	// divergence between the kernel and gc, listed with its cause.
	Avoid map[string]bool
}

// Program is one generated program.
type Program struct {
	Seed    uint64
	Imports []string // import paths, sorted
	Decls   []string // top-level declarations in order, each ending in a newline
	Body    string   // the statements of func main, one tab indented, ending in a newline
	// Used counts the constructs the program contains (Constructs names them).
	Used map[string]int
}

// File is the program as one Go file, package main.
func (p *Program) File() string {
	return p.header("main") + strings.Join(p.Decls, "\n") + "\nfunc main() {\n" + p.Body + "}\n"
}

// Package is the program as a package of a batch that one gc binary
// dispatches to: package name, with func Main instead of func main. Type
// names print with the package name, not "main.": the caller replaces
// "name." by "main." in what the batch printed.
func (p *Program) Package(name string) string {
	return p.header(name) + strings.Join(p.Decls, "\n") + "\nfunc Main() {\n" + p.Body + "}\n"
}

// Cells splits the program as a person pastes it into a notebook: the
// imports and the declarations in one cell or more, then func main, which
// the kernel runs when a cell declares it.
func (p *Program) Cells() []string {
	cells := []string{p.imports()}
	per := len(p.Decls)/3 + 1
	for i := 0; i < len(p.Decls); i += per {
		end := min(i+per, len(p.Decls))
		if i == 0 {
			cells[0] += "\n" + strings.Join(p.Decls[i:end], "\n")
			continue
		}
		cells = append(cells, strings.Join(p.Decls[i:end], "\n"))
	}
	return append(cells, "func main() {\n"+p.Body+"}\n")
}

// TopLevel is the program as one cell with main's body written at the top
// level, after the imports and declarations, as notebook users write.
func (p *Program) TopLevel() string {
	return p.imports() + "\n" + strings.Join(p.Decls, "\n") + "\n" + unindent(p.Body)
}

func (p *Program) header(pkg string) string {
	return "package " + pkg + "\n\n" + p.imports() + "\n"
}

func (p *Program) imports() string {
	if len(p.Imports) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("import (\n")
	for _, path := range p.Imports {
		fmt.Fprintf(&b, "\t%q\n", path)
	}
	b.WriteString(")\n")
	return b.String()
}

// unindent removes one leading tab from every line.
func unindent(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "\t")
	}
	return strings.Join(lines, "")
}

// Constructs lists the names of the constructs a program may contain, for
// Options.Avoid and Program.Used, sorted.
func Constructs() []string {
	names := make([]string, 0, len(constructDocs))
	for n := range constructDocs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Describe says what a construct is.
func Describe(name string) string { return constructDocs[name] }
