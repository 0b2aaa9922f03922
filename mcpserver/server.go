package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sbirtools/sbir-kernel/cellresult"
	"github.com/sbirtools/sbir-kernel/dataset"
	"github.com/sbirtools/sbir-kernel/sandbox"
)

// Defaults of Options.
const (
	DefaultMaxSessions = 16
	DefaultIdleTimeout = 30 * time.Minute
)

// Options configures a Server.
type Options struct {
	// Session is the template of every session: limits, data, isolation,
	// packages (Packages.AllowInstall is the trust gate) and logger.
	Session sandbox.Options
	// Data describes the data the sessions map (Session.DataPath is its
	// ArrowPath); nil makes describe_data report that none is loaded.
	Data *dataset.Source
	// MaxSessions caps the open sessions of all connections together; 0
	// means DefaultMaxSessions.
	MaxSessions int
	// MaxMemory caps the sum of the sessions' heap budgets
	// (Session.Limits.HeapBytes each); 0 means no cap beyond MaxSessions.
	MaxMemory int64
	// IdleTimeout closes a session after this long without calls; 0 means
	// DefaultIdleTimeout, a negative value never.
	IdleTimeout time.Duration
	// Version is reported to clients as the server's version.
	Version string
	// Logger receives the server's logs; nil discards them.
	Logger *slog.Logger
}

// A Server serves sandboxed Go sessions over MCP. Create it with New,
// serve it with Run (one connection, e.g. stdio) or HTTPHandler, and Close
// it to stop every session.
type Server struct {
	opts Options
	mcp  *mcp.Server
	pool *pool
	docs *apiDocs

	watched sync.Map // *mcp.ServerSession → struct{}: connections whose end closes their sessions

	// bodyTimeout bounds how long an HTTP request's body may take to
	// arrive; zero means defaultBodyTimeout (tests set it shorter).
	bodyTimeout time.Duration
	// connMu guards pendingConns: HTTP requests without a session id in
	// flight, each of which may open an MCP connection.
	connMu       sync.Mutex
	pendingConns int

	// runTimed, when set (benchmarks), receives how long each
	// sandbox.Session.Run of run_go took.
	runTimed func(time.Duration)

	dataOnce sync.Once
	data     *DataDescription
	dataErr  error
}

// New returns a server with its tools and resources.
func New(opts Options) (*Server, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Session.Logger == nil {
		opts.Session.Logger = opts.Logger
	}
	if opts.Session.Limits == (sandbox.Limits{}) {
		opts.Session.Limits = sandbox.DefaultLimits()
	}
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = DefaultMaxSessions
	}
	switch {
	case opts.IdleTimeout == 0:
		opts.IdleTimeout = DefaultIdleTimeout
	case opts.IdleTimeout < 0:
		opts.IdleTimeout = 0
	}
	if opts.MaxMemory > 0 && opts.MaxMemory < opts.Session.Limits.HeapBytes {
		return nil, fmt.Errorf("mcpserver: the memory cap %s is below one session's heap budget %s", sizeText(opts.MaxMemory), sizeText(opts.Session.Limits.HeapBytes))
	}
	docs, err := loadAPIDocs()
	if err != nil {
		return nil, err
	}
	s := &Server{opts: opts, docs: docs, pool: newPool(opts)}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "sbir-kernel", Title: "SBIR/STTR awards in sandboxed Go", Version: opts.Version}, &mcp.ServerOptions{
		Instructions: s.instructions(),
		Logger:       opts.Logger,
		Capabilities: &mcp.ServerCapabilities{},
		// Sessions live as long as the connection that created them; the
		// 2026-07-28 protocol has no connection-scoped session, so it is
		// not offered (clients negotiate an earlier version).
		SupportedProtocolVersions: sessionfulVersions(),
	})
	if err := s.addTools(); err != nil {
		return nil, fmt.Errorf("mcpserver: %w", err)
	}
	s.addResources()
	return s, nil
}

func sessionfulVersions() []string {
	var out []string
	for _, v := range mcp.SupportedProtocolVersions() {
		if v < "2026-07-28" {
			out = append(out, v)
		}
	}
	return out
}

// Run serves one connection on t (for example &mcp.StdioTransport{})
// until the client disconnects or ctx ends, then closes every session.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	defer s.Close()
	err := s.mcp.Run(ctx, t)
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return nil
	}
	return err
}

// Connect serves one more connection on t (tests and benchmarks use the
// SDK's in-memory transport). Its sessions close when it ends.
func (s *Server) Connect(ctx context.Context, t mcp.Transport) (*mcp.ServerSession, error) {
	ss, err := s.mcp.Connect(ctx, t, nil)
	if err != nil {
		return nil, err
	}
	s.watch(ss)
	return ss, nil
}

// HTTPHandler serves the streamable HTTP transport. Each MCP session
// (Mcp-Session-Id) has its own sandbox sessions; an MCP session idle for
// Options.IdleTimeout is closed with them. Authentication is the caller's
// (see BearerAuth).
// Cross-origin requests from browsers are refused (a web page must not
// drive a local server), and so, by the SDK, are loopback requests whose
// Host header is not loopback (DNS rebinding). A request body must
// arrive within 30 s of its headers, and at most 1024 MCP connections are
// open at once (a request that would open one more gets 503).
func (s *Server) HTTPHandler() http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, &mcp.StreamableHTTPOptions{
		Logger:         s.opts.Logger,
		SessionTimeout: s.opts.IdleTimeout,
	})
	return http.NewCrossOriginProtection().Handler(s.guardHTTP(h))
}

