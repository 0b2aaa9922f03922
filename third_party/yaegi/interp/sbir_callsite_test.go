package interp_test

import "testing"

// TestSbirCallSiteReadsCalleeUnlocked checks sbir patch S13 (a call site
// reads its callee without its frame's lock) where other goroutines are
// at work: function literals evaluated into a slot of main's frame while
// workers, in frames of their own, call the closures made before; a
// captured func variable called by eight goroutines and rebound, under
// the program's mutex; deferred and recursive closures. The output is go
// run's. Run it with -race as well: the race detector sees the
// interpreter's own reads and writes of frame slots.
func TestSbirCallSiteReadsCalleeUnlocked(t *testing.T) {
	runSpeedCases(t, []struct{ name, src, want string }{
		{"goroutines", `package main

import (
	"fmt"
	"sync"
)

func worker(id int, jobs <-chan func(int) int, out chan<- int, wg *sync.WaitGroup) {
	defer wg.Done()
	for f := range jobs {
		out <- f(id)
	}
}

func main() {
	// Literals evaluated into a slot of main's frame while goroutines,
	// in frames of their own, call the closures made before.
	jobs := make(chan func(int) int)
	out := make(chan int, 400)
	var wg sync.WaitGroup
	for w := 1; w <= 4; w++ {
		wg.Add(1)
		go worker(w, jobs, out, &wg)
	}
	for k := 0; k < 100; k++ {
		k := k // explicit: a closure over the loop variable itself is another case
		f := func(x int) int { return x*0 + k*k }
		jobs <- f
	}
	close(jobs)
	wg.Wait()
	close(out)
	sum := 0
	for v := range out {
		sum += v
	}
	fmt.Println("sum", sum)

	// A captured func variable rebound under a mutex while goroutines
	// call it under the same mutex.
	var mu sync.Mutex
	op := func(a int) int { return a + 1 }
	var wg2 sync.WaitGroup
	total := 0
	for g := 0; g < 8; g++ {
		wg2.Add(1)
		go func(g int) {
			defer wg2.Done()
			for i := 0; i < 50; i++ {
				mu.Lock()
				total += op(i) - i
				mu.Unlock()
			}
		}(g)
	}
	wg2.Wait()
	mu.Lock()
	op = func(a int) int { return a * 2 }
	mu.Unlock()
	fmt.Println("total", total, "op(21)", op(21))

	// Deferred closures and a recursive closure through a variable.
	var fact func(int) int
	fact = func(n int) int {
		if n <= 1 {
			return 1
		}
		return n * fact(n-1)
	}
	func() {
		defer func() { fmt.Println("deferred", fact(10)) }()
		fmt.Println("fact", fact(5))
	}()
}
`, "sum 328350\ntotal 400 op(21) 42\nfact 120\ndeferred 3628800"},
	})
}
