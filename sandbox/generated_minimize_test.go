package sandbox_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/sandbox"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/progen"
)

// TestMinimizeGenerated shrinks a diverging generated program (or any Go
// file) to the fewest declarations and statements that still diverge in
// the same form and the same way, for filing as a corpus program:
//
//	go test ./sandbox -run TestMinimizeGenerated -gen.min=SEED -gen.form=top -v
//	go test ./sandbox -run TestMinimizeGenerated -gen.minfile=prog.go -gen.form=file -v
//
// Each step removes a declaration or a statement, or replaces a compound
// statement by its body; the result must type-check (a variable left
// unused is read with `_ =`, an import left unused is dropped), and gc and
// the kernel must still disagree with the same class and kernel error.
var (
	genMin     = flag.Uint64("gen.min", 0, "the seed TestMinimizeGenerated shrinks")
	genMinFile = flag.String("gen.minfile", "", "a Go file TestMinimizeGenerated shrinks instead of a seed")
	genMinForm = flag.String("gen.form", "file", "the form the divergence shows in: file, cells or top")
	genMinOut  = flag.String("gen.minout", "", "where TestMinimizeGenerated writes the result (default: the log)")
)

func TestMinimizeGenerated(t *testing.T) {
	if *genMin == 0 && *genMinFile == "" {
		t.Skip("no -gen.min or -gen.minfile")
	}
	form := -1
	for i, f := range genForms {
		if f == *genMinForm {
			form = i
		}
	}
	if form < 0 {
		t.Fatalf("-gen.form=%q: want file, cells or top", *genMinForm)
	}
	var src string
	if *genMinFile != "" {
		b, err := os.ReadFile(*genMinFile)
		if err != nil {
			t.Fatal(err)
		}
		src = string(b)
	} else {
		known := loadKnownDivergences(t)
		avoid := map[string]bool{}
		if !*genAll {
			for c := range known {
				avoid[c] = true
			}
		}
		src = progen.Generate(*genMin, progen.Options{Suffix: "_" + strconv.FormatUint(*genMin, 36), Avoid: avoid}).File()
	}
	m := &minimizer{t: t, goBin: goCommandForGen(t), form: form, dir: t.TempDir(), imp: importer.ForCompiler(token.NewFileSet(), "source", nil)}
	first, ok := m.diverges(src)
	if !ok {
		t.Fatalf("the program does not diverge as %s", genForms[form])
	}
	m.want = first
	t.Logf("diverges as %s: %s: %s", genForms[form], first.class, first.cause)
	small := m.shrink(src)
	last, _ := m.diverges(small)
	t.Logf("%d checks; minimal program (%s: %s):\n%s", m.checks, last.class, last.cause, small)
	if *genMinOut != "" {
		if err := os.WriteFile(*genMinOut, []byte(small), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

type minimizer struct {
	t      *testing.T
	goBin  string
	form   int
	dir    string
	imp    types.Importer
	want   genResult
	checks int
}

// shrink removes what it can, repeating until nothing more goes.
func (m *minimizer) shrink(src string) string {
	for changed := true; changed; {
		changed = false
		for i := 0; ; i++ {
			cand, ok := edit(src, i)
			if !ok {
				break
			}
			cand, ok = m.repair(cand)
			if !ok || cand == src {
				continue
			}
			if r, ok := m.diverges(cand); ok && r.class == m.want.class && sameFailure(r.cause, m.want.cause) {
				src, changed = cand, true
				i-- // the same index now names the next candidate
			}
		}
	}
	return src
}

// sameFailure compares the kernel's error class in two causes (the part
// after "(then " or the cause itself): a shrink must not trade a timeout
// for a compile error.
func sameFailure(a, b string) bool {
	class := func(s string) string {
		if _, after, ok := strings.Cut(s, "(then "); ok {
			s = after
		}
		s = strings.TrimLeft(s, "cell 0123456789:")
		s, _, _ = strings.Cut(strings.TrimSpace(s), ":")
		return strings.Map(func(r rune) rune {
			if '0' <= r && r <= '9' {
				return -1
			}
			return r
		}, s)
	}
	return class(a) == class(b)
}

// edit returns the program with its i-th edit applied: removing a
// declaration, removing a statement, or replacing a compound statement
// by its body; false past the last edit.
func edit(src string, i int) (string, bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "prog.go", src, parser.ParseComments)
	if err != nil {
		return "", false
	}
	n := 0
	for di := len(f.Decls) - 1; di >= 0; di-- {
		d := f.Decls[di]
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "main" {
			continue
		}
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			continue
		}
		if n == i {
			f.Decls = append(f.Decls[:di], f.Decls[di+1:]...)
			return render(fset, f)
		}
		n++
	}
	var lists []*[]ast.Stmt
	ast.Inspect(f, func(x ast.Node) bool {
		switch b := x.(type) {
		case *ast.BlockStmt:
			lists = append(lists, &b.List)
		case *ast.CaseClause:
			lists = append(lists, &b.Body)
		case *ast.CommClause:
			lists = append(lists, &b.Body)
		}
		return true
	})
	for li := len(lists) - 1; li >= 0; li-- {
		list := lists[li]
		for si := len(*list) - 1; si >= 0; si-- {
			if n == i {
				*list = append((*list)[:si], (*list)[si+1:]...)
				return render(fset, f)
			}
			n++
			if body := innerBody((*list)[si]); body != nil {
				if n == i {
					*list = append((*list)[:si], append(body, (*list)[si+1:]...)...)
					return render(fset, f)
				}
				n++
			}
		}
	}
	return "", false
}

// innerBody is the statements a compound statement may be replaced by.
func innerBody(s ast.Stmt) []ast.Stmt {
	switch s := s.(type) {
	case *ast.BlockStmt:
		return s.List
	case *ast.IfStmt:
		return s.Body.List
	case *ast.ForStmt:
		return s.Body.List
	case *ast.RangeStmt:
		return s.Body.List
	case *ast.LabeledStmt:
		return []ast.Stmt{s.Stmt}
	}
	return nil
}

func render(fset *token.FileSet, f *ast.File) (string, bool) {
	var b bytes.Buffer
	if err := format.Node(&b, fset, f); err != nil {
		return "", false
	}
	return b.String(), true
}

// repair type-checks a candidate, reading variables left unused and
// dropping imports left unused; false when other errors remain.
func (m *minimizer) repair(src string) (string, bool) {
	for try := 0; try < 20; try++ {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "prog.go", src, 0)
		if err != nil {
			return "", false
		}
		var errs []types.Error
		conf := types.Config{Importer: m.imp, Error: func(err error) {
			var te types.Error
			if errors.As(err, &te) {
				errs = append(errs, te)
			}
		}}
		conf.Check("main", fset, []*ast.File{f}, nil)
		if len(errs) == 0 {
			return src, true
		}
		fixed := false
		for _, e := range errs {
			if name, ok := strings.CutPrefix(e.Msg, "declared and not used: "); ok {
				src, fixed = readAfter(src, fset.Position(e.Pos).Offset, name), true
				break
			}
			if strings.HasSuffix(e.Msg, "imported and not used") {
				line := fset.Position(e.Pos).Line
				lines := strings.Split(src, "\n")
				lines[line-1] = ""
				src, fixed = strings.Join(lines, "\n"), true
				break
			}
		}
		if !fixed {
			return "", false
		}
	}
	return "", false
}

