package sandbox_test

import (
	"context"
	"fmt"
	"log"

	"github.com/sbirtools/sbir-kernel/sandbox"
)

func ExampleSession_Run() {
	ctx := context.Background()
	s, err := sandbox.NewSession(ctx, sandbox.Options{Limits: sandbox.DefaultLimits()})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	res, err := s.Run(ctx, `words := strings.Fields("small business innovation research")
fmt.Println(len(words))
strings.ToUpper(words[0])`, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(res.Stdout)
	fmt.Println(res.Value["text/plain"])

	res, _ = s.Run(ctx, `import "net"`, nil)
	fmt.Println(res.ErrorName)
	// Output:
	// 4
	// "SMALL"
	// NotAllowed
}

func ExampleIsComplete() {
	status, indent := sandbox.IsComplete("for i := range 3 {")
	fmt.Printf("%s %q\n", status, indent)
	status, _ = sandbox.IsComplete("x := 1")
	fmt.Println(status)
	// Output:
	// incomplete "    "
	// complete
}
