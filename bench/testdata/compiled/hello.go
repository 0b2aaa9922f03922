// One line of output: the fixed cost of starting a program (compiled:
// the kernel, the launcher and the program's runtime).
package main

import "fmt"

func main() { fmt.Println("hello") }
