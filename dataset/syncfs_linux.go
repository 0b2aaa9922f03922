package dataset

import (
	"os"

	"golang.org/x/sys/unix"
)

// syncFS makes the whole file system holding f durable (syncfs(2)).
func syncFS(f *os.File) error { return unix.Syncfs(int(f.Fd())) }
