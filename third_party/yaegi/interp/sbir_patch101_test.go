package interp_test

import "testing"

// TestSbirNilEmbeddedPointerField checks sbir patch 101: reading or
// writing a field promoted through a nil embedded pointer, of a variable
// or of an element of a slice (S10b's step), panics with gc's runtime
// error. The wanted output is go run's (Go 1.26).
func TestSbirNilEmbeddedPointerField(t *testing.T) {
	runSpeedCases(t, []struct{ name, src, want string }{
		{"promoted through nil", `package main

import "fmt"

type inner struct{ a, b int }
type withPtr struct {
	*inner
	k int
}

func try(name string, f func()) {
	defer func() { fmt.Println(name, recover()) }()
	f()
}

func main() {
	var w withPtr
	ws := []withPtr{{}}
	i := 0
	try("value", func() { fmt.Println(w.a) })
	try("element", func() { fmt.Println(ws[i].a) })
	try("write", func() { w.b = 3 })
	try("element write", func() { ws[i].b = 3 })
}
`, `value runtime error: invalid memory address or nil pointer dereference
element runtime error: invalid memory address or nil pointer dereference
write runtime error: invalid memory address or nil pointer dereference
element write runtime error: invalid memory address or nil pointer dereference`},
	})
}
