package assist

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	award_data "github.com/sbirtools/sbir-kernel/award_data"
)

// Errors point at what is wrong: an award_data error at the argument it
// names (`award_data.Where("Agncy", ...)` at "Agncy"), and an undefined
// method at the method's name, not at the start of the chain where the
// interpreter reports it. Positions come from parsing the chunk, whose
// /*line*/ directives give the cell's lines (plus one for the wrapper
// line) and columns.

// parsedChunk is a chunk's code parsed as a file or as a function body.
type parsedChunk struct {
	fset   *token.FileSet
	file   *ast.File
	prefix int // bytes added before the code
}

func parseChunk(code string) (*parsedChunk, bool) {
	fset := token.NewFileSet()
	for _, wrap := range [][2]string{{"package p;", ""}, {"package p;func _(){", "\n}"}} {
		f, err := parser.ParseFile(fset, "", wrap[0]+code+wrap[1], parser.SkipObjectResolution)
		if err == nil {
			return &parsedChunk{fset: fset, file: f, prefix: len(wrap[0])}, true
		}
	}
	return nil, false
}

// position is the cell position of pos: the directive's line less the
// wrapper line.
func (p *parsedChunk) position(pos token.Pos) (line, col int) {
	at := p.fset.Position(pos)
	return max(at.Line-1, 1), at.Column
}

// offset is the byte offset of pos in the chunk's code.
func (p *parsedChunk) offset(pos token.Pos) int { return p.fset.Position(pos).Offset - p.prefix }

// calls visits the calls of a method or function named name.
func (p *parsedChunk) calls(name string, fn func(call *ast.CallExpr, sel *ast.Ident)) {
	ast.Inspect(p.file, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		switch f := call.Fun.(type) {
		case *ast.SelectorExpr:
			if f.Sel.Name == name {
				fn(call, f.Sel)
			}
		case *ast.Ident:
			if f.Name == name {
				fn(call, f)
			}
		}
		return true
	})
}

// ArgumentFrame locates an award_data error in the chunk: the string
// argument of a call to the failing method that holds the bad value, or
// else the method's name. It returns a traceback line, or "".
func ArgumentFrame(code string, err error) string {
	var e *award_data.Error
	if !errors.As(err, &e) {
		return ""
	}
	p, ok := parseChunk(code)
	if !ok {
		return ""
	}
	op := e.Op[strings.LastIndexByte(e.Op, '.')+1:] // "Row.Float" is called as Float
	var argAt, callAt token.Pos
	p.calls(op, func(call *ast.CallExpr, sel *ast.Ident) {
		if callAt == token.NoPos {
			callAt = sel.Pos()
		}
		for _, a := range call.Args {
			if lit, ok := a.(*ast.BasicLit); ok && lit.Kind == token.STRING && e.Arg != "" && argAt == token.NoPos {
				if s, err := strconv.Unquote(lit.Value); err == nil && s == e.Arg {
					argAt = lit.Pos()
				}
			}
		}
	})
	switch {
	case argAt != token.NoPos:
		line, col := p.position(argAt)
		return fmt.Sprintf("  at line %d, column %d, in the cell: %s", line, col, strconv.Quote(e.Arg))
	case callAt != token.NoPos:
		line, col := p.position(callAt)
		return fmt.Sprintf("  at line %d, column %d, in the cell: %s", line, col, op)
	}
	return ""
}

// undefinedRE matches the interpreter's message for a method or member
// that does not exist, with its position.
var undefinedRE = regexp.MustCompile(`^line (\d+), column (\d+): (undefined method: |undefined selector:? [\w/.]*\.?|\w+\.)(\w+)`)

// RelocateUndefined moves the position of an "undefined method: X"
// message from the start of the chain to X itself, and suggests what
// was meant (pandas' names included: Merge → Join).
func RelocateUndefined(code, msg string) string {
	m := undefinedRE.FindStringSubmatchIndex(msg)
	if m == nil || !strings.HasPrefix(msg[m[6]:], "undefined") && !strings.Contains(msg, " is not defined: package ") {
		return msg
	}
	name := msg[m[8]:m[9]]
	p, ok := parseChunk(code)
	if !ok {
		return msg
	}
	var sel *ast.SelectorExpr
	ast.Inspect(p.file, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok && s.Sel.Name == name && sel == nil {
			sel = s
		}
		return sel == nil
	})
	if sel == nil {
		return msg
	}
	line, col := p.position(sel.Sel.Pos())
	out := fmt.Sprintf("line %d, column %d: %s", line, col, msg[m[6]:])
	if strings.Contains(out, "did you mean") {
		return out
	}
	if s := methodSuggestion(p, code, sel); s != "" {
		out += "; did you mean " + s + "?"
	}
	return out
}

// methodSuggestion names the members of the selector's receiver closest
// to its name; for a receiver whose type the chain does not tell (a
// variable of an earlier cell), pandas' names of award_data's methods.
func methodSuggestion(p *parsedChunk, code string, sel *ast.SelectorExpr) string {
	ty := &typer{code: code, toks: tokenize(code)}
	start := p.offset(sel.X.Pos())
	if start >= 0 && start <= len(code) {
		if x, ok := ty.typeOf(sel.X, code, start); ok && x.typ != nil && x.pkg == "" {
			if c := closest(sel.Sel.Name, typeMembers(x)); len(c) > 0 {
				return strings.Join(c, " or ")
			}
			return ""
		}
	}
	for _, t := range []reflect.Type{reflect.TypeFor[award_data.Frame](), reflect.TypeFor[award_data.Grouped](), reflect.TypeFor[award_data.Chart]()} {
		names := typeMembers(exprType{typ: t})
		for _, a := range memberAlias[aliasKey(sel.Sel.Name)] {
			for _, n := range names {
				if n == a {
					return a + " (a method of " + typeName(t) + ")"
				}
			}
		}
	}
	return ""
}

// aliasKey is the key of memberAlias for a name: lower case, without
// underscores (pandas' pct_change and Go's PctChange meet).
func aliasKey(name string) string { return strings.ReplaceAll(strings.ToLower(name), "_", "") }

// textMethods are the methods whose string result is text to show as it
// is (CSV, JSON), not a Go string to quote.
var textMethods = map[string]bool{"ToCSV": true, "ToJSON": true}

// IsTextCall reports whether an expression chunk is a call of ToCSV or
// ToJSON: its value shows as the text itself, not as a quoted Go string
// (which double-encodes JSON).
func IsTextCall(code string) bool {
	p, ok := parseChunk(code)
	if !ok || len(p.file.Decls) == 0 {
		return false
	}
	fn, ok := p.file.Decls[len(p.file.Decls)-1].(*ast.FuncDecl)
	if !ok || fn.Body == nil || len(fn.Body.List) == 0 {
		return false
	}
	stmt, ok := fn.Body.List[len(fn.Body.List)-1].(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := stmt.X.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	return ok && textMethods[sel.Sel.Name]
}
