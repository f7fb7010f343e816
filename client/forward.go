package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Forward sends one request that no policy decides, for a caller that
// passes a host's requests on (a proxy), and returns the server's result
// as it came, its known secrets taken out (RedactJSON). It takes the
// listings of resources, resource templates and prompts (a page each: the
// cursor is the caller's to follow), prompts/get, resources/read and
// completion/complete. A session the server ended is brought back first.
// prompts/get and resources/read are answered in rounds when the server
// asks for more input (rounds_requests.go), by the session's own answerers.
//
// params are the request's params as JSON. Their _meta members go on,
// but for the connection's own (IsHopMeta); a round's inputResponses and
// requestState the caller sent are not: mcpsh runs the rounds. An error the
// server answered with is a *RemoteError.
func (s *Session) Forward(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	send, ok := forwarders[method]
	if !ok {
		return nil, fmt.Errorf("mcpsh does not forward %s", termtext.Line(method))
	}
	if len(params) == 0 || isNull(params) {
		params = json.RawMessage(`{}`)
	}
	var meta struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(params, &meta); err != nil {
		return nil, &RemoteError{Code: jsonrpc.CodeInvalidParams, Message: "the params of " + method + " are not a JSON object"}
	}
	if err := s.ensureConnected(ctx, s.now().Add(DefaultRetryMax)); err != nil {
		return nil, err
	}
	raw, err := send(ctx, s, params, callMeta(meta.Meta))
	if err != nil {
		return nil, s.remoteError(method, err)
	}
	raw, _ = s.Target.RedactJSON(raw)
	return raw, nil
}

// RemoteError is an error the server answered a forwarded request with:
// its JSON-RPC code, its message (secrets taken out) and its data (known
// secrets taken out).
type RemoteError struct {
	Code    int64
	Message string
	Data    json.RawMessage
}

func (e *RemoteError) Error() string { return e.Message }

// remoteError turns the server's JSON-RPC error into a RemoteError; any
// other error (the connection, a round the server broke) says what
// happened, redacted.
func (s *Session) remoteError(method string, err error) error {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		data, _ := s.Target.RedactJSON(je.Data)
		return &RemoteError{Code: je.Code, Message: s.Target.Redact(je.Message), Data: data}
	}
	return fmt.Errorf("%s: %s", method, s.Target.Redact(termtext.Line(err.Error())))
}

type forwarder func(ctx context.Context, s *Session, params json.RawMessage, meta mcp.Meta) (json.RawMessage, error)

// forwarders send each method Forward takes with go-sdk's typed call, the
// tap keeping the raw answer (tapraw.go, wiretap.go).
var forwarders = map[string]forwarder{
	"resources/list": func(ctx context.Context, s *Session, params json.RawMessage, meta mcp.Meta) (json.RawMessage, error) {
		var p mcp.ListResourcesParams
		if err := decodeForwarded(params, &p); err != nil {
			return nil, err
		}
		p.Meta = meta
		c := s.current()
		return s.rawCall(ctx, c, "resources/list", func(ctx context.Context) error {
			_, err := c.cs.ListResources(ctx, &p)
			return err
		})
	},
	"resources/templates/list": func(ctx context.Context, s *Session, params json.RawMessage, meta mcp.Meta) (json.RawMessage, error) {
		var p mcp.ListResourceTemplatesParams
		if err := decodeForwarded(params, &p); err != nil {
			return nil, err
		}
		p.Meta = meta
		c := s.current()
		return s.rawCall(ctx, c, "resources/templates/list", func(ctx context.Context) error {
			_, err := c.cs.ListResourceTemplates(ctx, &p)
			return err
		})
	},
	"prompts/list": func(ctx context.Context, s *Session, params json.RawMessage, meta mcp.Meta) (json.RawMessage, error) {
		var p mcp.ListPromptsParams
		if err := decodeForwarded(params, &p); err != nil {
			return nil, err
		}
		p.Meta = meta
		c := s.current()
		return s.rawCall(ctx, c, "prompts/list", func(ctx context.Context) error {
			_, err := c.cs.ListPrompts(ctx, &p)
			return err
		})
	},
	"completion/complete": func(ctx context.Context, s *Session, params json.RawMessage, meta mcp.Meta) (json.RawMessage, error) {
		var p mcp.CompleteParams
		if err := decodeForwarded(params, &p); err != nil {
			return nil, err
		}
		p.Meta = meta
		c := s.current()
		return s.rawCall(ctx, c, "completion/complete", func(ctx context.Context) error {
			_, err := c.cs.Complete(ctx, &p)
			return err
		})
	},
	"prompts/get": func(ctx context.Context, s *Session, params json.RawMessage, meta mcp.Meta) (json.RawMessage, error) {
		var p mcp.GetPromptParams
		if err := decodeForwarded(params, &p); err != nil {
			return nil, err
		}
		raw, err := s.inRounds(ctx, func(ctx context.Context, conn *connection, token string, in *roundInput) error {
			rp := &mcp.GetPromptParams{Name: p.Name, Arguments: p.Arguments, Meta: copyMeta(meta)}
			if in != nil {
				rp.InputResponses, rp.RequestState = in.responses, in.state
			}
			rp.SetProgressToken(token)
			_, err := conn.cs.GetPrompt(ctx, rp)
			return err
		})
		if err == nil && raw == nil {
			return nil, errors.New("the answer never reached mcpsh")
		}
		return raw, err
	},
	"resources/read": func(ctx context.Context, s *Session, params json.RawMessage, meta mcp.Meta) (json.RawMessage, error) {
		var p mcp.ReadResourceParams
		if err := decodeForwarded(params, &p); err != nil {
			return nil, err
		}
		raw, err := s.inRounds(withKeepAnswer(ctx), func(ctx context.Context, conn *connection, token string, in *roundInput) error {
			rp := &mcp.ReadResourceParams{URI: p.URI, Meta: copyMeta(meta)}
			if in != nil {
				rp.InputResponses, rp.RequestState = in.responses, in.state
			}
			rp.SetProgressToken(token)
			_, err := conn.cs.ReadResource(ctx, rp)
			return err
		})
		if err == nil && raw == nil {
			return nil, errors.New("the answer never reached mcpsh")
		}
		return raw, err
	},
}

// decodeForwarded reads a forwarded request's params into go-sdk's type;
// params that do not fit are the caller's error, and nothing is sent.
func decodeForwarded(params json.RawMessage, p any) error {
	if err := json.Unmarshal(params, p); err != nil {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: " + termtext.Line(err.Error())}
	}
	return nil
}

// copyMeta is a fresh _meta for each round: go-sdk writes into it.
func copyMeta(m mcp.Meta) mcp.Meta {
	if m == nil {
		return nil
	}
	out := make(mcp.Meta, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

type keepAnswerKey struct{}

// withKeepAnswer asks the tap to keep the final answer of a prompts/get or
// resources/read sent with the returned context, not only one that asks
// for more input: a forwarded request's result goes on as it came.
func withKeepAnswer(ctx context.Context) context.Context {
	return context.WithValue(ctx, keepAnswerKey{}, true)
}

func keepsAnswer(ctx context.Context) bool {
	keep, _ := ctx.Value(keepAnswerKey{}).(bool)
	return keep
}
