package pkgenv

import (
	"flag"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestRegisterFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want Options
		err  string
	}{
		{name: "defaults", want: Options{Proxy: DefaultProxy, SumDBKey: DefaultSumDB, Limits: DefaultLimits()}},
		{name: "all set",
			args: []string{"--allow-packages", "--packages-proxy", "file:///srv/goproxy", "--packages-sumdb", "k+1+x",
				"--packages-install-timeout", "30s", "--packages-max-modules", "7", "--packages-max-size", "64MiB", "--packages-budget", "1.5GB"},
			want: Options{AllowInstall: true, Proxy: "file:///srv/goproxy", SumDBKey: "k+1+x",
				Limits: Limits{InstallTimeout: 30 * time.Second, MaxModules: 7, MaxBytes: 64 << 20, Budget: 1.5e9}}},
		{name: "direct refused", args: []string{"--packages-proxy", "direct"}, err: "GOPROXY=direct is not supported"},
		{name: "list refused", args: []string{"--packages-proxy", "https://a.example,direct"}, err: "give one proxy URL"},
		{name: "bad size", args: []string{"--packages-budget", "lots"}, err: "invalid size"},
		// The same units as every other size flag: GB is 10^9 bytes.
		{name: "units", args: []string{"--packages-max-size", "1GB", "--packages-budget", "2GiB"},
			want: Options{Proxy: DefaultProxy, SumDBKey: DefaultSumDB,
				Limits: Limits{InstallTimeout: DefaultLimits().InstallTimeout, MaxModules: DefaultLimits().MaxModules, MaxBytes: 1e9, Budget: 2 << 30}}},
		{name: "ambiguous unit", args: []string{"--packages-budget", "2G"}, err: "ambiguous"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var o Options
			fs := flag.NewFlagSet("t", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			o.RegisterFlags(fs)
			err := fs.Parse(tc.args)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(o, tc.want) {
				t.Fatalf("got %+v\nwant %+v", o, tc.want)
			}
			// Args reproduces the options.
			var back Options
			fs2 := flag.NewFlagSet("t", flag.ContinueOnError)
			back.RegisterFlags(fs2)
			if err := fs2.Parse(o.Args()); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, o) {
				t.Fatalf("Args %q parse to %+v, want %+v", o.Args(), back, o)
			}
		})
	}
}
