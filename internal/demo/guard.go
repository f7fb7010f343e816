package demo

import (
	"bytes"
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// guard is receiving middleware that keeps any request from crashing the
// server. The demo must survive whatever a client under development sends,
// and two things get past a tool handler's own defences:
//
//   - "arguments": null. go-sdk v1.8.0 decodes it into a nil map and
//     jsonschema-go then panics applying a schema default to it, before the
//     handler runs; a go-sdk client sends exactly this when CallToolParams.
//     Arguments holds a nil map. guard treats null as "no arguments".
//   - any other panic below the handler (in the SDK's typed-tool wrapper,
//     say), which would otherwise end the whole process. guard turns it into
//     a JSON-RPC internal error for that one request.
func guard(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		defer func() {
			if r := recover(); r != nil {
				res, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("demo server: internal error in %s: %v", method, r)}
			}
		}()
		if call, ok := req.(*mcp.CallToolRequest); ok && call.Params != nil &&
			bytes.Equal(bytes.TrimSpace(call.Params.Arguments), []byte("null")) {
			call.Params.Arguments = nil
		}
		return next(ctx, method, req)
	}
}
