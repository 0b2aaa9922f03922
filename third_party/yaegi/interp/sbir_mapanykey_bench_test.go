package interp_test

import (
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// BenchmarkSbirMapAnyKeys measures map[any] access with int keys and
// with keys of a defined type (sbir patch 202 makes the latter
// canonical): one op is 1000 increments and 1000 reads.
func BenchmarkSbirMapAnyKeys(b *testing.B) {
	for _, c := range []struct{ name, key string }{{"int", "i % 100"}, {"defined", "code(i % 100)"}, {"string", "s[i%4]"}} {
		b.Run(c.name, func(b *testing.B) {
			i := interp.New(interp.Options{})
			if err := i.Use(stdlib.Symbols); err != nil {
				b.Fatal(err)
			}
			if _, err := i.Eval(`type code int
var s = []string{"a", "b", "c", "d"}
func run() int {
	m := map[any]int{}
	for i := 0; i < 1000; i++ {
		m[` + c.key + `]++
	}
	n := 0
	for i := 0; i < 1000; i++ {
		n += m[` + c.key + `]
	}
	return n
}`); err != nil {
				b.Fatal(err)
			}
			v, err := i.Eval("run")
			if err != nil {
				b.Fatal(err)
			}
			run := v.Interface().(func() int)
			b.ResetTimer()
			for n := 0; n < b.N; n++ {
				run()
			}
		})
	}
}
