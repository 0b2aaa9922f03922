package main

import "errors"

// Temporary scaffolding while the commands are being built; removed before landing.
var errNotBuilt = errors.New("not built yet")
