package main

import "context"

func cmdInstall(ctx context.Context, env *cliEnv, args []string) error {
	return exitError{code: 1, err: errNotBuilt}
}
func cmdUninstall(ctx context.Context, env *cliEnv, args []string) error {
	return exitError{code: 1, err: errNotBuilt}
}
