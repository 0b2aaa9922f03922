package sandbox

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sbirtools/sbir-kernel/internal/testenv"
)

// A cell's value or error is shown safely: a String method that panics or
// never returns, a huge panic, a deep one, a type the cell cannot name,
// never kill or wedge the worker, and the error lands on the cell that
// caused it.

// stringerDecls declares a Stringer whose String panics and one whose
// String never returns, and session variables holding nil pointers whose
// String methods dereference them.
const stringerDecls = `type P struct{}
func (P) String() string { panic("boom") }
type L struct{}
func (L) String() string { for {} }
var r *regexp.Regexp
var b *strings.Builder
var tm *time.Time
var s fmt.Stringer = P{}
var l fmt.Stringer = L{}`

func TestValueFormattingKeepsWorker(t *testing.T) {
	// The cell's own time limit must not end the cell before the
	// formatting deadline does.
	sess := newTestSession(t, generous)
	run(t, sess, "kept := 41")
	if r := run(t, sess, stringerDecls); !r.Success {
		t.Fatalf("declarations: %s: %s", r.ErrorName, r.ErrorMessage)
	}
	tests := []struct {
		code, value      string // value: the text/plain of a successful cell
		errName, errText string // or the error the cell must fail with
	}{
		{code: "var r2 *regexp.Regexp\nr2", value: "<nil>"},
		{code: "var b2 *strings.Builder\nb2", value: "<nil>"},
		{code: "var tm2 *time.Time\ntm2", value: "<nil>"},
		{code: "r", value: "<nil>"},
		{code: "s", value: "%!v(PANIC=String method: boom)"},
		{code: "[]fmt.Stringer{s, s}", value: "[%!v(PANIC=String method: boom) %!v(PANIC=String method: boom)]"},
		{code: "l", errName: "Timeout", errText: "formatting the cell's value did not finish within 5s"},
		{code: "var l2 fmt.Stringer = L{}\nl2", errName: "Timeout", errText: "it was stopped and the session's variables are kept"},
	}
	for _, tc := range tests {
		r := run(t, sess, tc.code)
		if r.Restarted {
			t.Errorf("%q restarted the worker: %+v", tc.code, r)
		}
		if tc.errName == "" {
			if !r.Success || value(r) != tc.value {
				t.Errorf("%q: %v %s: %s, value %q; want %q", tc.code, r.Success, r.ErrorName, r.ErrorMessage, value(r), tc.value)
			}
		} else if r.Success || r.ErrorName != tc.errName || !strings.Contains(r.ErrorMessage, tc.errText) {
			t.Errorf("%q: %v %s: %s; want %s containing %q", tc.code, r.Success, r.ErrorName, r.ErrorMessage, tc.errName, tc.errText)
		}
		// The next, innocent cell sees its variables and no error.
		if r := run(t, sess, "kept"); !r.Success || value(r) != "41" {
			t.Fatalf("after %q: %+v", tc.code, r)
		}
	}
}

func TestInspectKeepsWorker(t *testing.T) {
	sess := newTestSession(t, nil)
	run(t, sess, "kept := 41")
	if r := run(t, sess, stringerDecls); !r.Success {
		t.Fatalf("declarations: %s: %s", r.ErrorName, r.ErrorMessage)
	}
	tests := []struct{ name, want string }{
		{"r", "r *regexp.Regexp\n\n<nil>"},
		{"b", "b *strings.Builder\n\n<nil>"},
		{"tm", "tm *time.Time\n\n<nil>"},
		{"s", "%!v(PANIC=String method: boom)"},
		{"l", "formatting l did not finish within 2s"},
	}
	for _, tc := range tests {
		in, err := sess.Inspect(context.Background(), tc.name, 1, 0)
		if err != nil {
			t.Fatalf("Inspect(%s): %v", tc.name, err)
		}
		text, _ := in.Data["text/plain"].(string)
		if !in.Found || !strings.Contains(text, tc.want) {
			t.Errorf("Inspect(%s) = %v %q, want %q", tc.name, in.Found, text, tc.want)
		}
		if r := run(t, sess, "kept"); !r.Success || value(r) != "41" {
			t.Fatalf("after inspecting %s the next cell got %+v", tc.name, r)
		}
	}
}

