package cellprep

import (
	"go/scanner"
	"go/token"
	"strings"
)

// IsComplete reports whether code is ready to run, as Jupyter's
// is_complete_request asks: "complete", "incomplete" (with the indent of
// the next line), or "invalid".
func IsComplete(code string) (status, indent string) {
	if strings.TrimSpace(code) == "" {
		return "complete", ""
	}
	if _, _, ok := HelpQuery(code); ok {
		return "complete", ""
	}
	fset := token.NewFileSet()
	file := fset.AddFile("cell", -1, len(code))
	var s scanner.Scanner
	unterminated := false
	s.Init(file, []byte(code), func(pos token.Position, msg string) {
		if strings.Contains(msg, "not terminated") {
			unterminated = true
		}
	}, 0)
	depth := 0
	var last token.Token
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue
		}
		switch tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth--
		}
		if depth < 0 {
			return "invalid", ""
		}
		last = tok
	}
	if unterminated {
		return "incomplete", ""
	}
	if depth > 0 {
		// Spaces, not gofmt's tab: terminal clients such as jupyter
		// console insert the indent literally and show a tab as ^I.
		return "incomplete", strings.Repeat("    ", depth)
	}
	switch {
	case last.IsOperator() && last != token.RPAREN && last != token.RBRACK && last != token.RBRACE &&
		last != token.INC && last != token.DEC && last != token.SEMICOLON:
		return "incomplete", ""
	}
	if _, err := Prepare(code, NewState()); err != nil {
		if _, ok := err.(*CheckError); ok {
			return "complete", "" // it parses; running it reports the refusal
		}
		return "invalid", ""
	}
	return "complete", ""
}