// readAfter inserts `_ = name` on the line after the one holding offset.
func readAfter(src string, offset int, name string) string {
	end := strings.IndexByte(src[offset:], '\n')
	if end < 0 {
		return src
	}
	at := offset + end + 1
	return src[:at] + "_ = " + name + "\n" + src[at:]
}

// diverges runs the program with gc and in a fresh kernel session in the
// minimizer's form; ok when they disagree.
func (m *minimizer) diverges(src string) (genResult, bool) {
	m.checks++
	want, err := m.goRun(src)
	if err != nil {
		return genResult{}, false // gc refused it or it ran too long
	}
	cells, err := formsOf(src)
	if err != nil {
		return genResult{}, false
	}
	ctx := context.Background()
	l := sandbox.DefaultLimits()
	l.CellTimeout = genCellTimeout
	s, err := sandbox.NewSession(ctx, sandbox.Options{Limits: l})
	if err != nil {
		m.t.Fatal(err)
	}
	defer s.Close()
	var stdout, stderr strings.Builder
	var failed *sandbox.Result
	at := 0
	for i, cell := range cells[m.form] {
		res, err := s.Run(ctx, cell, nil)
		if err != nil {
			return genResult{class: "error", cause: err.Error()}, true
		}
		stdout.WriteString(res.Stdout)
		stderr.WriteString(res.Stderr)
		if !res.Success {
			failed, at = res, i+1
			break
		}
	}
	n := len(cells[m.form])
	if m.form == 0 {
		n = 0
	}
	o := judgeGoRun(want, stdout.String(), stderr.String(), failed, at, n)
	if o.ok {
		return genResult{ok: true}, false
	}
	return genResult{class: divergenceClass(want, stdout.String(), failed), cause: o.cause}, true
}

// goRun builds and runs src with gc, recording it as the corpus does.
func (m *minimizer) goRun(src string) (*gorunProgram, error) {
	p := &gorunProgram{name: "min", prog: src}
	if err := os.WriteFile(filepath.Join(m.dir, "go.mod"), []byte("module prog\n\ngo 1.26\n"), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(m.dir, "prog.go"), []byte(src), 0o644); err != nil {
		return nil, err
	}
	bin := filepath.Join(m.dir, "prog")
	build := exec.Command(m.goBin, "build", "-o", bin, ".")
	build.Dir = m.dir
	build.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOPROXY=off", "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("gc: %s", out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	run := exec.CommandContext(ctx, bin)
	var stdout, stderr bytes.Buffer
	run.Stdout, run.Stderr = &stdout, &stderr
	err := run.Run()
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.As(err, &ee):
		p.status = ee.ExitCode()
	case err != nil:
		return nil, err
	}
	errOut := stderr.String()
	if before, line, ok := cutFatal(errOut); p.status == 2 && ok {
		errOut = before + line + "\n"
	}
	p.stdout, p.stderr = stdout.String(), errOut
	return p, nil
}

// formsOf writes a Go file in the three forms: the file, cells (the
// imports and declarations, then func main) and the top level (the
// declarations, then main's statements).
func formsOf(src string) ([3][]string, error) {
	var forms [3][]string
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "prog.go", src, 0)
	if err != nil {
		return forms, err
	}
	var decls, mainDecl, body strings.Builder
	for _, d := range f.Decls {
		var b bytes.Buffer
		if err := format.Node(&b, fset, d); err != nil {
			return forms, err
		}
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "main" && fd.Recv == nil {
			mainDecl.Write(b.Bytes())
			for _, s := range fd.Body.List {
				var sb bytes.Buffer
				if err := format.Node(&sb, fset, s); err != nil {
					return forms, err
				}
				body.WriteString(sb.String() + "\n")
			}
			continue
		}
		decls.WriteString(b.String() + "\n\n")
	}
	forms[0] = []string{src}
	forms[1] = []string{decls.String(), mainDecl.String() + "\n"}
	forms[2] = []string{decls.String() + body.String()}
	return forms, nil
}