// slowString is a Stringer whose String runs compiled code (math/big)
// for far longer than the render deadline: yaegi cannot stop it, so the
// worker must be replaced, and the error must say so where it happened.
const slowString = `type H struct{}
func (H) String() string { return new(big.Int).Exp(big.NewInt(3), big.NewInt(200000000), nil).String() }
var h fmt.Stringer = H{}`

func TestStuckFormattingReplacesWorker(t *testing.T) {
	sess := newTestSession(t, generous)
	run(t, sess, slowString)
	r := run(t, sess, "h")
	if r.Success || r.ErrorName != "Timeout" || !r.Restarted || !strings.Contains(r.ErrorMessage, "was still being formatted") {
		t.Fatalf("stuck value: %+v", r)
	}
	if r := run(t, sess, "1 + 1"); !r.Success || value(r) != "2" {
		t.Fatalf("the cell after a stuck value: %+v", r)
	}

	run(t, sess, slowString)
	in, err := sess.Inspect(context.Background(), "h", 1, 0)
	text, _ := in.Data["text/plain"].(string)
	if err != nil || !strings.Contains(text, "every variable of this session is lost") {
		t.Fatalf("stuck inspection: %v %q", err, text)
	}
	if r := run(t, sess, "1 + 1"); !r.Success || value(r) != "2" || r.Restarted {
		t.Fatalf("the cell after a stuck inspection: %+v", r)
	}
}

func TestPanicTraceOnlyFromInterpreter(t *testing.T) {
	sess := newTestSession(t, nil)
	fake := "_.go:5:3: panic: main.f(...)\n"
	r := run(t, sess, "fmt.Fprint(os.Stderr, "+strconv.Quote(fake)+")\npanic(\"real\")")
	if r.Stderr != fake {
		t.Errorf("stderr %q, want the cell's line %q", r.Stderr, fake)
	}
	want := []string{"Panic: real", "  at line 2, column 1, in the cell"}
	if fmt.Sprint(r.Traceback) != fmt.Sprint(want) {
		t.Errorf("traceback %q, want %q", r.Traceback, want)
	}
}

func TestHugeErrorsAndValues(t *testing.T) {
	sess := newTestSession(t, generous) // 17 MiB panics take seconds on a loaded machine
	run(t, sess, "kept := 41")
	tests := []struct {
		code, errName, prefix string
	}{
		{`panic(strings.Repeat("x", 17<<20))`, "Panic", "xxxxxxxx"},
		{`panic(errors.New(strings.Repeat("y", 17<<20)))`, "Panic", "yyyyyyyy"},
	}
	for _, tc := range tests {
		r := run(t, sess, tc.code)
		if r.ErrorName != tc.errName || !strings.HasPrefix(r.ErrorMessage, tc.prefix) || !strings.HasSuffix(r.ErrorMessage, " … [17.8 MB in all]") {
			t.Errorf("%.40s: %s: %.40q … %q", tc.code, r.ErrorName, r.ErrorMessage, r.ErrorMessage[max(0, len(r.ErrorMessage)-40):])
		}
		if len(r.ErrorMessage) > 65<<10 {
			t.Errorf("%.40s: message of %d bytes", tc.code, len(r.ErrorMessage))
		}
	}
	r := run(t, sess, `strings.Repeat("z", 17<<20)`)
	if !r.Success || !strings.HasPrefix(value(r), `"zzz`) || len(value(r)) > 65<<10 {
		t.Errorf("17 MiB string value: %v %s %d bytes", r.Success, r.ErrorName, len(value(r)))
	}
	if r := run(t, sess, "kept"); value(r) != "41" {
		t.Fatalf("%+v", r)
	}
}

