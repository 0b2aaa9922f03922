package pkgenv

import (
	"flag"
	"strconv"
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
	fs.Var((*sizeValue)(&o.Limits.MaxBytes), "packages-max-size",
		"most unpacked source one requirement set may hold (e.g. 200MB)")
	fs.Var((*sizeValue)(&o.Limits.Budget), "packages-budget",
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
		"--packages-max-size=" + exactSize(l.MaxBytes),
		"--packages-budget=" + exactSize(l.Budget),
	}
}

// exactSize formats a byte count so that ParseSize returns it
// exactly: with the largest unit that divides it, else in bytes.
func exactSize(n int64) string {
	for _, u := range []struct {
		name string
		size int64
	}{{"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + u.name
		}
	}
	return strconv.FormatInt(n, 10)
}

// sizeValue is a flag.Value for a byte count written as ParseSize reads it.
type sizeValue int64

func (v *sizeValue) String() string {
	if v == nil {
		return ""
	}
	return exactSize(int64(*v))
}

func (v *sizeValue) Set(s string) error {
	n, err := ParseSize(s)
	if err != nil {
		return err
	}
	*v = sizeValue(n)
	return nil
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
