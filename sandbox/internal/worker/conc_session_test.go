package worker_test

import (
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/sandbox"
)

// concPrograms use goroutines, channels and package sync; each runs in a
// session and with `go run`, and the outputs must match. Outputs do not
// depend on scheduling.
var concPrograms = []struct{ name, src string }{
	// sync.NewCond and sync.OnceFunc are compiled members of a package
	// the worker provides as source: their results were nil until the
	// source package was executed as well as compiled.
	{"cond-broadcast", `package main

import (
	"fmt"
	"sync"
)

func main() {
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	ready, woke := false, 0
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			for !ready {
				cond.Wait()
			}
			woke++
			mu.Unlock()
		}()
	}
	mu.Lock()
	ready = true
	cond.Broadcast()
	mu.Unlock()
	wg.Wait()
	fmt.Println("woke", woke)
}
`},
	{"once-func", `package main

import (
	"fmt"
	"sync"
)

func main() {
	hello := sync.OnceFunc(func() { fmt.Println("hello once") })
	hello()
	hello()
	v := sync.OnceValue(func() int { return 42 })
	fmt.Println(v(), v())
}
`},
	// yaegi patch 10b: for _, c := range over a slice of channels.
	{"fan-in", `package main

import (
	"fmt"
	"sync"
)

func producer(from, to int) <-chan int {
	ch := make(chan int)
	go func() {
		defer close(ch)
		for i := from; i <= to; i++ {
			ch <- i
		}
	}()
	return ch
}

func merge(cs ...<-chan int) <-chan int {
	var wg sync.WaitGroup
	out := make(chan int)
	for _, c := range cs {
		wg.Add(1)
		go func(c <-chan int) {
			defer wg.Done()
			for v := range c {
				out <- v
			}
		}(c)
	}
	go func() {
		wg.Wait()
		close(out)
	}()
	return out
}

func main() {
	sum, count := 0, 0
	for v := range merge(producer(1, 10), producer(11, 20), producer(21, 30)) {
		sum += v
		count++
	}
	fmt.Println(count, sum)
}
`},
	// yaegi patch 10a: each goroutine sees its own copy of the loop
	// variable (copied explicitly, so this does not depend on Go 1.22
	// loop variables), through a go statement and through WaitGroup.Go.
	{"goroutine-captures-copy", `package main

import (
	"fmt"
	"sync"
)

func main() {
	var wg sync.WaitGroup
	var mu sync.Mutex
	seen := make([]bool, 10)
	for i := 0; i < 5; i++ {
		i := i
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			seen[i] = true
			mu.Unlock()
		}()
	}
	for i := 5; i < 10; i++ {
		j := i
		wg.Go(func() {
			mu.Lock()
			seen[j] = true
			mu.Unlock()
		})
	}
	wg.Wait()
	fmt.Println(seen)
}
`},
	// A go statement calling a method with a value of an interpreted
	// type for an interface parameter, and a generic function: the call
	// stays interpreted code (cellprep's closure over copies).
	{"go-method-interface-generic", `package main

import (
	"fmt"
	"sort"
	"sync"
)

type Namer interface{ Name(i int) string }

type prefix string

func (p prefix) Name(i int) string { return fmt.Sprint(string(p), i) }

type collector struct {
	mu  sync.Mutex
	wg  sync.WaitGroup
	out []string
}

func (c *collector) Add(n Namer, i int) {
	defer c.wg.Done()
	c.mu.Lock()
	c.out = append(c.out, n.Name(i))
	c.mu.Unlock()
}

func send[T any](v T, ch chan<- T) { ch <- v }

func main() {
	c := &collector{}
	var p prefix = "job"
	for i := 0; i < 3; i++ {
		c.wg.Add(1)
		go c.Add(p, i)
	}
	c.wg.Wait()
	sort.Strings(c.out)
	fmt.Println(c.out)
	ch := make(chan string, 1)
	s := "generic"
	go send(s, ch)
	fmt.Println(<-ch)
}
`},
}

// TestConcurrencyAgainstGoRun runs each of concPrograms in a sandbox
// session and with `go run`, and compares stdout, stderr and failure.
func TestConcurrencyAgainstGoRun(t *testing.T) { compareWithGoRun(t, concPrograms) }

// TestRuntimeErrorMessages checks that a cell's index and nil dereference
// mistakes fail with gc's runtime errors (yaegi patch 10c), through a
// real worker.
func TestRuntimeErrorMessages(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a sandbox session")
	}
	ctx, s := startSession(t, 60*time.Second, 0)
	const nilDeref = "runtime error: invalid memory address or nil pointer dereference"
	for _, c := range []struct{ code, want string }{
		{"xs := []int{1, 2, 3}\ni := 5\nfmt.Println(xs[i])", "runtime error: index out of range [5] with length 3"},
		{"s := \"ab\"\ni := 2\nfmt.Println(s[i])", "runtime error: index out of range [2] with length 2"},
		{"type node struct{ next *node; val int }\nn := &node{}\nfmt.Println(n.next.val)", nilDeref},
		{"var p *int\nfmt.Println(*p)", nilDeref},
		{"type I interface{ M() }\nvar v I\nv.M()", nilDeref},
	} {
		res, err := s.Run(ctx, c.code, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Success || res.ErrorName != sandbox.ClassRuntimeError || res.ErrorMessage != c.want {
			t.Errorf("%s:\ngot success=%v %s: %s\nwant %s: %s", c.code, res.Success, res.ErrorName, res.ErrorMessage, sandbox.ClassRuntimeError, c.want)
		}
	}
}
