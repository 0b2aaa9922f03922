package interp_test

import "testing"

// Patch 44: labelled statements in case and select clauses.
func TestSbirLabelsInClauses(t *testing.T) {
	i, out, _ := newTestInterp(t)
	for _, s := range []string{
		`import "fmt"`,
		`func run() {
	for k := 0; k < 2; k++ {
		switch k {
		case 1:
		L:
			for i := 0; i < 2; i++ {
				for j := 0; j < 3; j++ {
					if j == 1 {
						continue L
					}
					fmt.Println(i, j)
				}
			}
		default:
		D:
			for {
				break D
			}
			fmt.Println("default", k)
		}
	}
	switch {
	case false:
	default:
	}
	ch := make(chan int, 1)
	ch <- 1
	select {
	case v := <-ch:
	S:
		for i := 0; i < 3; i++ {
			if i == v {
				break S
			}
			fmt.Println("select", i)
		}
	}
}`,
		`run()`,
	} {
		if _, err := i.Eval(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	if got, want := out.String(), "default 0\n0 0\n1 0\nselect 0\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
}
