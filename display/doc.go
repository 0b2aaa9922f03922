// Package display shows rich output from a notebook cell: HTML, Markdown,
// JSON, Vega-Lite charts, PNG and SVG images, and any value that has a
// MIMEBundle method (award_data frames and charts). Cells see it as
// display, imported automatically.
//
//	display.Markdown("## Awards by agency")
//	display.Show(award_data.ValueCounts("Agency"))
//
// A Handle names an output so that a later call replaces it in place
// (Jupyter's update_display_data), which is how a cell shows progress:
//
//	h := display.NewHandle("")
//	for i := 1; i <= 3; i++ {
//		h.Markdown(fmt.Sprintf("step %d of 3", i))
//	}
//
// Outputs travel as Messages to a sink that the kernel's worker installs
// with SetSink; cells cannot call SetSink. Functions that are given
// content they cannot show (invalid JSON, bytes that are not a PNG) panic
// with an error, which stops the cell with that message.
package display
