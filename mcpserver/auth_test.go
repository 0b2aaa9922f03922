package mcpserver

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bearerTransport adds an Authorization header to every request.
type bearerTransport struct{ value string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", b.value)
	return http.DefaultTransport.RoundTrip(r)
}

// TestBearerAuth: without the token, with a wrong one or another scheme,
// a request gets 401 with a challenge and a body that says what to send;
// with it, an SDK client runs code over streamable HTTP (its event
// streams pass the refusal wrapper).
func TestBearerAuth(t *testing.T) {
	s, err := New(testOptions(nil))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ts := httptest.NewServer(BearerAuth("right-token", s.HTTPHandler()))
	t.Cleanup(ts.Close)
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	for _, tc := range []struct {
		auth, reason string
	}{{"", "no bearer token"}, {"Bearer wrong-token", "wrong bearer token"}, {"Basic right-token", "no bearer token"}, {"Bearer right-token-and-more", "wrong bearer token"}} {
		req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(initialize))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tc.auth != "" {
			req.Header.Set("Authorization", tc.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		want := "sbir-kernel mcp: " + tc.reason + `: send the header "Authorization: Bearer <token>"`
		if resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != `Bearer realm="sbir-kernel mcp"` || !strings.HasPrefix(string(body), want) {
			t.Errorf("Authorization %q: %d %q %q", tc.auth, resp.StatusCode, resp.Header.Get("WWW-Authenticate"), body)
		}
	}
	hc := &http.Client{Transport: bearerTransport{"Bearer right-token"}}
	c := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL, HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	out, _ := runGo(t, cs, map[string]any{"code": "6 * 7"})
	if out.Value != "42" {
		t.Fatalf("with the token: %+v", out)
	}
}
