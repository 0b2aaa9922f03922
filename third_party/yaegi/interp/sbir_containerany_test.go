package interp_test

import (
	"testing"
)

// containersSrc hands values of defined types to compiled containers
// and reads them back (sbir patch 203); containersWant is what go run
// printed for it.
const containersSrc = `package main

import (
	"container/heap"
	"container/list"
	"context"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
)

type celsius int

func (c celsius) String() string { return fmt.Sprintf("%d°C", int(c)) }

type code int

type label string

type anyHeap []any

func (h anyHeap) Len() int           { return len(h) }
func (h anyHeap) Less(i, j int) bool { return fmt.Sprint(h[i]) < fmt.Sprint(h[j]) }
func (h anyHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *anyHeap) Push(x any)        { *h = append(*h, x) }
func (h *anyHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

type ctxKey struct{ name string }

func asAny(x int) any { return code(x) }

func main() {
	var sm sync.Map
	sm.Store("c", celsius(1))
	sm.Store("k", code(2))
	sm.Store("l", label("x"))
	var held any = code(3)
	sm.Store("h", held)
	sm.Store("r", asAny(4))
	sm.Store(celsius(5), "celsius key")
	sm.Store(code(5), "code key")
	sm.Store(5, "int key")
	for _, k := range []any{"c", "k", "l", "h", "r", celsius(5), code(5), 5, label("x")} {
		v, ok := sm.Load(k)
		fmt.Printf("%v: %T %v %v\n", k, v, v, ok)
	}
	v, _ := sm.Load("k")
	_, isInt := v.(int)
	c, isCode := v.(code)
	fmt.Println(v == code(2), v == any(2), isInt, c, isCode)
	w, _ := sm.Load("c")
	s, isStringer := w.(fmt.Stringer)
	fmt.Println(s, isStringer, w == celsius(1), fmt.Sprint(w))
	prev, loaded := sm.LoadOrStore(code(5), "again")
	fmt.Println(prev, loaded)
	fmt.Println(sm.CompareAndSwap("k", code(2), code(20)), sm.CompareAndSwap("k", 20, 21))
	now, _ := sm.Load("k")
	fmt.Printf("%T %v\n", now, now)
	var keys []string
	sm.Range(func(k, v any) bool {
		keys = append(keys, fmt.Sprintf("%T=%v", k, k))
		return true
	})
	sort.Strings(keys)
	fmt.Println(keys)

	var av atomic.Value
	av.Store(code(7))
	fmt.Printf("%T %v %v\n", av.Load(), av.Load(), av.CompareAndSwap(code(7), code(8)))
	fmt.Printf("%T %v\n", av.Load(), av.Load())

	l := list.New()
	l.PushBack(celsius(9))
	l.PushFront(code(10))
	l.InsertAfter(label("y"), l.Front())
	for e := l.Front(); e != nil; e = e.Next() {
		fmt.Printf("%T=%v ", e.Value, e.Value)
	}
	fmt.Println()

	h := &anyHeap{}
	heap.Push(h, code(12))
	heap.Push(h, celsius(11))
	x := heap.Pop(h)
	fmt.Printf("%T %v\n", x, x)

	ctx := context.WithValue(context.Background(), ctxKey{"n"}, code(13))
	cv := ctx.Value(ctxKey{"n"})
	fmt.Printf("%T %v %v\n", cv, cv, cv == code(13))

	var pool sync.Pool
	pool.Put(label("pooled"))
	p := pool.Get()
	fmt.Printf("%T %v\n", p, p)
}
`

const containersWant = `c: main.celsius 1°C true
k: main.code 2 true
l: main.label x true
h: main.code 3 true
r: main.code 4 true
5°C: string celsius key true
5: string code key true
5: string int key true
x: <nil> <nil> false
true false false 2 true
1°C true true 1°C
code key true
true false
main.code 20
[int=5 main.celsius=5°C main.code=5 string=c string=h string=k string=l string=r]
main.code 7 true
main.code 8
main.code=10 main.label=y main.celsius=9°C 
main.celsius 11°C
main.code 13 true
main.label pooled
`

// TestSbirCompiledContainersKeepDefinedTypes checks sbir patch 203:
// values of defined types (with and without methods) given to sync.Map,
// atomic.Value, container/list, container/heap, context.WithValue and
// sync.Pool come back with their types, for %T, String, ==, assertions
// and as sync.Map keys (celsius(5), code(5) and 5 are three keys; Range
// hands the keys back typed). The output is go run's.
func TestSbirCompiledContainersKeepDefinedTypes(t *testing.T) {
	if got := runProgram(t, containersSrc); got != containersWant {
		t.Errorf("output:\n%s\nwant (go run):\n%s", got, containersWant)
	}
}
