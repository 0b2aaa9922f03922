// Fieldsfunc splits every Department of Defense abstract into words with
// strings.FieldsFunc and a closure: compiled code calling back into
// interpreted code once per character.
package main

import (
	"fmt"
	"os"
	"strings"
	"time"
	"unicode"

	"github.com/sbirtools/sbir-kernel/award_data"
)

func main() {
	abstracts := award_data.Where("Agency", "==", "Department of Defense").Strings("Abstract")
	start := time.Now()
	separators := 0
	notLetter := func(r rune) bool {
		if unicode.IsLetter(r) || r == '-' {
			return false
		}
		separators++
		return true
	}
	words, letters := 0, 0
	for _, a := range abstracts {
		for _, w := range strings.FieldsFunc(a, notLetter) {
			words++
			letters += len(w)
		}
	}
	fmt.Fprintf(os.Stderr, "bench-seconds %.6f\n", time.Since(start).Seconds())
	fmt.Println(len(abstracts), "abstracts,", words, "words,", letters, "bytes in words,", separators, "separators")
}
