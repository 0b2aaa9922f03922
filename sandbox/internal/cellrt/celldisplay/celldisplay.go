// Package celldisplay sends the display calls of a compiled cell's
// program to the supervisor: its init makes cellrt.Display the sink of
// package display. cellprep imports it, for its init alone, into every
// program that imports a package beyond the standard library (display
// itself, award_data, which displays, or a module, which may import
// display): the others link neither it nor display (with image/png and
// regexp), a tenth of a one-line program's link. Its init runs after
// cellrt's and display's (it imports both) and before any of the cell's
// code (package main is initialised last).
//
// Linked anywhere else than in a compiled cell's program it does nothing.
package celldisplay

import (
	"github.com/sbirtools/sbir-kernel/display"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/cellrt"
	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

func init() {
	if cellrt.Active() {
		display.SetSink(sink)
	}
}

// sink passes a display call on to the supervisor.
func sink(m display.Message) {
	if m.Clear {
		cellrt.Display(nil, m.Wait)
		return
	}
	cellrt.Display(&wire.Display{Data: m.Data, Metadata: m.Metadata, DisplayID: m.DisplayID, Update: m.Update}, false)
}