// Close stops every session. Calls still running are interrupted.
func (s *Server) Close() error {
	s.pool.close()
	return nil
}

// watch closes the sessions of ss when its connection ends (a client that
// disconnects, even mid-call, leaves no worker behind).
func (s *Server) watch(ss *mcp.ServerSession) {
	if ss == nil {
		return
	}
	if _, loaded := s.watched.LoadOrStore(ss, struct{}{}); loaded {
		return
	}
	go func() {
		ss.Wait()
		s.pool.closeConn(ss)
		s.watched.Delete(ss)
	}()
}

// connOf is the pool key of a request's connection.
func (s *Server) connOf(ss *mcp.ServerSession) any {
	s.watch(ss)
	return ss
}

// DataDescription is what describe_data returns and the schema resource
// holds.
type DataDescription struct {
	// Loaded is false when the sessions run without data.
	Loaded bool `json:"loaded" jsonschema:"false when no data is loaded"`
	// Synthetic is true for the embedded synthetic sample.
	Synthetic bool `json:"synthetic" jsonschema:"true for the embedded synthetic sample (not real awards); false for data from sbir.gov or SBIR_CSV_PATH"`
	// Description is one line: rows, origin, real or synthetic.
	Description string `json:"description" jsonschema:"one line: rows, origin, real or synthetic"`
	// Notice says, for the synthetic sample, that its answers mean
	// nothing and how to serve the real data.
	Notice string `json:"notice,omitempty" jsonschema:"for the synthetic sample: that answers mean nothing, and how to point the server at the real data"`
	// Origin is where the CSV came from: "download", "SBIR_CSV_PATH" or
	// "embedded sample".
	Origin string `json:"origin" jsonschema:"where the data came from"`
	// URL is the download's address, when known.
	URL string `json:"url,omitempty" jsonschema:"where the CSV was downloaded from, when known"`
	// Rows is the number of awards.
	Rows int64 `json:"rows" jsonschema:"rows (awards) in the table"`
	// Columns are the table's columns, in order.
	Columns []ColumnInfo `json:"columns" jsonschema:"the table's columns, in order"`
	// LoadReport says what the CSV conversion could not represent exactly.
	LoadReport *dataset.LoadReport `json:"load_report,omitempty" jsonschema:"what converting the CSV skipped or could not parse"`
	// LoadSummary is the load report in one paragraph.
	LoadSummary string `json:"load_summary,omitempty" jsonschema:"the load report in words"`
}

// ColumnInfo is one column of the table.
type ColumnInfo struct {
	Name string `json:"name" jsonschema:"the column name, as award_data calls take it"`
	// Type is the award_data kind: text, category, int, float or date.
	Type string `json:"type" jsonschema:"text, category (few distinct values), int, float or date"`
	// Arrow is the Arrow type of the column.
	Arrow string `json:"arrow_type" jsonschema:"the Arrow storage type"`
	// Nulls counts empty or unparseable fields.
	Nulls int `json:"nulls" jsonschema:"rows where the field is null (empty or unparseable in the CSV)"`
}

// describeData reads the schema and null counts from the Arrow file once.
func (s *Server) describeData() (*DataDescription, error) {
	s.dataOnce.Do(func() {
		src := s.opts.Data
		if src == nil || s.opts.Session.DataPath == "" {
			s.data = &DataDescription{Description: "no data is loaded: award_data calls report that nothing is loaded", Columns: []ColumnInfo{}}
			return
		}
		d := &DataDescription{
			Loaded:      true,
			Synthetic:   src.Synthetic,
			Description: src.Describe(),
			Origin:      originName(src.Kind),
			URL:         src.URL,
			Rows:        src.Rows,
			LoadReport:  src.Report,
		}
		if src.Synthetic {
			d.Notice = cellresult.SyntheticNotice(src.Rows)
		}
		if src.Report != nil {
			d.LoadSummary = src.Report.Summary()
		}
		ds, err := dataset.OpenFile(s.opts.Session.DataPath)
		if err != nil {
			s.dataErr = fmt.Errorf("reading the awards data: %w", err)
			return
		}
		defer ds.Close()
		rec := ds.Record()
		for i, f := range ds.Schema().Fields() {
			d.Columns = append(d.Columns, ColumnInfo{Name: f.Name, Type: kindName(f.Type.String()), Arrow: f.Type.String(), Nulls: rec.Column(i).NullN()})
		}
		d.Rows = int64(ds.NumRows())
		s.data = d
	})
	return s.data, s.dataErr
}

func originName(k dataset.SourceKind) string {
	switch k {
	case dataset.SourceCSVPath:
		return "SBIR_CSV_PATH"
	case dataset.SourceDownloaded:
		return "download"
	}
	return "embedded sample"
}

// kindName maps an Arrow type to the words award_data's docs use.
func kindName(arrow string) string {
	switch {
	case arrow == "utf8" || arrow == "large_utf8":
		return "text"
	case len(arrow) > 10 && arrow[:10] == "dictionary":
		return "category"
	case arrow == "float64":
		return "float"
	case arrow == "int64":
		return "int"
	case arrow == "date32":
		return "date"
	}
	return arrow
}

func jsonText(v any) (string, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	return string(b), err
}
