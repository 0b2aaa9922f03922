package worker_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/testenv"
	"github.com/sbirtools/sbir-kernel/sandbox"
)

// TestMain lets the test binary double as the sandbox worker.
func TestMain(m *testing.M) {
	if sandbox.IsWorker() {
		os.Exit(sandbox.WorkerMain())
	}
	os.Exit(m.Run())
}

// stdlibPrograms use the packages and generic functions the symbol table
// adds (issue 11). Each runs in a session and with `go run`; the outputs
// must match. Outputs are deterministic (sorted keys, fixed values).
var stdlibPrograms = []struct{ name, src string }{
	{"loop-variables-per-iteration", `package main

import (
	"fmt"
	"sort"
	"sync"
)

func main() {
	var fs []func() int
	for i := 0; i < 3; i++ {
		fs = append(fs, func() int { return i })
	}
	for i := range 3 {
		fs = append(fs, func() int { return i * 10 })
	}
	for _, s := range []int{7, 8} {
		defer func() { fmt.Println("deferred", s) }()
	}
	for _, f := range fs {
		fmt.Print(f(), " ")
	}
	fmt.Println()
	var mu sync.Mutex
	var wg sync.WaitGroup
	var got []int
	for i := 1; i <= 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			got = append(got, i)
			mu.Unlock()
		}()
	}
	wg.Wait()
	sort.Ints(got)
	fmt.Println(got)
	x := 1
	{
		x := 2
		_ = x
	}
	fmt.Println(x)
}
`},
	{"maps-slices-iter", `package main

import (
	"fmt"
	"maps"
	"slices"
)

func main() {
	m := map[string]int{"b": 2, "a": 1, "c": 3}
	keys := slices.Sorted(maps.Keys(m))
	vals := slices.Sorted(maps.Values(m))
	fmt.Println(keys, vals, slices.Index(keys, "b"), slices.Contains(vals, 3))
	all := slices.Collect(maps.Keys(map[int]bool{7: true}))
	fmt.Println(all, len(slices.Collect(slices.Values(keys))))
	slices.SortFunc(keys, func(a, b string) int { return -compare(a, b) })
	fmt.Println(keys, slices.Max(vals), slices.Min(vals))
	n := 0
	maps.All(m)(func(k string, v int) bool { n += v; return true })
	fmt.Println(n, maps.Collect(maps.All(map[string]int{"x": 1})))
}

func compare(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
`},
	{"iter-pull", `package main

import (
	"fmt"
	"iter"
	"maps"
	"slices"
)

func main() {
	next, stop := iter.Pull(slices.Values([]string{"a", "b", "c"}))
	defer stop()
	for {
		v, ok := next()
		if !ok {
			break
		}
		fmt.Println("got", v)
	}
	n2, stop2 := iter.Pull2(slices.All([]int{10, 20}))
	i, v, ok := n2()
	fmt.Println(i, v, ok)
	stop2()
	i, v, ok = n2()
	fmt.Println(i, v, ok)
	fmt.Println(slices.Sorted(slices.Values([]int{3, 1, 2})), len(maps.Collect(slices.All([]string{"x", "y"}))))
}
`},
	{"slices-maps-bundled", `package main

import (
	"fmt"
	"maps"
	"slices"
)

func main() {
	m := map[string]int{"a": 1}
	c := maps.Clone(m)
	c["b"] = 2
	s := slices.Delete([]int{1, 2, 3, 4}, 1, 3)
	u := slices.Compact([]int{1, 1, 2, 2, 3})
	fmt.Println(len(m), len(c), s, u, slices.Insert([]int{1, 4}, 1, 2, 3))
}
`},
	{"errors-as-interpreted", `package main

import (
	"errors"
	"fmt"
	"strconv"
)

type ParseError struct {
	Line int
	Err  error
}

func (e *ParseError) Error() string { return "line " + strconv.Itoa(e.Line) + ": " + e.Err.Error() }

func (e *ParseError) Unwrap() error { return e.Err }

func parse(s string) error {
	if _, err := strconv.Atoi(s); err != nil {
		return &ParseError{Line: 2, Err: err}
	}
	return nil
}

func main() {
	err := parse("two")
	fmt.Println(err)
	var pe *ParseError
	if errors.As(err, &pe) {
		fmt.Println("at line", pe.Line)
	}
	wrapped := fmt.Errorf("reading: %w", err)
	var pe2 *ParseError
	fmt.Println(errors.As(wrapped, &pe2), pe2 != nil && pe2.Line == 2)
	var ne *strconv.NumError
	fmt.Println(errors.As(fmt.Errorf("x: %w", pe.Err), &ne), ne.Func)
}
`},
	{"printing", `package main

import "fmt"

type point struct{ x, y int }

type Celsius float64

type line struct {
	a, b  point
	label string
	next  *point
	tags  []string
	m     map[string]point
}

func main() {
	p := point{1, 2}
	fmt.Printf("%v %+v %#v %T\n", p, p, p, p)
	fmt.Printf("%v %+v %T\n", &p, &p, &p)
	c := Celsius(21.5)
	fmt.Printf("%v %T %.1f\n", c, c, c)
	ps := []point{{1, 2}, {3, 4}}
	fmt.Printf("%v %+v %T\n", ps, ps, ps)
	l := line{a: p, b: point{5, 6}, label: "l", tags: []string{"t"}, m: map[string]point{"k": {7, 8}}}
	fmt.Printf("%+v\n", l)
	fmt.Printf("%#v\n", l.m)
	fmt.Println(p, ps, c)
	s := fmt.Sprintf("%[1]T %[1]v %d", p, 3)
	fmt.Println(s, fmt.Sprint(p), fmt.Sprintln(&p))
	fmt.Printf("%8T|%-12v|\n", c, p)
	var np *point
	fmt.Printf("%v %+v\n", np, np)
	fmt.Println(fmt.Errorf("bad %v", p))
	var e fmt.Stringer
	fmt.Printf("%v %d\n", e, p)
}
`},
	{"cmp-generics", `package main

import (
	"cmp"
	"fmt"
	"slices"
)

type person struct {
	name string
	age  int
}

func main() {
	people := []person{{"Alice", 30}, {"Bob", 25}, {"Carol", 35}}
	slices.SortFunc(people, func(a, b person) int { return cmp.Compare(a.age, b.age) })
	for _, p := range people {
		fmt.Println(p.name, p.age)
	}
	fmt.Println(cmp.Compare(1, 2), cmp.Less("b", "a"), cmp.Or(0, 3, 4))
	i, found := slices.BinarySearch([]int{1, 3, 5}, 3)
	fmt.Println(i, found, len(slices.Repeat([]int{1}, 3)))
}
`},
	{"sync-atomic", `package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

func main() {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var hits atomic.Int64
	total := 0
	for i := 1; i <= 10; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			total++
			mu.Unlock()
			hits.Add(1)
		}()
	}
	wg.Wait()
	once := sync.OnceValue(func() int { fmt.Println("computed"); return 42 })
	fmt.Println(total, hits.Load(), once(), once())
	var v atomic.Value
	v.Store("hello")
	fmt.Println(v.Load())
}
`},
	{"errors-astype", `package main

import (
	"errors"
	"fmt"
)

type NotFound struct{ key string }

func (e *NotFound) Error() string { return "not found: " + e.key }

func find(k string) error { return fmt.Errorf("lookup: %w", &NotFound{k}) }

func main() {
	err := find("x")
	fmt.Println(errors.Is(err, errors.ErrUnsupported), errors.Unwrap(err), err)
}
`},
	{"context-timeout", `package main

import (
	"context"
	"errors"
	"fmt"
	"time"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	select {
	case <-ctx.Done():
		fmt.Println(ctx.Err(), errors.Is(ctx.Err(), context.DeadlineExceeded))
	case <-time.After(time.Minute):
		fmt.Println("too late")
	}
}
`},
	{"log-and-println", `package main

import (
	"fmt"
	"log"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("app: ")
	log.Println("starting")
	println("debug", 1, 2.5, true)
	print("a", 1, "\n")
	fmt.Println("done")
}
`},
	{"log-fatal", `package main

import (
	"fmt"
	"log"
)

func main() {
	fmt.Println("before")
	log.SetFlags(0)
	log.Fatalf("cannot continue: %d", 3)
	fmt.Println("after")
}
`},
	{"text-template-xml-path", `package main

import (
	"encoding/xml"
	"fmt"
	"os"
	"path"
	"text/template"
	"unicode/utf16"
	"container/list"
)

type Item struct {
	XMLName xml.Name ` + "`xml:\"item\"`" + `
	Name    string   ` + "`xml:\"name\"`" + `
	Qty     int      ` + "`xml:\"qty,attr\"`" + `
}

func main() {
	t := template.Must(template.New("t").Parse("{{range .}}{{.Name}}={{.Qty}} {{end}}\n"))
	t.Execute(os.Stdout, []Item{{Name: "a", Qty: 1}, {Name: "b", Qty: 2}})
	b, _ := xml.Marshal(Item{Name: "x", Qty: 3})
	fmt.Println(string(b))
	fmt.Println(path.Join("a", "b/../c"), path.Ext("x.go"), utf16.Encode([]rune("hé")))
	l := list.New()
	l.PushBack(1)
	l.PushFront(0)
	for e := l.Front(); e != nil; e = e.Next() {
		fmt.Print(e.Value, " ")
	}
	fmt.Println()
}
`},
}

