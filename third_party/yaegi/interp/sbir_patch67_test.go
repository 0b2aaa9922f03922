package interp_test

import (
	"bytes"
	"io"
	"log"
	"reflect"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// patch67Logger is a compiled type as a host may give scripts for
// log.Logger: it embeds *log.Logger (whose method set has unexported
// methods) and adds pointer-receiver methods, so that its pointer's
// method set is not its value's.
type patch67Logger struct{ *log.Logger }

func (l *patch67Logger) Fatal(v ...any) { l.Print(v...) }

// TestSbirPromotedMethodOfCompiledPointer checks sbir patch 67: a method
// promoted from an embedded pointer to a compiled type is the pointer's
// (t.Println called Prefix, "reflect: Call with too many input
// arguments"), and a struct whose only field embeds such a pointer
// compiles (reflect.StructOf panicked on its unexported methods).
func TestSbirPromotedMethodOfCompiledPointer(t *testing.T) {
	var out bytes.Buffer
	i := interp.New(interp.Options{Stdout: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	err := i.Use(interp.Exports{"lg/lg": {
		"Logger": reflect.ValueOf((*patch67Logger)(nil)),
		"New": reflect.ValueOf(func(w io.Writer, prefix string, flag int) *patch67Logger {
			return &patch67Logger{log.New(w, prefix, flag)}
		}),
	}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = i.Eval(`package main

import (
	"fmt"
	"strings"

	log "lg"
)

var out strings.Builder

type Task struct {
	Name string
	*log.Logger
}

func (t *Task) Printf(format string, args ...any) {
	t.Logger.Printf("[%s] %s", t.Name, fmt.Sprintf(format, args...))
}

type Solo struct{ *log.Logger }

func main() {
	t := &Task{"backup", log.New(&out, "task: ", 0)}
	t.Println("starting")
	t.Printf("copied %d files", 12)
	t.SetPrefix("task2: ")
	t.Print("finished")
	fmt.Fprintln(&out, t.Prefix(), t.Name, t.Flags())
	s := Solo{log.New(&out, "solo: ", 0)}
	s.Println("alone")
	s.Fatal("not fatal here")
	fmt.Print(out.String())
}
`)
	if err != nil {
		t.Fatalf("%v (output %q)", err, out.String())
	}
	want := "task: starting\ntask: [backup] copied 12 files\ntask2: finished\ntask2:  backup 0\nsolo: alone\nsolo: not fatal here\n"
	if got := out.String(); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
