package gotrace

import (
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"
)

// The functions below carry the line directives a compiled cell's
// program has, so that the runtime reports them as it reports a cell's.
// (gofmt puts each directive on a line of its own, so the function starts
// on the line after the one it names.)

/*line cell:2:1*/
func fib(n int) []byte {
	if n == 0 {
		return debug.Stack()
	}
	return fib(n - 1)
}

/*line earlier-twice:9:1*/
func twice(f func() []byte) []byte { return f() }

//go:noinline
/*line cell:19:1*/
func cellBody() []byte {
	return twice(func() []byte { return fib(1) })
}

/*line generated:1:1*/

// TestFramesFromTheRuntime reads a stack the runtime itself printed.
func TestFramesFromTheRuntime(t *testing.T) {
	frames := Frames(string(cellBody()))
	var got []string
	for _, f := range frames {
		got = append(got, f.String())
	}
	want := []string{
		"  at line 5, in fib",
		"  at line 7, in fib",
		"  at line 21, in a function literal in cellBody",
		"  at line 10 of an earlier cell, in twice",
		"  at line 21, in cellBody",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("frames:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// crashEnv makes the test binary crash as a compiled cell would.
const crashEnv = "GOTRACE_TEST_CRASH"

func TestMain(m *testing.M) {
	switch os.Getenv(crashEnv) {
	case "panic":
		println("printed first")
		done := make(chan bool)
		go func() { crashInGoroutine(); done <- true }()
		<-done
	case "deadlock":
		deadlock()
	}
	os.Exit(m.Run())
}

/*line cell:29:1*/
func crashInGoroutine() {
	var m map[string]int
	m["x"]++
}

/*line cell:39:1*/
func deadlock() {
	ch := make(chan int)
	<-ch
}

/*line generated:2:1*/

// TestParseCrashFromTheRuntime reads the reports the runtime prints when
// a program dies.
func TestParseCrashFromTheRuntime(t *testing.T) {
	for _, tc := range []struct {
		mode   string
		crash  Crash
		frames []string
	}{
		{"panic", Crash{Message: "assignment to entry in nil map", Before: "printed first\n", Goroutine: -1}, []string{"  at line 32, in crashInGoroutine"}},
		{"deadlock", Crash{Fatal: true, Message: "all goroutines are asleep - deadlock!", Goroutine: 1}, []string{"  at line 42, in deadlock"}},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashEnv+"="+tc.mode, "GOTRACEBACK=single")
		out, _ := cmd.CombinedOutput()
		c, ok := ParseCrash(string(out))
		mainGoroutine := c.Goroutine == 1
		if !ok || c.Fatal != tc.crash.Fatal || c.Message != tc.crash.Message || c.Before != tc.crash.Before || mainGoroutine != (tc.crash.Goroutine == 1) {
			t.Errorf("%s: ParseCrash = %+v, %v; want %+v\n%s", tc.mode, c, ok, tc.crash, out)
			continue
		}
		var got []string
		for _, f := range c.Frames {
			got = append(got, f.String())
		}
		if strings.Join(got, "|") != strings.Join(tc.frames, "|") {
			t.Errorf("%s: frames %q; want %q", tc.mode, got, tc.frames)
		}
	}
}

func TestParseCrashNone(t *testing.T) {
	if c, ok := ParseCrash("just some output\nof a program\n"); ok {
		t.Errorf("ParseCrash of plain output = %+v", c)
	}
}