// TestPanicInDeepRecursion: a panic 12,000 calls deep (a recursive walk
// that fails at its bottom; the stack limit allows far more) took yaegi
// quadratic time to unwind: every interpreted frame recovers the panic and
// panics again, and each new panic makes the Go runtime walk the whole
// stack. At 16,000 calls it took 35 s in compiled code that no interrupt
// reaches, so the cell hit its time limit, the worker was killed and the
// session's variables were lost, for an ordinary panic.
//
// A speed property, so the margins are wide both ways: 20,000 calls unwind
// in 5.5 s at a load of 35 on 2 cores (linear: 2.2 s for 12,000, 11 s for
// 40,000), and took about 55 s on a quiet machine when quadratic; the limit
// is 20 s, scaled by SBIR_TEST_SLOW.
func TestPanicInDeepRecursion(t *testing.T) {
	s := newTestSession(t, func(l *Limits) { l.CellTimeout = testenv.Scale(20 * time.Second) })
	run(t, s, "kept := 7")
	r := run(t, s, "func f(n int) int { if n == 0 { panic(\"deep\") }; return f(n-1) + 1 }\nf(20000)")
	if r.Success || r.ErrorName != ClassPanic || !strings.Contains(r.ErrorMessage, "deep") || r.Restarted {
		t.Errorf("got %s: %s (restarted %v); want the cell's Panic: deep", r.ErrorName, r.ErrorMessage, r.Restarted)
	}
	if r := run(t, s, "kept"); value(r) != "7" {
		t.Errorf("the session's variables were lost: %s %s", r.ErrorName, r.ErrorMessage)
	}
}

// TestUndefinedPackageTypeInCell: a type from a package cells do not
// have, written where a type goes (runtime.MemStats, http.Client), is an
// undefined name at its line, and the session goes on; it was a nil
// dereference inside the interpreter's type checker (yaegi patch 22).
func TestUndefinedPackageTypeInCell(t *testing.T) {
	sess := newTestSession(t, nil)
	for _, tc := range []struct{ code, want string }{
		{"var ms runtime.MemStats", "line 1, column 8: undefined: runtime"},
		{"x := 1\nvar ms runtime.MemStats\nfmt.Println(x, ms)", "line 2, column 8: undefined: runtime"},
		{"func get(c *http.Client) {}", "undefined: http"},
		{"type Probe struct{ conn net.Conn }", "undefined: net"},
		{"var rows []sql.Row", "undefined: sql"},
	} {
		r := run(t, sess, tc.code)
		if r.Success || r.ErrorName != "CompileError" || !strings.Contains(r.ErrorMessage, tc.want) {
			t.Errorf("%q: %v %s: %s; want a CompileError with %q", tc.code, r.Success, r.ErrorName, r.ErrorMessage, tc.want)
		}
	}
	if r := run(t, sess, "1 + 1"); !r.Success || value(r) != "2" {
		t.Errorf("the session after them: %+v", r)
	}
}

