package sandbox

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// What a cell writes and shows reaches the kernel in order, within its
// budgets (1 MiB of output, 16 MiB of displays), with a note of what was
// dropped; what it reads is bounded too.

// displayBudget is the worker's per-cell display budget (16 MiB): every
// byte a cell makes the kernel send as display messages is charged to it.
const displayBudget = 16 << 20

// TestDisplayIDsCountAgainstTheBudget: a display id travels in every
// display and update message (transient.display_id) but was not charged,
// so forty handles with 12 MB ids sent 480 MB to the kernel and on to every
// client of the session, past the 16 MiB display budget.
func TestDisplayIDsCountAgainstTheBudget(t *testing.T) {
	s := newTestSession(t, generous)
	shown, size := 0, 0
	h := &Handlers{Display: func(d Display) {
		shown++
		size += len(d.DisplayID)
		for k, v := range d.Data {
			s, _ := v.(string)
			size += len(k) + len(s)
		}
	}}
	r, err := s.Run(context.Background(), `id := strings.Repeat("i", 1<<20)
for i := 0; i < 40; i++ { display.NewHandle(id + fmt.Sprint(i)).Markdown("x") }`, h)
	if err != nil || !r.Success {
		t.Fatalf("%v %+v", err, r)
	}
	if size > displayBudget {
		t.Errorf("%d displays carried %d bytes, over the %d-byte display budget", shown, size, displayBudget)
	}
	if !r.Truncated || !strings.Contains(r.Stderr, "displays dropped") {
		t.Errorf("no note of dropped displays: truncated %v, stderr %q", r.Truncated, r.Stderr)
	}
}

// TestClearOutputIsBounded: every display.Clear became a clear_output
// message on the kernel's iopub socket, uncharged: a loop of a million
// clears made the kernel sign and publish a million messages in under
// three seconds (about 11 million in a 30 s cell), burning the kernel's CPU
// and every client's bandwidth instead of the cell's own budget.
func TestClearOutputIsBounded(t *testing.T) {
	s := newTestSession(t, generous)
	clears := 0
	r, err := s.Run(context.Background(), `for i := 0; i < 100000; i++ { display.Clear(i%2 == 0) }
fmt.Println("done")`, &Handlers{Clear: func(bool) { clears++ }})
	if err != nil || !r.Success || r.Stdout != "done\n" {
		t.Fatalf("%v %+v", err, r)
	}
	// Charged as a display without data (512 bytes): at most 32,768.
	if clears > displayBudget/512 {
		t.Errorf("%d clear_output messages passed the display budget (at most %d)", clears, displayBudget/512)
	}
	if !r.Truncated || !strings.Contains(r.Stderr, "dropped") {
		t.Errorf("no note of dropped clears: truncated %v, stderr %q", r.Truncated, r.Stderr)
	}
	// A progress display that clears a few thousand times still works.
	clears = 0
	r, err = s.Run(context.Background(), `for i := 0; i < 2000; i++ { display.Clear(true); fmt.Println(i) }`, &Handlers{Clear: func(bool) { clears++ }})
	if err != nil || !r.Success || clears != 2000 || r.Truncated {
		t.Fatalf("2,000 clears: %d passed, %v %+v", clears, err, r)
	}
}

// TestDisplayBudget: every byte of every display counts, and many tiny
// displays are bounded too; the note says how many were dropped.
func TestDisplayBudget(t *testing.T) {
	sess := newTestSession(t, generous)
	dropped := regexp.MustCompile(`\.\.\. \[([\d,]+) displays? dropped \(about ([^)]+)\): the cell's displays exceeded 16 MiB\]\n$`)
	tests := []struct {
		name, code string
		n          int
	}{
		// Issue 13's 120 × 10 MB Vega-Lite displays, scaled to 12: the
		// data of a spec is counted, not 64 bytes a display.
		{"vega-lite data", `vals := make([]map[string]any, 0, 1000)
for i := 0; i < 1000; i++ { vals = append(vals, map[string]any{"a": i, "b": strings.Repeat("x", 10000)}) }
spec := map[string]any{"mark": "point", "data": map[string]any{"values": vals}}
for i := 0; i < 12; i++ { display.VegaLite(spec) }`, 12},
		// Issue 13's million, scaled to 100,000: three times what the
		// budget lets through (at most 32,768), and a loaded machine's
		// time limit is not what ends it.
		{"100,000 tiny displays", `for i := 0; i < 100000; i++ { display.Markdown("x") }`, 100000},
		{"24 HTML displays of 1 MiB", `s := strings.Repeat("x", 1<<20)
for i := 0; i < 24; i++ { display.HTML(s) }`, 24},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			shown, size := 0, 0
			h := &Handlers{Display: func(d Display) {
				shown++
				for k, v := range d.Data {
					s, _ := v.(string)
					size += len(k) + len(s)
				}
			}}
			r, err := sess.Run(context.Background(), tc.code, h)
			if err != nil || !r.Success {
				t.Fatalf("%v %+v", err, r)
			}
			m := dropped.FindStringSubmatch(r.Stderr)
			if m == nil || !r.Truncated {
				t.Fatalf("no note of dropped displays: truncated %v, stderr %q", r.Truncated, r.Stderr)
			}
			n, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
			if shown+n != tc.n {
				t.Errorf("%d displays shown + %d dropped, want %d in all", shown, n, tc.n)
			}
			if shown == 0 || size > 16<<20 || shown > 16<<20/512 {
				t.Errorf("%d displays of %d bytes passed the 16 MiB budget", shown, size)
			}
		})
	}
}

