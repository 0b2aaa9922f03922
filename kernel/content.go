package kernel

// Message contents the kernel sends. Slices and maps that clients index
// are always non-nil so they marshal as [] and {}, never null.

type streamContent struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

type displayDataContent struct {
	Data      map[string]any `json:"data"`
	Metadata  map[string]any `json:"metadata"`
	Transient map[string]any `json:"transient"`
}

func displayContent(d DisplayData) displayDataContent {
	c := displayDataContent{Data: mimeBundle(d.Data), Metadata: nonNilMap(d.Metadata), Transient: map[string]any{}}
	if d.DisplayID != "" {
		c.Transient["display_id"] = d.DisplayID
	}
	return c
}

type executeInputContent struct {
	Code           string `json:"code"`
	ExecutionCount int    `json:"execution_count"`
}

type executeResultContent struct {
	ExecutionCount int            `json:"execution_count"`
	Data           map[string]any `json:"data"`
	Metadata       map[string]any `json:"metadata"`
}

// errorContent is both the iopub error message and the error fields of
// replies.
type errorContent struct {
	Status    string   `json:"status,omitempty"`
	EName     string   `json:"ename"`
	EValue    string   `json:"evalue"`
	Traceback []string `json:"traceback"`
}

func newErrorContent(status string, e *ExecError) errorContent {
	tb := e.Traceback
	if tb == nil {
		tb = []string{}
	}
	return errorContent{Status: status, EName: e.Name, EValue: e.Value, Traceback: tb}
}

type executeReplyContent struct {
	Status          string         `json:"status"`
	ExecutionCount  int            `json:"execution_count"`
	UserExpressions map[string]any `json:"user_expressions"`
	Payload         []any          `json:"payload"`
}

type executeErrorReplyContent struct {
	errorContent
	ExecutionCount  int            `json:"execution_count"`
	UserExpressions map[string]any `json:"user_expressions"`
	Payload         []any          `json:"payload"`
}

// HelpLink is one entry of kernel_info's help_links (the Help menu).
type HelpLink struct {
	Text string `json:"text"`
	URL  string `json:"url"`
}

type languageInfo struct {
	Name              string `json:"name"`
	Version           string `json:"version"`
	Mimetype          string `json:"mimetype"`
	FileExtension     string `json:"file_extension"`
	PygmentsLexer     string `json:"pygments_lexer"`
	CodemirrorMode    string `json:"codemirror_mode"`
	NbconvertExporter string `json:"nbconvert_exporter"`
}

type kernelInfoContent struct {
	Status                string       `json:"status"`
	ProtocolVersion       string       `json:"protocol_version"`
	Implementation        string       `json:"implementation"`
	ImplementationVersion string       `json:"implementation_version"`
	LanguageInfo          languageInfo `json:"language_info"`
	Banner                string       `json:"banner"`
	HelpLinks             []HelpLink   `json:"help_links"`
	Debugger              bool         `json:"debugger"`
}

type completeReplyContent struct {
	Status      string         `json:"status"`
	Matches     []string       `json:"matches"`
	CursorStart int            `json:"cursor_start"`
	CursorEnd   int            `json:"cursor_end"`
	Metadata    map[string]any `json:"metadata"`
}

type inspectReplyContent struct {
	Status   string         `json:"status"`
	Found    bool           `json:"found"`
	Data     map[string]any `json:"data"`
	Metadata map[string]any `json:"metadata"`
}

type isCompleteReplyContent struct {
	Status string `json:"status"`
	Indent string `json:"indent,omitempty"`
}

// mimeBundle returns data with a text/plain entry, as every client expects.
func mimeBundle(data map[string]any) map[string]any {
	out := make(map[string]any, len(data)+1)
	for k, v := range data {
		out[k] = v
	}
	if _, ok := out["text/plain"]; !ok {
		out["text/plain"] = ""
	}
	return out
}

func nonNilMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}
