package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/sbirtools/sbir-kernel/mcpserver"
	"github.com/sbirtools/sbir-kernel/pkgenv"
	"github.com/sbirtools/sbir-kernel/sandbox"
)

const mcpDescription = `
Serves the Model Context Protocol for LLM agents and other programs: persistent
sandboxed Go sessions over the awards data (tools run_go, reset_session,
describe_data, api_reference; the schema and the award_data/display docs as
resources). Each session is a sandbox worker with the limits below; sessions
run in parallel, expire when idle, and are capped in number and memory.

Transports: standard input/output (the default: an MCP client starts this
command), or streamable HTTP with --http ADDR. HTTP listens on loopback unless
told otherwise; a non-loopback address requires a bearer token (--token, or
one is generated and printed on stderr). See docs/agents.md.

Examples:
  sbir-kernel mcp
  sbir-kernel mcp --http 127.0.0.1:8765
  sbir-kernel mcp --http 0.0.0.0:8765 --token "$(cat token.txt)" --max-sessions 32`

// mcpTokenEnv names the environment variable that may hold the HTTP
// bearer token (safer than a flag, which other users can read in ps).
const mcpTokenEnv = "SBIR_MCP_TOKEN"

func cmdMCP(ctx context.Context, env *cliEnv, args []string) error {
	fs, apply := newFlagSet(env, "mcp", "", mcpDescription)
	httpAddr := fs.String("http", "", "serve streamable HTTP on this address (host:port) instead of stdio")
	token := fs.String("token", "", "bearer token HTTP clients must send (default: $"+mcpTokenEnv+"; generated for a non-loopback --http)")
	maxSessions := fs.Int("max-sessions", mcpserver.DefaultMaxSessions, "most sessions open at once, all clients together")
	maxMemory := defaultMaxMemory()
	fs.Func("max-memory", "cap on the sum of the sessions' heap budgets (--heap-limit each), e.g. 16GiB (default: 3/4 of this host's memory)", func(s string) error {
		n, err := parseByteSize(s)
		maxMemory = n
		return err
	})
	idle := fs.Duration("idle-timeout", mcpserver.DefaultIdleTimeout, "close a session after this long without calls (0: never)")
	requireIso := fs.Bool("require-isolation", false, "refuse to start sessions unless every sandbox isolation layer is active")
	limits := sandbox.DefaultLimits()
	limits.RegisterFlags(fs)
	pkgs := pkgenv.Options{KernelVersion: version}
	pkgs.RegisterFlags(fs)
	compile := sandbox.DefaultCompileSettings()
	compile.RegisterFlags(fs)
	if err := parseFlags(fs, apply, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	if *maxSessions < 1 {
		return usageError{fmt.Sprintf("--max-sessions %d: give at least 1", *maxSessions)}
	}
	if *token == "" {
		*token = env.Getenv(mcpTokenEnv)
	}
	if *httpAddr == "" && *token != "" {
		return usageError{"--token applies only with --http: a stdio server talks to the client that started it"}
	}
	idleTimeout := *idle
	if idleTimeout == 0 {
		idleTimeout = -1
	}

	compilerReady := startCompiler(ctx, env, compile)
	data, err := locateData(ctx, env)
	if err != nil {
		return fmt.Errorf("locating the awards data: %w", err)
	}
	defer data.WaitDurable(context.Background())
	compiler, compileOff := compilerReady()
	for _, w := range data.Warnings {
		env.Logger.Warn(w)
	}
	srv, err := mcpserver.New(mcpserver.Options{
		Session: sandbox.Options{
			Limits:           limits,
			DataPath:         data.ArrowPath,
			RequireIsolation: *requireIso,
			Logger:           env.Logger,
			Packages:         packageOptions(env, pkgs),
			Compiler:         compiler,
			CompileOff:       compileOff,
		},
		Data:        data,
		MaxSessions: *maxSessions,
		MaxMemory:   maxMemory,
		IdleTimeout: idleTimeout,
		Version:     version,
		Logger:      env.Logger,
	})
	if err != nil {
		return usageError{err.Error()}
	}
	// A session that cannot start (bad limits, --require-isolation on a
	// host without every layer) fails here, not on the first call.
	probe, err := sandbox.NewSession(ctx, sandbox.Options{Limits: limits, DataPath: data.ArrowPath, RequireIsolation: *requireIso, Logger: env.Logger})
	if err != nil {
		srv.Close()
		return fmt.Errorf("starting a sandbox worker: %w", err)
	}
	probe.Close()
	data.StartSync()
	go releaseConversion(data)

	if *httpAddr == "" {
		return srv.ServeStdio(ctx, env.Stdin, env.Stdout)
	}
	defer srv.Close()
	return serveMCPHTTP(ctx, env, srv, *httpAddr, *token)
}

// serveMCPHTTP listens on addr and serves until ctx ends. A non-loopback
// address needs a token; one is generated and printed when none is given.
func serveMCPHTTP(ctx context.Context, env *cliEnv, srv *mcpserver.Server, addr, token string) error {
	token, generated := httpToken(addr, token)
	if generated {
		fmt.Fprintf(env.Stderr, "sbir-kernel mcp: %s is not a loopback address, so clients must authenticate.\nBearer token (send \"Authorization: Bearer <token>\"; set it with --token or $%s next time):\n%s\n", addr, mcpTokenEnv, token)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return usageError{fmt.Sprintf("--http %s: %v", addr, err)}
	}
	var h http.Handler = srv.HTTPHandler()
	if token != "" {
		h = mcpserver.BearerAuth(token, h)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	mux.Handle("/mcp/", h)
	hs := newMCPHTTPServer(mux)
	// The address line is what scripts and tests wait for.
	fmt.Fprintf(env.Stderr, "sbir-kernel mcp: serving MCP (streamable HTTP) on http://%s/mcp\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdown); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

// Timeouts of the MCP HTTP server. A request's body has its own deadline
// (mcpserver); these bound the rest of what a client can hold open.
const (
	// mcpReadHeaderTimeout bounds the wait for a request's headers.
	mcpReadHeaderTimeout = 10 * time.Second
	// mcpIdleTimeout closes a keep-alive connection with no request for
	// this long: without it, a connection that made one request and then
	// stayed silent was held (with its file descriptor) for ever, and
	// enough of them leave the server no descriptors for new sessions'
	// workers. MCP clients reconnect as needed.
	mcpIdleTimeout = 2 * time.Minute
)

// newMCPHTTPServer returns the HTTP server of `mcp --http` serving h.
func newMCPHTTPServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: mcpReadHeaderTimeout, IdleTimeout: mcpIdleTimeout}
}

// httpToken decides the bearer token of an HTTP server: the one given, or,
// for an address other than loopback, a new one (generated reports it).
// Loopback without a token serves without authentication.
func httpToken(addr, given string) (token string, generated bool) {
	if given != "" || mcpserver.IsLoopback(addr) {
		return given, false
	}
	return mcpserver.NewToken(), true
}

// parseByteSize reads a size the way the limit flags do: a byte count or a
// KB/KiB/MB/MiB/GB/GiB suffix.
func parseByteSize(s string) (int64, error) {
	var l sandbox.Limits
	fs := newQuietFlagSet()
	l.RegisterFlags(fs)
	if err := fs.Set("heap-limit", s); err != nil {
		return 0, err
	}
	return l.HeapBytes, nil
}

// defaultMaxMemory is 3/4 of the host's memory (MemTotal), leaving room
// for the shared data mapping and the supervisor; 0 (no cap) when it
// cannot be read.
func defaultMaxMemory() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			f := strings.Fields(rest)
			if len(f) == 2 && f[1] == "kB" {
				if kb, err := strconv.ParseInt(f[0], 10, 64); err == nil {
					return kb * 1024 / 4 * 3
				}
			}
		}
	}
	return 0
}

func newQuietFlagSet() *flag.FlagSet {
	fs := flag.NewFlagSet("size", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}
