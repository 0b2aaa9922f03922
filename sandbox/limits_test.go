package sandbox

import (
	"flag"
	"io"
	"strings"
	"testing"
)

// TestLimitsFlagUnits checks that every size flag reads units the way the
// flag documentation says (KB = 1000 bytes, KiB = 1024) and refuses the
// ambiguous one-letter forms with a message naming the flag's choices.
func TestLimitsFlagUnits(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want func(Limits) bool
		err  string
	}{
		{[]string{"--max-code-bytes=100KB"}, func(l Limits) bool { return l.MaxCodeBytes == 100000 }, ""},
		{[]string{"--max-code-bytes=100KiB"}, func(l Limits) bool { return l.MaxCodeBytes == 100<<10 }, ""},
		{[]string{"--heap-limit=1GB"}, func(l Limits) bool { return l.HeapBytes == 1e9 }, ""},
		{[]string{"--heap-limit=2 GiB"}, func(l Limits) bool { return l.HeapBytes == 2<<30 }, ""},
		{[]string{"--max-output-bytes=512M"}, nil, "ambiguous"},
		{[]string{"--max-output-bytes=-1"}, nil, "want a number"},
		{[]string{"--heap-limit=99999999999GiB"}, nil, "too large"},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		l := DefaultLimits()
		l.RegisterFlags(fs)
		err := fs.Parse(tt.args)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%v: err = %v, want one containing %q", tt.args, err, tt.err)
			}
			continue
		}
		if err != nil || !tt.want(l) {
			t.Errorf("%v: %+v, %v", tt.args, l, err)
		}
		// Args reproduces the limits exactly.
		fs2 := flag.NewFlagSet("t", flag.ContinueOnError)
		l2 := DefaultLimits()
		l2.RegisterFlags(fs2)
		if err := fs2.Parse(l.Args()); err != nil || l2 != l {
			t.Errorf("Args() %v does not reproduce %+v: %+v, %v", l.Args(), l, l2, err)
		}
	}
}
