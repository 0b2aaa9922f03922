// Package gotrace reads what the Go runtime prints about a compiled
// cell (a goroutine's stack, the message of a panic or fatal error) in
// the cell's own terms: frames of the cell's code, named by the line
// directives its program was rendered with (File, EarlierPrefix), at the
// cell's lines. It depends on the standard library only: the compiled
// cell's runtime and the supervisor both use it.
package gotrace

import (
	"fmt"
	"strconv"
	"strings"
)

// File names of a compiled cell's positions, as the line directives of
// its program give them: the cell itself, a declaration carried in from an
// earlier cell (EarlierPrefix, then the declared name), and code the
// rendering added (Generated).
const (
	File          = "cell"
	EarlierPrefix = "earlier-"
	Generated     = "generated"
)

// A Frame is a call in a compiled cell's code.
type Frame struct {
	// Func is the function as the runtime names it, package path
	// removed: "main", "fib", "main.func1", "P.Twice".
	Func string
	// File is File or EarlierPrefix+name.
	File string
	Line int
	// Created marks the statement that started the goroutine (the last
	// frame of a goroutine other than main's).
	Created bool
}

// String is the frame as a traceback line of the kernel:
// "  at line 3, in fib", "  at line 2 of an earlier cell, in fib".
func (f Frame) String() string {
	where := fmt.Sprintf("line %d", f.Line)
	if f.File != File {
		where += " of an earlier cell"
	}
	if f.Created {
		return fmt.Sprintf("  started at %s, in %s", where, funcName(f.Func))
	}
	return fmt.Sprintf("  at %s, in %s", where, funcName(f.Func))
}

// mainFuncs name the program's generated main (the cell's statements)
// and a cell's own func main as the renderer renames it.
const (
	generatedMain = "main"
	cellMain      = "_sbirMain"
)

// funcName words a function for a traceback line.
func funcName(fn string) string {
	base, lit, _ := strings.Cut(fn, ".func")
	switch base {
	case generatedMain:
		base = "the cell"
	case cellMain:
		base = "main"
	}
	if lit != "" {
		return "a function literal in " + base
	}
	return base
}

// Frames returns the frames of the cell's code in the first goroutine of
// a stack trace (runtime/debug.Stack, or the runtime's crash report),
// innermost first.
func Frames(trace string) []Frame {
	lines := strings.Split(trace, "\n")
	var out []Frame
	started := false
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "goroutine ") {
			if started {
				break
			}
			started = true
			continue
		}
		if !strings.HasPrefix(l, "\t") || i == 0 {
			continue
		}
		file, line, ok := location(l)
		if !ok || !(file == File || strings.HasPrefix(file, EarlierPrefix)) {
			continue
		}
		out = append(out, Frame{Func: shortFunc(lines[i-1]), File: file, Line: line, Created: strings.HasPrefix(lines[i-1], "created by ")})
	}
	return out
}

// location parses "\tcell:12 +0x1d" into its file and line.
func location(l string) (file string, line int, ok bool) {
	l = strings.TrimPrefix(l, "\t")
	if i := strings.LastIndex(l, " +0x"); i >= 0 {
		l = l[:i]
	}
	colon := strings.LastIndexByte(l, ':')
	if colon < 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(l[colon+1:])
	if err != nil {
		return "", 0, false
	}
	return l[:colon], n, true
}

// shortFunc turns a trace's call line ("main.fib(0x1e)",
// "main.(*P).Twice(...)", "created by main.main in goroutine 1") into
// the function's name within its package.
func shortFunc(l string) string {
	l = strings.TrimPrefix(l, "created by ")
	if i := strings.Index(l, " in goroutine "); i >= 0 {
		l = l[:i]
	}
	if i := strings.LastIndexByte(l, '('); i > 0 && strings.HasSuffix(l, ")") {
		l = l[:i]
	}
	// The package path, then the package's name.
	l = l[strings.LastIndexByte(l, '/')+1:]
	if _, rest, ok := strings.Cut(l, "."); ok {
		l = rest
	}
	return strings.NewReplacer("(*", "", ")", "").Replace(l)
}

// A Crash is how a compiled cell's process ended when the runtime
// reported it: an unrecovered panic or a fatal error.
type Crash struct {
	// Fatal is set for a fatal error (a deadlock, concurrent map writes,
	// a stack overflow, running out of memory), unset for a panic.
	Fatal bool
	// Message is the panic's value or the fatal error, as printed.
	Message string
	// Frames are the cell's frames in the failing goroutine.
	Frames []Frame
	// Goroutine is the failing goroutine's number (1 is main's), 0 when
	// the report names none.
	Goroutine int
	// Before is what the process wrote to its standard error before the
	// report (the builtin print and println write there).
	Before string
}

// ParseCrash finds the runtime's report in what a process wrote to its
// standard error; ok is false when there is none.
func ParseCrash(text string) (c Crash, ok bool) {
	at, fatal := reportStart(text)
	if at < 0 {
		return Crash{}, false
	}
	c.Before, c.Fatal = text[:at], fatal
	rest := text[at:]
	end := strings.Index(rest, "\n\ngoroutine ")
	if end < 0 {
		end = strings.Index(rest, "\n[signal")
	}
	if end < 0 {
		end = len(rest)
	}
	msg := rest[:end]
	if fatal {
		msg = strings.TrimPrefix(msg[strings.LastIndex(msg, "fatal error: "):], "fatal error: ")
	} else {
		// A panic raised while another unwound prints both; the last is
		// the one that ended the program.
		if i := strings.LastIndex(msg, "\n\tpanic: "); i >= 0 {
			msg = msg[i+len("\n\tpanic: "):]
		} else {
			msg = strings.TrimPrefix(msg, "panic: ")
		}
		msg = strings.TrimSuffix(msg, " [recovered]")
	}
	c.Message = strings.TrimSpace(strings.SplitN(msg, "\n", 2)[0])
	if strings.Contains(msg, "\n") && !fatal {
		c.Message = strings.TrimSpace(msg)
	}
	c.Frames = Frames(rest[end:])
	if i := strings.Index(rest[end:], "goroutine "); i >= 0 {
		fmt.Sscanf(rest[end+i:], "goroutine %d", &c.Goroutine)
	}
	return c, true
}

// reportStart finds where the runtime's report begins: the first line
// starting "panic: ", "fatal error: " or "runtime: " (which precedes a
// stack overflow's fatal error).
func reportStart(text string) (at int, fatal bool) {
	off := 0
	for _, l := range strings.SplitAfter(text, "\n") {
		switch {
		case strings.HasPrefix(l, "panic: "):
			return off, false
		case strings.HasPrefix(l, "fatal error: "), strings.HasPrefix(l, "runtime: ") && strings.Contains(text[off:], "\nfatal error: "):
			return off, true
		}
		off += len(l)
	}
	return -1, false
}
