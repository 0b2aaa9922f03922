package main

import "context"

func cmdGenerateData(ctx context.Context, env *cliEnv, args []string) error {
	return exitError{code: 1, err: errNotBuilt}
}
