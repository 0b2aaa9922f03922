package mcpserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BearerAuth serves next only to requests carrying
// "Authorization: Bearer <token>"; the others get 401 with a
// WWW-Authenticate header and a body that says what to send. The check is
// the Go SDK's auth.RequireBearerToken, with a verifier that compares the
// token in constant time; the SDK's streamable HTTP handler then binds
// each MCP session to the verified token's user, so that a request with
// another identity cannot use a session it learned the id of.
func BearerAuth(token string, next http.Handler) http.Handler {
	want := []byte(token)
	verify := func(_ context.Context, got string, _ *http.Request) (*auth.TokenInfo, error) {
		if subtle.ConstantTimeCompare([]byte(got), want) != 1 {
			return nil, fmt.Errorf("%w: wrong bearer token", auth.ErrInvalidToken)
		}
		// The token does not expire: it lives as long as the server.
		return &auth.TokenInfo{UserID: "token"}, nil
	}
	h := auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(&challengeWriter{ResponseWriter: w}, r)
	})
}

// challengeWriter completes the SDK's 401 refusals: the WWW-Authenticate
// header (RFC 6750) and a body that names the fix, after the SDK's reason
// ("no bearer token", "wrong bearer token").
type challengeWriter struct {
	http.ResponseWriter
	refused bool
}

func (w *challengeWriter) WriteHeader(code int) {
	if code == http.StatusUnauthorized {
		w.refused = true
		w.Header().Set("WWW-Authenticate", `Bearer realm="sbir-kernel mcp"`)
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *challengeWriter) Write(b []byte) (int, error) {
	if !w.refused {
		return w.ResponseWriter.Write(b)
	}
	reason := strings.TrimSpace(strings.TrimPrefix(string(b), auth.ErrInvalidToken.Error()+": "))
	fmt.Fprintf(w.ResponseWriter, "sbir-kernel mcp: %s: send the header \"Authorization: Bearer <token>\" with the token the server printed or was given with --token\n", reason)
	return len(b), nil
}

// Flush passes flushes on, for the SDK's event streams.
func (w *challengeWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the connection's writer.
func (w *challengeWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// NewToken returns a random bearer token (32 bytes, URL-safe base64).
func NewToken() string {
	b := make([]byte, 32)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// IsLoopback reports whether a listen address (host:port) binds only the
// loopback interface. An empty host ("":8080) binds every interface.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Limits of the HTTP transport beyond the SDK's own (a 4 MiB body).
const (
	// maxHTTPConnections caps the MCP connections (HTTP sessions) open at
	// once. Each costs the server about 12 KiB and lives until the client
	// deletes it or it is idle for Options.IdleTimeout, so without a cap a
	// client could open them until the server runs out of memory. Real
	// clients open one each.
	maxHTTPConnections = 1024
	// defaultBodyTimeout bounds how long a request's body may take to
	// arrive once its headers have: the http.Server bounds only the
	// headers, and a body sent a byte at a time (or never) held a
	// connection, and a file descriptor, for ever.
	defaultBodyTimeout = 30 * time.Second
	// maxHTTPBody is the SDK's bound on a request body, enforced here
	// while the body is read under its deadline.
	maxHTTPBody = mcp.DefaultMaxRequestBodyBytes
)

// guardHTTP applies the limits above before the SDK's handler sees a
// request: the body is read whole under a deadline, and a request that
// would open an MCP connection (one without Mcp-Session-Id) is refused
// while maxHTTPConnections are open.
func (s *Server) guardHTTP(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && !s.readBody(w, r) {
			return
		}
		if r.Method != http.MethodPost || r.Header.Get("Mcp-Session-Id") != "" {
			next.ServeHTTP(w, r)
			return
		}
		if !s.admitConn() {
			expiry := fmt.Sprintf("wait for idle ones to expire (after %s without requests)", s.opts.IdleTimeout)
			if s.opts.IdleTimeout <= 0 {
				expiry = "restart the server with an --idle-timeout so that idle ones expire"
			}
			httpRPCError(w, http.StatusServiceUnavailable, fmt.Sprintf(
				"sbir-kernel mcp: too many MCP connections are open (the limit is %d): close connections you no longer use (HTTP DELETE with their Mcp-Session-Id), or %s",
				maxHTTPConnections, expiry))
			return
		}
		defer s.doneConn()
		next.ServeHTTP(w, r)
	})
}

// readBody reads r's body whole, at most maxHTTPBody bytes, within the
// body deadline, and gives it back to r as an in-memory reader. It
// answers the request itself and returns false when the body is too
// large or late.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) bool {
	if r.Body == nil || r.Body == http.NoBody {
		return true
	}
	timeout := s.bodyTimeout
	if timeout <= 0 {
		timeout = defaultBodyTimeout
	}
	rc := http.NewResponseController(w)
	// Unsupported (HTTP/2 over some transports) leaves the body unbounded
	// in time, as it was; the SDK still bounds its size.
	deadlineSet := rc.SetReadDeadline(time.Now().Add(timeout)) == nil
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxHTTPBody))
	if deadlineSet {
		rc.SetReadDeadline(time.Time{})
	}
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		httpRPCError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("sbir-kernel mcp: request body over %d bytes: send smaller messages", maxHTTPBody))
		return false
	case err != nil:
		w.Header().Set("Connection", "close")
		httpRPCError(w, http.StatusRequestTimeout, fmt.Sprintf("sbir-kernel mcp: the request body did not arrive within %s of its headers (%v): send the whole body at once", timeout, err))
		return false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return true
}

// admitConn reserves room for one more MCP connection, counting the
// connections open and the requests that may open one; doneConn releases
// the reservation once the request is served (its connection, if it
// opened one, is then among those open).
func (s *Server) admitConn() bool {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	open := 0
	for range s.mcp.Sessions() {
		open++
	}
	if open+s.pendingConns >= maxHTTPConnections {
		return false
	}
	s.pendingConns++
	return true
}

func (s *Server) doneConn() {
	s.connMu.Lock()
	s.pendingConns--
	s.connMu.Unlock()
}

// httpRPCError answers with a JSON-RPC error (id null) and status code,
// as the SDK answers requests it refuses before reading them.
func httpRPCError(w http.ResponseWriter, code int, msg string) {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": -32600, "message": msg}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(b)
}
