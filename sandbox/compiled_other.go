//go:build !linux

package sandbox

import (
	"errors"
	"io"
	"os"

	"github.com/sbirtools/sbir-kernel/sandbox/internal/wire"
)

// Compiled cells run on Linux only: NewCompiler refuses elsewhere, so
// these are never reached.

func programMemfd() (*os.File, error) { return nil, errors.New("compiled cells run on Linux only") }

func fillSealed(*os.File, string) error { return errors.New("compiled cells run on Linux only") }

type progEvent struct {
	name string
	text []byte
	msg  *wire.Message
}

func relay(f *programFiles, _ io.Writer, evs chan<- progEvent) { close(evs) }
