package pkgenv

import (
	"flag"
	"strconv"

	"github.com/sbirtools/sbir-kernel/internal/bytesize"
)

// RegisterFlags defines the command-line options of package installs on
// fs, writing into o: --allow-packages (AllowInstall, the trust gate),
// --packages-proxy (Proxy), --packages-sumdb (SumDBKey), and --packages-install-timeout,
// --packages-max-modules, --packages-max-size and --packages-budget
// (Limits). Zero fields of o show, and take, the defaults.
func (o *Options) RegisterFlags(fs *flag.FlagSet) {
	if o.Proxy == "" {
		o.Proxy = DefaultProxy
	}
	if o.SumDBKey == "" {
		o.SumDBKey = DefaultSumDB
	}
	o.Limits = o.Limits.withDefaults()
	fs.BoolVar(&o.AllowInstall, "allow-packages", o.AllowInstall,
		"let cells install the Go modules they declare with //sbir:require (from the module proxy, verified against the checksum database); without it only environments already cached can be used")
	fs.Var((*proxyValue)(&o.Proxy), "packages-proxy",
		"module proxy `URL` packages are installed from (one https://, http:// or file:// URL; \"direct\" and lists are refused)")
	fs.StringVar(&o.SumDBKey, "packages-sumdb", o.SumDBKey,
		"verifier `key` of the checksum database downloads are verified against (as in GOSUMDB), reached through the proxy")
	fs.DurationVar(&o.Limits.InstallTimeout, "packages-install-timeout", o.Limits.InstallTimeout,
		"time limit of one package install (downloads, verification, sandbox checks)")
	fs.IntVar(&o.Limits.MaxModules, "packages-max-modules", o.Limits.MaxModules,
		"most modules one requirement set may pull in, dependencies included")
	fs.Var((*bytesize.Value)(&o.Limits.MaxBytes), "packages-max-size",
		"most unpacked source one requirement set may hold (e.g. 200MB)")
	fs.Var((*bytesize.Value)(&o.Limits.Budget), "packages-budget",
		"size the package cache is evicted down to, least recently used first (e.g. 2GB)")
}

// Args returns the flags RegisterFlags defines, with o's values, for a
// kernel.json argv.
func (o Options) Args() []string {
	l := o.Limits.withDefaults()
	proxy := o.Proxy
	if proxy == "" {
		proxy = DefaultProxy
	}
	sumdb := o.SumDBKey
	if sumdb == "" {
		sumdb = DefaultSumDB
	}
	return []string{
		"--allow-packages=" + strconv.FormatBool(o.AllowInstall),
		"--packages-proxy=" + proxy,
		"--packages-sumdb=" + sumdb,
		"--packages-install-timeout=" + l.InstallTimeout.String(),
		"--packages-max-modules=" + strconv.Itoa(l.MaxModules),
		"--packages-max-size=" + bytesize.Exact(l.MaxBytes),
		"--packages-budget=" + bytesize.Exact(l.Budget),
	}
}

// proxyValue is a flag.Value for a module proxy URL, checked as Ensure
// checks it.
type proxyValue string

func (v *proxyValue) String() string {
	if v == nil {
		return ""
	}
	return string(*v)
}

func (v *proxyValue) Set(s string) error {
	if _, err := newProxy(s, nil); err != nil {
		return err
	}
	*v = proxyValue(s)
	return nil
}
