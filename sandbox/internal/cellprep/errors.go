package cellprep

import (
	"fmt"
	"go/scanner"
	"strings"
)

// CheckError is a cell refused before it ran: it names the construct, where
// it is and what to write instead.
type CheckError struct {
	Line, Column int
	Construct    string // e.g. `go statement`, `import "os"`
	Reason       string // why, and the allowed alternative
}

func (e *CheckError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d, column %d: %s is not allowed: %s", e.Line, e.Column, e.Construct, e.Reason)
	}
	return fmt.Sprintf("%s is not allowed: %s", e.Construct, e.Reason)
}

// SyntaxError reports the first parse errors of a cell, at cell positions.
type SyntaxError struct{ List scanner.ErrorList }

func (e SyntaxError) Error() string {
	var b strings.Builder
	for i, err := range e.List {
		if i == 3 {
			fmt.Fprintf(&b, "\n(and %d more errors)", len(e.List)-3)
			break
		}
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "line %d, column %d: %s", err.Pos.Line, err.Pos.Column, err.Msg)
	}
	return b.String()
}

// Unwrap returns the parser's error list.
func (e SyntaxError) Unwrap() error { return e.List }