// TestCellTypesShowThemselves: a type declared in a cell shows itself
// through its own MIMEBundle or String method, as display.Bundler's
// documentation promises, whether it is passed to display.Show or is the
// cell's value. Compiled code used to see only the underlying data (a
// Money(3) with a MIMEBundle method showed as "3"), and a cell type held
// as a display.Bundler dereferenced nil.
func TestCellTypesShowThemselves(t *testing.T) {
	sess := newTestSession(t, nil)
	if r := run(t, sess, `type Money int64
func (m Money) MIMEBundle() map[string]any {
	return map[string]any{"text/html": fmt.Sprintf("<b>$%d</b>", int64(m)), "text/plain": fmt.Sprintf("$%d", int64(m))}
}
type Point struct{ X, Y int }
func (p Point) String() string { return fmt.Sprintf("(%d, %d)", p.X, p.Y) }
type Badge struct{ n int }
func (Badge) MIMEBundle() map[string]any { return map[string]any{"text/html": "<i>badge</i>"} }`); !r.Success {
		t.Fatalf("declaring the types: %s: %s", r.ErrorName, r.ErrorMessage)
	}
	for _, tc := range []struct {
		code       string
		html, text string // the display's, or else the value's
	}{
		{"display.Show(Money(3))", "<b>$3</b>", "$3"},
		{"var b display.Bundler = Money(5)\ndisplay.Show(b)", "<b>$5</b>", "$5"},
		{"Money(4)", "<b>$4</b>", "$4"},
		{"m := Money(6)\nm", "<b>$6</b>", "$6"},
		{"Point{1, 2}", "", "(1, 2)"},
		{"p := Point{3, 4}\np", "", "(3, 4)"},
		{"display.Show(Point{5, 6})", "", "(5, 6)"},
		{"Badge{1}", "<i>badge</i>", "{1}"}, // no text/plain in the bundle: the value's fields, not the wrapper's
		{"display.Show(Badge{2})", "<i>badge</i>", "{2}"},
		{"[]int{1, 2}", "", "[1 2]"}, // values of other types show as before
	} {
		var shown []Display
		res, err := sess.Run(context.Background(), tc.code, &Handlers{Display: func(d Display) { shown = append(shown, d) }})
		if err != nil || !res.Success {
			t.Errorf("%q: %v %s: %s", tc.code, err, res.ErrorName, res.ErrorMessage)
			continue
		}
		bundle := res.Value
		if len(shown) > 0 {
			bundle = shown[len(shown)-1].Data
		}
		html, _ := bundle["text/html"].(string)
		text, _ := bundle["text/plain"].(string)
		if html != tc.html || text != tc.text {
			t.Errorf("%q shows html %q, text %q; want %q, %q", tc.code, html, text, tc.html, tc.text)
		}
	}
}

// TestValueOfDefinedTypesInInterfaces checks that a cell's value holding
// values of the cell's defined types without methods in interfaces shows
// them as themselves (yaegi patches 200 and 204): the interpreter keeps
// them with their types in an `any`, and the display reads the value by
// reflection, so it showed the interpreter's wrapper.
func TestValueOfDefinedTypesInInterfaces(t *testing.T) {
	sess := newTestSession(t, nil)
	if r := run(t, sess, "type code int\ntype label string\nvar x any = code(5)"); !r.Success {
		t.Fatalf("declarations: %s: %s", r.ErrorName, r.ErrorMessage)
	}
	cases := []struct{ code, value string }{
		{"x", "5"},
		{"[]any{x, label(\"l\"), 2}", "[5 l 2]"},
		{"map[string]any{\"a\": code(1)}", "map[a:1]"},
		{"struct{ V any }{code(3)}", "{3}"},
	}
	for _, tc := range cases {
		if r := run(t, sess, tc.code); !r.Success || value(r) != tc.value {
			t.Errorf("%q: %v %s: %s, value %q; want %q", tc.code, r.Success, r.ErrorName, r.ErrorMessage, value(r), tc.value)
		}
	}
	// Once the session has a type with a String method, values go
	// through the worker's catcher instead of the plain evaluation.
	if r := run(t, sess, "type celsius int\nfunc (c celsius) String() string { return \"C\" }"); !r.Success {
		t.Fatalf("celsius: %s: %s", r.ErrorName, r.ErrorMessage)
	}
	for _, tc := range append(cases, struct{ code, value string }{"celsius(1)", "C"}) {
		if r := run(t, sess, tc.code); !r.Success || value(r) != tc.value {
			t.Errorf("with a Stringer: %q: %v %s: %s, value %q; want %q", tc.code, r.Success, r.ErrorName, r.ErrorMessage, value(r), tc.value)
		}
	}
}