// TestStdlibAgainstGoRun runs each program in a sandbox session and with
// `go run`, and compares stdout, stderr and whether it failed.
func TestStdlibAgainstGoRun(t *testing.T) { compareWithGoRun(t, stdlibPrograms) }

// compareWithGoRun runs each program as one cell of a fresh sandbox
// session and with `go run`, and compares stdout, stderr and whether it
// failed.
func compareWithGoRun(t *testing.T, programs []struct{ name, src string }) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a sandbox session and go run per program")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH: the expected outputs come from go run")
	}
	for _, p := range programs {
		t.Run(p.name, func(t *testing.T) {
			wantOut, wantErr, wantFail := goRun(t, goBin, p.src)
			ctx, s := startSession(t, 30*time.Second, 10*time.Second)
			res, err := s.Run(ctx, p.src, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Stdout != wantOut {
				t.Errorf("stdout:\n%s\nwant (go run):\n%s", res.Stdout, wantOut)
			}
			if res.Stderr != wantErr {
				t.Errorf("stderr:\n%q\nwant (go run):\n%q", res.Stderr, wantErr)
			}
			if res.Success == wantFail {
				t.Errorf("success = %v, go run failed = %v (%s: %s)", res.Success, wantFail, res.ErrorName, res.ErrorMessage)
			}
		})
	}
}

