package display_test

import (
	"fmt"

	"github.com/sbirtools/sbir-kernel/display"
)

// The kernel's worker installs the sink; here it prints what arrives.
func ExampleSetSink() {
	display.SetSink(func(m display.Message) {
		fmt.Printf("id=%q update=%v plain=%q\n", m.DisplayID, m.Update, m.Data["text/plain"])
	})
	defer display.SetSink(nil)

	display.Markdown("# Awards")
	h := display.NewHandle("progress")
	h.Markdown("1 of 2")
	h.Markdown("2 of 2")
	// Output:
	// id="" update=false plain="# Awards"
	// id="progress" update=false plain="1 of 2"
	// id="progress" update=true plain="2 of 2"
}

func ExampleHTML() {
	display.SetSink(func(m display.Message) { fmt.Println(m.Data["text/plain"]) })
	defer display.SetSink(nil)
	display.HTML("<b>219,500</b> awards")
	// Output: 219,500 awards
}

func ExampleJSON() {
	display.SetSink(func(m display.Message) { fmt.Println(m.Data["text/plain"]) })
	defer display.SetSink(nil)
	display.JSON(map[string]int{"Phase I": 3, "Phase II": 1})
	// Output:
	// {
	//   "Phase I": 3,
	//   "Phase II": 1
	// }
}

func ExampleClear() {
	display.SetSink(func(m display.Message) { fmt.Println(m.Clear, m.Wait) })
	defer display.SetSink(nil)
	display.Clear(true)
	// Output: true true
}
