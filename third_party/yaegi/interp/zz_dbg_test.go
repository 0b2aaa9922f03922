package interp_test

import (
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

func TestZZDbg(t *testing.T) {
	i := interp.New(interp.Options{})
	i.Use(stdlib.Symbols)
	for _, src := range []string{`import "fmt"`, `import "strconv"`, "func f() (int, bool) { return 1, true }",
		"if v, ok := f(); ok {\n\tfmt.Println(\"in\", v)\n}\n_, ok := f()\nfmt.Println(ok)",
		"if w, ok2 := f(); ok2 {\n\tfmt.Println(\"in2\", w)\n}\nfmt.Println(\"x\")\nok2 := false\n_ = ok2",
	} {
		_, err := i.Eval(src)
		t.Log(err)
	}
}
