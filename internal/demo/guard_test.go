package demo

import (
	"context"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestNullArguments sends "arguments": null (what a go-sdk client sends for
// a nil map) to a tool whose schema has defaults. Unguarded, go-sdk v1.8.0
// panics and the whole server process dies.
func TestNullArguments(t *testing.T) {
	s := New()
	cs := connect(t, s, nil)
	var nilArgs map[string]any
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "weather_forecast", Arguments: nilArgs})
	if err != nil {
		t.Fatalf("weather_forecast with null arguments: %v", err)
	}
	if !res.IsError {
		t.Errorf("weather_forecast without a city: %q, want isError", text(res))
	}
	res = call(t, cs, "slow_count", map[string]any{"n": 1, "delay_ms": 0})
	if res.IsError {
		t.Errorf("server unwell after null arguments: %s", text(res))
	}
}

func TestGuardRecovers(t *testing.T) {
	h := guard(func(context.Context, string, mcp.Request) (mcp.Result, error) { panic("boom") })
	_, err := h(t.Context(), "tools/call", &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "x"}})
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInternalError {
		t.Errorf("guard returned %v, want a JSON-RPC internal error", err)
	}
}