// startSession starts a sandbox session closed when the test ends, with
// a context that ends after deadline; cellTimeout 0 keeps the default
// cell limit. Both are scaled by SBIR_TEST_SLOW.
func startSession(t *testing.T, deadline, cellTimeout time.Duration) (context.Context, *sandbox.Session) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Scale(deadline))
	t.Cleanup(cancel)
	l := sandbox.DefaultLimits()
	if cellTimeout > 0 {
		l.CellTimeout = testenv.Scale(cellTimeout)
	}
	s, err := sandbox.NewSession(ctx, sandbox.Options{Limits: l})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return ctx, s
}

// goRun runs src with `go run` in a temporary module and returns its
// stdout, its stderr (without go's "exit status N" line) and whether it
// failed.
func goRun(t *testing.T, goBin, src string) (stdout, stderr string, failed bool) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module prog\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goBin, "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOPROXY=off", "GOFLAGS=-mod=mod")
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	e := errb.String()
	if err != nil {
		i := strings.LastIndex(strings.TrimSuffix(e, "\n"), "\n")
		last := e[i+1:]
		if !strings.HasPrefix(last, "exit status ") {
			t.Fatalf("go run: %v\n%s", err, e)
		}
		e = e[:i+1]
	}
	return out.String(), e, err != nil
}

var _ = fmt.Sprint

// TestDidYouMean checks the suggestion for a missing package member
// through a real session, as a user sees it.
func TestDidYouMean(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a sandbox session")
	}
	ctx, s := startSession(t, 30*time.Second, 0)
	for code, want := range map[string]string{
		`strings.toUpper("x")`:        "package strings has no symbol toUpper; did you mean ToUpper?",
		`x := slices.Sortd([]int{1})`: "package slices has no symbol Sortd; did you mean Sort or Sorted?",
	} {
		res, err := s.Run(ctx, code, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Success || !strings.Contains(res.ErrorMessage, want) {
			t.Errorf("%s: success=%v %s: %s; want the message to contain %q", code, res.Success, res.ErrorName, res.ErrorMessage, want)
		}
	}
}
