package importpath

import (
	"fmt"
	"testing"
)

func TestIsStdlib(t *testing.T) {
	for path, want := range map[string]bool{
		"os": true, "os/exec": true, "net/http": true, "C": true,
		"example.com/m": false, "github.com/a/b": false, "gopkg.in/yaml.v3": false,
	} {
		if got := IsStdlib(path); got != want {
			t.Errorf("IsStdlib(%q) = %v, want %v", path, got, want)
		}
	}
}

func ExampleIsStdlib() {
	fmt.Println(IsStdlib("encoding/json"), IsStdlib("github.com/montanaflynn/stats"))
	// Output: true false
}
