package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An explicit null for an argument the schema lets be left out is sent as
// given, without its Mcp-Param header (SEP-2243: a null value gets none); a
// null where the schema requires a value is refused before anything is sent.
// The server is go-sdk's, which refuses a call whose Mcp-Param headers do
// not match its arguments.
func TestNullOptionalArgumentIsSentWithoutItsParamHeader(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "hdr", Version: "1"}, nil)
	echoTool(srv, "deploy", map[string]any{"type": "object", "required": []any{"region"}, "properties": map[string]any{
		"region":  map[string]any{"type": "string", "x-mcp-header": "Region"},
		"verbose": map[string]any{"type": "boolean", "x-mcp-header": "Verbose"},
		"target": map[string]any{"type": "object", "properties": map[string]any{
			"zone": map[string]any{"type": "string", "x-mcp-header": "Zone"}}},
	}})
	hs := &headerServer{headers: map[string]http.Header{}}
	s := connectFixture(t, httpTarget(hs.start(t, srv)), nil)
	tool := mustTool(t, s, "deploy")

	args := map[string]any{"region": "us-east1", "verbose": nil, "target": map[string]any{"zone": nil}}
	o, err := s.Do(context.Background(), &Call{Tool: tool, Args: args, Mode: policy.Batch, Attempts: 1})
	if err != nil {
		t.Fatalf("deploy with verbose null: %v", err)
	}
	if o.Protocol != "2026-07-28" {
		t.Fatalf("protocol %q: the server no longer speaks the version with Mcp-Param headers", o.Protocol)
	}
	h := hs.sent("deploy")
	if o.Status != StatusOK || h == nil {
		t.Fatalf("deploy: %s (%s), reached the server: %v", o.Status, o.Error, h != nil)
	}
	if h.Get("Mcp-Param-Region") != "us-east1" || len(paramNames(h)) != 1 {
		t.Errorf("param headers %v, want Mcp-Param-Region only", paramNames(h))
	}
	var content []struct{ Text string }
	if err := json.Unmarshal(o.Content, &content); err != nil || len(content) != 1 ||
		!strings.Contains(content[0].Text, `"verbose":null`) || !strings.Contains(content[0].Text, `"zone":null`) {
		t.Errorf("the server got %s: the nulls were not sent as given", o.Content)
	}

	hs.headers = map[string]http.Header{}
	_, err = s.Do(context.Background(), &Call{Tool: tool, Args: map[string]any{"region": nil}, Mode: policy.Batch, Attempts: 1})
	var ae *ArgError
	if !errors.As(err, &ae) || ae.Arg != "region" || !strings.Contains(ae.Rule, `null has type "null", want "string"`) {
		t.Errorf("region null: %v, want an argument error naming region and its null", err)
	}
	if hs.sent("deploy") != nil {
		t.Errorf("a call with a required argument null reached the server")
	}
}
