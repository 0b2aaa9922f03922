package main

import "context"

func cmdRun(ctx context.Context, env *cliEnv, args []string) error {
	return exitError{code: 1, err: errNotBuilt}
}
