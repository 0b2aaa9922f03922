package cellprep

import (
	"go/scanner"
	"go/token"
	"strconv"
)

// segment is one top-level declaration or statement of a cell.
type segment struct {
	start, end int // byte offsets in the cell
	decl       bool
	pkgClause  bool
}

// Bounds on a cell's shape. The parser builds a chain of operators
// (x+1+1+…) as a tree as deep as the chain, and every later walk, here
// and in the interpreter, recurses that deep: a 100 KB line of `+1` is a
// tree 50,000 deep. No program written by hand comes near these.
const (
	maxNesting = 1000  // brackets inside brackets
	maxChain   = 10000 // operators in a row at one bracket depth
)

func shapeError(p token.Position, construct, reason string) error {
	return &CheckError{Line: p.Line, Column: p.Column, Construct: construct, Reason: reason}
}

// splitTopLevel cuts code into top-level declarations and statements.
func splitTopLevel(code string) ([]segment, error) {
	fset := token.NewFileSet()
	file := fset.AddFile("cell", -1, len(code))
	var errs scanner.ErrorList
	var s scanner.Scanner
	s.Init(file, []byte(code), func(pos token.Position, msg string) { errs.Add(pos, msg) }, 0)
	var segs []segment
	depth := 0
	chains := []int{0} // operators in a row, by bracket depth
	header := false
	funcLits := 0 // function literals begun in a header, whose bodies are not the block
	start := -1
	var toks []token.Token
	var lastEnd int
	closeSeg := func() {
		if start < 0 {
			return
		}
		segs = append(segs, classify(start, lastEnd, toks))
		start, toks = -1, toks[:0] // classify keeps nothing of toks
	}
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		off := file.Offset(pos)
		if tok == token.SEMICOLON && depth == 0 && !(header && lit == ";") {
			closeSeg()
			header = false
			continue
		}
		// The explicit semicolons of `for i := 0; i < n; i++ {` and
		// `if x := f(); x > 0 {` do not end the statement.
		if depth == 0 {
			switch tok {
			case token.FOR, token.IF, token.SWITCH:
				header, funcLits = true, 0
			case token.FUNC:
				if header {
					funcLits++
				}
			case token.LBRACE:
				// The block's brace, unless it opens a composite literal
				// of an array, slice or map type (`for a := [1]int{}; …`),
				// which Go allows in a header (a bare T{} it does not),
				// the body of a function literal (`if f := func() {}; …`)
				// or a struct or interface type.
				switch {
				case literalBrace(toks) || typeBrace(toks):
				case funcLits > 0:
					funcLits--
				default:
					header = false
				}
			}
		}
		if start < 0 {
			start = off
		}
		toks = append(toks, tok)
		switch tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth++
			if depth > maxNesting {
				return nil, shapeError(file.Position(pos), "nesting brackets more than "+strconv.Itoa(maxNesting)+" deep", "name the inner parts: `a := ...` then use a")
			}
			chains = append(chains[:depth], 0)
		case token.RPAREN, token.RBRACK, token.RBRACE:
			if depth > 0 {
				depth--
			}
			chains = chains[:depth+1]
		case token.COMMA, token.SEMICOLON, token.COLON, token.ASSIGN, token.DEFINE:
			chains[depth] = 0
		default:
			if tok.IsOperator() && tok.Precedence() > 0 || tok == token.NOT || tok == token.ARROW {
				chains[depth]++
				if chains[depth] > maxChain {
					return nil, shapeError(file.Position(pos), "an expression of more than "+strconv.Itoa(maxChain)+" operators in a row", "compute it in parts, in several statements")
				}
			}
		}
		if tok == token.SEMICOLON {
			lastEnd = min(off+1, len(code))
		} else if lit != "" && tok != token.SEMICOLON {
			lastEnd = min(off+len(lit), len(code))
		} else {
			lastEnd = min(off+len(tok.String()), len(code))
		}
	}
	closeSeg()
	if len(errs) > 0 {
		return nil, errs
	}
	return segs, nil
}

// literalBrace reports whether a { after toks opens a composite literal
// whose type ends in an element type name after a bracket: [1]int{,
// map[string]int{, []pkg.T{.
func literalBrace(toks []token.Token) bool {
	n := len(toks)
	switch {
	case n >= 2 && toks[n-1] == token.IDENT && toks[n-2] == token.RBRACK:
		return true
	case n >= 4 && toks[n-1] == token.IDENT && toks[n-2] == token.PERIOD && toks[n-3] == token.IDENT && toks[n-4] == token.RBRACK:
		return true
	}
	return false
}

// typeBrace reports whether a { after toks opens the fields or methods of
// a struct or interface type.
func typeBrace(toks []token.Token) bool {
	n := len(toks)
	return n >= 1 && (toks[n-1] == token.STRUCT || toks[n-1] == token.INTERFACE)
}

// classify decides whether a segment is a declaration from its tokens.
func classify(start, end int, toks []token.Token) segment {
	s := segment{start: start, end: end}
	switch toks[0] {
	case token.IMPORT, token.TYPE, token.VAR, token.CONST:
		s.decl = true
	case token.PACKAGE:
		s.pkgClause = true
	case token.FUNC:
		if len(toks) > 1 && toks[1] == token.IDENT {
			s.decl = true
		} else if len(toks) > 1 && toks[1] == token.LPAREN {
			// A method has a receiver list followed by its name; a
			// function literal has its parameters followed by a result
			// type or a body.
			depth := 0
			for i := 1; i < len(toks); i++ {
				switch toks[i] {
				case token.LPAREN:
					depth++
				case token.RPAREN:
					depth--
				}
				if depth == 0 {
					s.decl = i+2 < len(toks) && toks[i+1] == token.IDENT && toks[i+2] == token.LPAREN
					break
				}
			}
		}
	}
	return s
}
