package cellprep

import (
	"go/ast"
	"go/parser"
	"strings"
)

// maxHelpBytes bounds the text of a help query: a name or a chain, not a
// program.
const maxHelpBytes = 4096

// HelpQuery recognises a cell that asks for help the way IPython users do:
// a name or chain followed (or preceded) by "?" or "??", such as
// "award_data.Where?", "award_data.GroupBy("Agency").Sum?", "?strings.Split"
// or "df??". It returns the expression and the detail level (0 for "?",
// 1 for "??"). Go has no "?" operator, so such a cell is never a program.
func HelpQuery(code string) (expr string, detail int, ok bool) {
	s := strings.TrimSpace(code)
	if len(s) > maxHelpBytes {
		return "", 0, false
	}
	switch {
	case strings.HasSuffix(s, "??"):
		s, detail = s[:len(s)-2], 1
	case strings.HasSuffix(s, "?"):
		s = s[:len(s)-1]
	case strings.HasPrefix(s, "??"):
		s, detail = s[2:], 1
	case strings.HasPrefix(s, "?"):
		s = s[1:]
	default:
		return "", 0, false
	}
	s = strings.TrimSpace(s)
	e, err := parser.ParseExpr(s)
	if err != nil || !operand(e) {
		return "", 0, false
	}
	return s, detail, true
}

// operand reports whether e is a name, a selector, a call, an index or a
// parenthesised operand: what inspection can describe.
func operand(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		return operand(e.X)
	case *ast.CallExpr:
		return operand(e.Fun)
	case *ast.IndexExpr:
		return operand(e.X)
	case *ast.ParenExpr:
		return operand(e.X)
	}
	return false
}
