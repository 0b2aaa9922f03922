package main

import "context"

func cmdPackages(ctx context.Context, env *cliEnv, args []string) error {
	return exitError{code: 1, err: errNotBuilt}
}