// TestStreamOrderUnderBatching: output is batched, but stdout and stderr
// arrive interleaved exactly as written, displays after the output
// written before them, and the cap and its note are exact.
func TestStreamOrderUnderBatching(t *testing.T) {
	sess := newTestSession(t, nil)
	var got, want events
	h := &Handlers{
		Stream:  func(name, text string) { got.add(name, text) },
		Display: func(d Display) { got.add("display", d.Data["text/plain"].(string)) },
	}
	r, err := sess.Run(context.Background(), `for i := 0; i < 3000; i++ {
	fmt.Println("out", i)
	if i%7 == 0 { fmt.Fprintln(os.Stderr, "err", i) }
	if i%1000 == 999 { display.Markdown(fmt.Sprint("d", i)) }
}`, h)
	if err != nil || !r.Success {
		t.Fatalf("%v %+v", err, r)
	}
	for i := 0; i < 3000; i++ {
		want.add("stdout", fmt.Sprintln("out", i))
		if i%7 == 0 {
			want.add("stderr", fmt.Sprintln("err", i))
		}
		if i%1000 == 999 {
			want.add("display", fmt.Sprint("d", i))
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d runs of output, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("run %d is %.80q, want %.80q", i, got[i], want[i])
		}
	}
}

// TestOutputCap: stdout and stderr together stop at the cap, exactly,
// however the writes are batched, and one note says what was dropped: the
// write that crosses the cap and every later one are counted.
func TestOutputCap(t *testing.T) {
	for _, tc := range []struct {
		name           string
		cap            int
		code           string
		stdout, stderr string // what passes, before the note
		note           string
	}{
		// 1000 bytes pass: 333 × "abc" and one "a".
		{"interleaved small writes", 1000, `for i := 0; i < 1000; i++ { fmt.Print("ab"); fmt.Fprint(os.Stderr, "c") }`,
			strings.Repeat("ab", 333) + "a", strings.Repeat("c", 333),
			"... [output truncated at 1 KB; dropped 2,000 bytes from 1,334 writes]\n"},
		// 95,325 lines and one byte fit in 1 MiB (the default cap).
		{"2 MB of lines", 1 << 20, `for i := 0; i < 200000; i++ { fmt.Println("0123456789") }`,
			strings.Repeat("0123456789\n", 95325) + "0", "",
			"... [output truncated at 1 MiB; dropped 1,151,424 bytes from 104,675 writes]\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestSession(t, func(l *Limits) { generous(l); l.MaxOutputBytes = tc.cap })
			var streamed strings.Builder
			r, err := s.Run(context.Background(), tc.code, &Handlers{Stream: func(name, text string) { streamed.WriteString(text) }})
			if err != nil || !r.Success || !r.Truncated {
				t.Fatalf("%v %+v", err, r)
			}
			if r.Stdout != tc.stdout+tc.note || r.Stderr != tc.stderr || streamed.Len() != tc.cap+len(tc.note) {
				t.Errorf("stdout %d bytes ending %q, stderr %d bytes, streamed %d; want %d + the note %q, %d, %d",
					len(r.Stdout), r.Stdout[max(0, len(r.Stdout)-90):], len(r.Stderr), streamed.Len(), len(tc.stdout), tc.note, len(tc.stderr), tc.cap+len(tc.note))
			}
		})
	}
}

// events records output in order; consecutive text of one stream is
// joined, since batching may split or merge it anywhere.
type events []string

func (e *events) add(kind, text string) {
	if n := len(*e); n > 0 && kind != "display" && strings.HasPrefix((*e)[n-1], kind+":") {
		(*e)[n-1] += text
		return
	}
	*e = append(*e, kind+":"+text)
}

func TestHugeInputReplyRefused(t *testing.T) {
	sess := newTestSession(t, nil)
	h := &Handlers{Input: func(string, bool) (string, error) { return strings.Repeat("w", 20<<20), nil }}
	r, err := sess.Run(context.Background(), `var w string; fmt.Scanln(&w); len(w)`, h)
	if err != nil {
		t.Fatal(err)
	}
	if r.Success || r.ErrorName != "InputError" || !strings.Contains(r.ErrorMessage, "the input is 21.0 MB; the limit is 1 MiB") {
		t.Fatalf("%+v", r)
	}
}
