package pkgenv

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/sbirtools/sbir-kernel/internal/bytesize"
	"golang.org/x/mod/module"
)

// proxy reads files from a module proxy (the GOPROXY protocol) over
// HTTP(S) or from a file:// tree laid out the same way.
type proxy struct {
	base   string // URL without a trailing slash
	dir    string // for file:// proxies, the local directory
	client *http.Client
}

func newProxy(raw string, client *http.Client) (*proxy, error) {
	if raw == "" {
		raw = DefaultProxy
	}
	switch raw {
	case "direct", "off":
		return nil, fmt.Errorf("go: GOPROXY=%s is not supported: packages come from a module proxy only; set a proxy URL such as %s", raw, DefaultProxy)
	}
	if strings.ContainsAny(raw, ",|") {
		return nil, fmt.Errorf("go: GOPROXY=%s: give one proxy URL; lists (and their direct fallback) are not supported", raw)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("go: invalid GOPROXY URL %q: %v", raw, err)
	}
	p := &proxy{base: strings.TrimSuffix(raw, "/"), client: client}
	switch u.Scheme {
	case "https", "http":
		if u.Host == "" {
			return nil, fmt.Errorf("go: invalid GOPROXY URL %q: missing host", raw)
		}
		if p.client == nil {
			p.client = &http.Client{Transport: http.DefaultTransport}
		}
	case "file":
		if u.Host != "" && u.Host != "localhost" {
			return nil, fmt.Errorf("go: invalid GOPROXY URL %q: file URLs must name a local path (file:///dir)", raw)
		}
		p.dir = filepath.FromSlash(u.Path)
	default:
		return nil, fmt.Errorf("go: invalid GOPROXY URL %q: use https://, http:// or file://", raw)
	}
	return p, nil
}

// modulePath returns the proxy path of a module file: "<path>/@v/<version><suffix>".
func modulePath(m module.Version, suffix string) (string, error) {
	ep, err := module.EscapePath(m.Path)
	if err != nil {
		return "", err
	}
	ev, err := module.EscapeVersion(m.Version)
	if err != nil {
		return "", err
	}
	return ep + "/@v/" + ev + suffix, nil
}

// statusError is a non-200 answer from the proxy.
type statusError struct {
	url      string
	status   string
	code     int
	response string // first lines of the body, when it is text
}

func (e *statusError) Error() string {
	s := fmt.Sprintf("reading %s: %s", e.url, e.status)
	if e.response != "" {
		s += "\n\tserver response: " + strings.ReplaceAll(e.response, "\n", "\n\t")
	}
	return s
}

// open returns a reader for rel (a path under the proxy, without a
// leading slash).
func (p *proxy) open(ctx context.Context, rel string) (io.ReadCloser, string, error) {
	u := p.base + "/" + rel
	if p.dir != "" {
		f, err := os.Open(filepath.Join(p.dir, filepath.FromSlash(rel)))
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, u, &statusError{url: u, status: "404 Not Found", code: http.StatusNotFound}
			}
			return nil, u, fmt.Errorf("reading %s: %w", u, err)
		}
		return f, u, nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, u, fmt.Errorf("reading %s: %w", u, err)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, u, ctx.Err()
		}
		return nil, u, fmt.Errorf("reading %s: %w", u, err)
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
		se := &statusError{url: u, status: resp.Status, code: resp.StatusCode}
		if utf8.Valid(body) {
			lines := strings.Split(strings.TrimSpace(string(body)), "\n")
			if len(lines) > 4 {
				lines = lines[:4]
			}
			se.response = strings.Join(lines, "\n")
		}
		return nil, u, se
	}
	return resp.Body, u, nil
}

// get reads rel into memory, refusing more than max bytes.
func (p *proxy) get(ctx context.Context, rel string, max int64) ([]byte, error) {
	rc, u, err := p.open(ctx, rel)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, max+1))
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("reading %s: %w", u, err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("reading %s: larger than %s: %w", u, bytesize.Exact(max), ErrLimit)
	}
	return data, nil
}

// download copies rel to dst, refusing more than max bytes.
func (p *proxy) download(ctx context.Context, rel string, dst io.Writer, max int64) error {
	rc, u, err := p.open(ctx, rel)
	if err != nil {
		return err
	}
	defer rc.Close()
	n, err := io.Copy(dst, io.LimitReader(rc, max+1))
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("reading %s: %w", u, err)
	}
	if n > max {
		return fmt.Errorf("reading %s: larger than %s: %w", u, bytesize.Exact(max), ErrLimit)
	}
	return nil
}
