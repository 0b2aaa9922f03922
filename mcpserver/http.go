package mcpserver

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"net"
	"net/http"
	"strings"
)

// BearerAuth serves next only to requests carrying
// "Authorization: Bearer <token>"; the others get 401 with a
// WWW-Authenticate header, and a body that says what to send.
func BearerAuth(token string, next http.Handler) http.Handler {
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := []byte(r.Header.Get("Authorization"))
		if subtle.ConstantTimeCompare(got, want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="sbir-kernel mcp"`)
			http.Error(w, "sbir-kernel mcp: missing or wrong bearer token: send the header \"Authorization: Bearer <token>\" with the token the server printed or was given with --token", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

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
