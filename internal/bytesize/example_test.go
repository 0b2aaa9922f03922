package bytesize_test

import (
	"fmt"

	"github.com/sbirtools/sbir-kernel/internal/bytesize"
)

func ExampleParse() {
	for _, s := range []string{"100KB", "1MiB", "1.5 GB", "1G"} {
		n, err := bytesize.Parse(s)
		fmt.Println(n, err)
	}
	// Output:
	// 100000 <nil>
	// 1048576 <nil>
	// 1500000000 <nil>
	// 0 invalid size "1G": the unit G is ambiguous; write GB (powers of 1000) or GiB (powers of 1024)
}

func ExampleExact() {
	fmt.Println(bytesize.Exact(1<<20), bytesize.Exact(100000), bytesize.Exact(1500))
	// Output: 1 MiB 100 KB 1500 bytes
}
