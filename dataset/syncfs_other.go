//go:build !linux

package dataset

import (
	"errors"
	"os"
)

// syncFS would make the whole file system holding f durable; only Linux
// has syncfs(2).
func syncFS(*os.File) error { return errors.ErrUnsupported }
