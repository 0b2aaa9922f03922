package outcap

import (
	"strings"
	"testing"
)

func TestBudgetText(t *testing.T) {
	b := &Budget{Limit: 10}
	if got := string(b.Text("stdout", []byte("hello "))); got != "hello " {
		t.Errorf("first write: %q", got)
	}
	if got := string(b.Text("stdout", []byte("wörld!"))); got != "wör" {
		t.Errorf("the write at the cap: %q; want %q", got, "wör")
	}
	if got := b.Text("stderr", []byte("more")); len(got) != 0 {
		t.Errorf("a write after the cap: %q", got)
	}
	notes, truncated := b.Notes()
	if !truncated || len(notes) != 1 || notes[0].Stream != "stdout" || notes[0].Text != "... [output truncated at 10 bytes; dropped 7 bytes from 2 writes]\n" {
		t.Errorf("notes %q, truncated %v", notes, truncated)
	}
}

func TestBudgetDisplays(t *testing.T) {
	b := &Budget{Limit: 1}
	if !b.Display(MaxDisplayBytes - 100) {
		t.Fatal("a display within the budget was refused")
	}
	if b.Display(200) || b.Display(1) {
		t.Error("displays past the budget were kept")
	}
	notes, truncated := b.Notes()
	if !truncated || len(notes) != 1 || !strings.HasPrefix(notes[0].Text, "... [2 displays dropped") {
		t.Errorf("notes %q", notes)
	}
}

// TestBudgetNeverSplitsACharacter: the cut falls before a character that
// does not fit whole.
func TestBudgetNeverSplitsACharacter(t *testing.T) {
	b := &Budget{Limit: 2}
	if got := string(b.Text("stdout", []byte("wö"))); got != "w" {
		t.Errorf("cut %q; want %q", got, "w")
	}
}
