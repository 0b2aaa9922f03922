// Patch 34: func types that mention themselves.
package main

import (
	"fmt"
	"strings"
)

type lexer struct {
	input string
	pos   int
	words []string
}

type stateFn func(*lexer) stateFn

func lexWord(l *lexer) stateFn {
	start := l.pos
	for l.pos < len(l.input) && l.input[l.pos] != ' ' {
		l.pos++
	}
	l.words = append(l.words, strings.ToUpper(l.input[start:l.pos]))
	return lexSpace
}

func lexSpace(l *lexer) stateFn {
	if l.pos >= len(l.input) {
		return nil
	}
	l.pos++
	return lexWord
}

type Func func(Func) int

func apply(f Func) int { return f(f) }

type Y func(Y) func(int) int

func fact(self Y) func(int) int {
	return func(n int) int {
		if n == 0 {
			return 1
		}
		return n * self(self)(n-1)
	}
}

func main() {
	l := &lexer{input: "go is fun"}
	for state := stateFn(lexWord); state != nil; {
		state = state(l)
	}
	fmt.Println(l.words)
	depth := 0
	var f Func = func(g Func) int {
		depth++
		if depth < 3 {
			return g(g) + 1
		}
		return 0
	}
	fmt.Println(apply(f), depth, fact(fact)(5))
	type step func(int) step
	var down step
	down = func(n int) step {
		if n == 0 {
			return nil
		}
		return down
	}
	s, n := down(2), 0
	for i := 1; s != nil; i-- {
		s = s(i)
		n++
	}
	var none stateFn
	fmt.Printf("%d %v %T %T\n", n, none == nil, f, lexWord)
}

// Output:
// [GO IS FUN]
// 2 3 120
// 2 true main.Func func(*main.lexer) main.stateFn
