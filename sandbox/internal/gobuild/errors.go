package gobuild

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/gotrace"
)

// A Message is one of the compiler's errors, at a position of the program
// the cell was rendered as (its line directives: gotrace.File, an
// earlier cell's declaration, or generated code).
type Message struct {
	File         string
	Line, Column int
	Text         string
}

// String words the message for the cell's user: its place in the cell,
// or in a declaration an earlier cell made.
func (m Message) String() string {
	switch {
	case m.File == gotrace.File:
		return fmt.Sprintf("line %d, column %d: %s", m.Line, m.Column, m.Text)
	case strings.HasPrefix(m.File, gotrace.EarlierPrefix):
		return fmt.Sprintf("in %s, declared in an earlier cell (at %d:%d there): %s", strings.TrimPrefix(m.File, gotrace.EarlierPrefix), m.Line, m.Column, m.Text)
	}
	return "in code the kernel added to the cell (please report this): " + m.Text
}

// A CompileError is a program that does not compile.
type CompileError struct {
	Messages []Message
	// More counts the messages left out.
	More int
}

// maxMessages bounds the messages a CompileError keeps.
const maxMessages = 10

func (e *CompileError) Error() string {
	lines := make([]string, len(e.Messages))
	for i, m := range e.Messages {
		lines[i] = m.String()
	}
	if e.More > 0 {
		lines = append(lines, fmt.Sprintf("(and %d more errors)", e.More))
	}
	return strings.Join(lines, "\n")
}

// Has reports whether one of the messages is at line:col of the cell and
// contains text.
func (e *CompileError) Has(line, col int, text string) bool {
	for _, m := range e.Messages {
		if m.File == gotrace.File && m.Line == line && m.Column == col && strings.Contains(m.Text, text) {
			return true
		}
	}
	return false
}

// messageRE matches a compiler error: "cell:3:5: undefined: x".
var messageRE = regexp.MustCompile(`^([^\s:]+):(\d+):(\d+): (.*)$`)

// renamed are the rendering's names, as the cell wrote them.
var renamed = strings.NewReplacer("_sbirMain", "main", "github.com/sbirtools/sbir-kernel/award_data", "award_data", "github.com/sbirtools/sbir-kernel/display", "display")

// parseCompileErrors reads the compiler's errors from the go command's
// output; nil when it holds none (the toolchain failed otherwise).
func parseCompileErrors(out string) *CompileError {
	var e CompileError
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "\t") && len(e.Messages) > 0 && e.More == 0 {
			// A message's own further lines ("have (int)", "want ...").
			last := &e.Messages[len(e.Messages)-1]
			last.Text += "\n\t" + renamed.Replace(strings.TrimSpace(l))
			continue
		}
		m := messageRE.FindStringSubmatch(l)
		if m == nil || !isCellFile(m[1]) {
			continue
		}
		if len(e.Messages) == maxMessages {
			e.More++
			continue
		}
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		e.Messages = append(e.Messages, Message{File: m[1], Line: line, Column: col, Text: renamed.Replace(m[4])})
	}
	if len(e.Messages) == 0 {
		return nil
	}
	return &e
}

func isCellFile(f string) bool {
	return f == gotrace.File || f == gotrace.Generated || strings.HasPrefix(f, gotrace.EarlierPrefix)
}

// prune keeps the MaxBinaries most recently used binaries, and removes
// what interrupted builds left behind.
func (b *Builder) prune() {
	dir := filepath.Join(b.opts.Dir, "bin")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type bin struct {
		path string
		used time.Time
	}
	var bins []bin
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if strings.Contains(e.Name(), ".tmp-") {
			if time.Since(info.ModTime()) > b.opts.Limits.Timeout+time.Hour {
				os.Remove(p)
			}
			continue
		}
		bins = append(bins, bin{p, info.ModTime()})
	}
	if len(bins) <= b.opts.Limits.MaxBinaries {
		return
	}
	sort.Slice(bins, func(i, j int) bool { return bins[i].used.After(bins[j].used) })
	for _, x := range bins[b.opts.Limits.MaxBinaries:] {
		os.Remove(x.path)
	}
}
