package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
)

func cmdVersion(ctx context.Context, env *cliEnv, args []string) error {
	fs, apply := newFlagSet(env, "version", "", "Print the version of sbir-kernel and of the components it is built from.")
	if err := parseFlags(fs, apply, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	fmt.Fprintf(env.Stdout, "sbir-kernel %s (%s, %s/%s)\n", version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			switch d.Path {
			case "github.com/traefik/yaegi", "github.com/apache/arrow-go/v18", "github.com/go-zeromq/zmq4":
				fmt.Fprintf(env.Stdout, "  %s %s\n", d.Path, d.Version)
			}
		}
	}
	return nil
}
