package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// addExactTool registers a tool as mcp.AddTool does (schemas inferred
// from In and Out, arguments validated, the result as structured content
// and as its JSON text), except that the result is sent as this server
// encodes it. mcp.AddTool validates a result by decoding it into float64s
// and encoding it again (go-sdk v1.8.0, mcp/tool.go applySchema), which
// turns an integer past 2^53 in a frame's records into another number
// (modelcontextprotocol/go-sdk#1201, fix proposed in #1244). The result
// types are this package's own, so their shape needs no check at run
// time; the output schema is still advertised.
func addExactTool[In, Out any](s *mcp.Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, *Out]) error {
	in, err := jsonschema.For[In](nil)
	if err != nil {
		return fmt.Errorf("tool %s: input schema: %w", t.Name, err)
	}
	resolved, err := in.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		return fmt.Errorf("tool %s: input schema: %w", t.Name, err)
	}
	out, err := jsonschema.For[Out](nil)
	if err != nil {
		return fmt.Errorf("tool %s: output schema: %w", t.Name, err)
	}
	tool := *t
	tool.InputSchema, tool.OutputSchema = in, out
	s.AddTool(&tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, err := decodeArguments[In](req.Params.Arguments, resolved)
		if err != nil {
			return errorResult(fmt.Errorf("validating \"arguments\": %w", err)), nil
		}
		res, v, err := h(ctx, req, args)
		if err != nil {
			if wireErr, ok := errors.AsType[*jsonrpc.Error](err); ok {
				return nil, wireErr
			}
			return errorResult(err), nil
		}
		if res == nil {
			res = &mcp.CallToolResult{}
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("encoding the result of %s: %w", t.Name, err)
		}
		res.StructuredContent = json.RawMessage(b)
		if res.Content == nil {
			res.Content = []mcp.Content{&mcp.TextContent{Text: string(b)}}
		}
		return res, nil
	})
	return nil
}

// decodeArguments checks a call's arguments against the input schema
// (an absent argument object is an empty one) and decodes them.
func decodeArguments[In any](raw json.RawMessage, schema *jsonschema.Resolved) (In, error) {
	var in In
	m := map[string]any{}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &m); err != nil {
			return in, err
		}
	}
	if err := schema.Validate(m); err != nil {
		return in, err
	}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &in); err != nil {
			return in, err
		}
	}
	return in, nil
}

func errorResult(err error) *mcp.CallToolResult {
	var res mcp.CallToolResult
	res.SetError(err)
	return &res
}
