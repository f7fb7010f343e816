package client

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// prompts/get and resources/read may be answered in rounds too (SEP-2322).
// No policy decides them, and mcpsh does not retry them, so their rounds are
// simpler than a call's (execute.go): answer, send again, at most maxRounds
// times, and stop at the first violation.

// inRounds sends a request, and sends it again for as long as the server
// answers that it needs more input. send sends one round on conn, the
// request carrying token as its progress token and in (nil for the first
// round); the tap keeps an answer that asks for input (and every answer to
// prompts/get), and hands go-sdk a shell in its place. The final answer is
// returned when the tap kept it: nil means go-sdk's decode holds it.
func (s *Session) inRounds(ctx context.Context, send func(ctx context.Context, conn *connection, token string, in *roundInput) error) (json.RawMessage, error) {
	rt := newRounds(s)
	for {
		conn := s.current()
		token := "mcpsh-" + strconv.FormatInt(s.seq.Add(1), 10)
		err := send(withCallToken(ctx, token), conn, token, rt.next)
		raw, kept := conn.tap.takeResult(token)
		conn.tap.forget(token)
		if err != nil || !kept {
			return nil, err
		}
		more, err := needsInput(raw)
		if err != nil {
			return nil, err
		}
		if !more {
			return raw, nil
		}
		if err := rt.advance(ctx, raw); err != nil {
			return nil, err
		}
	}
}

// getPrompt is cs.GetPrompt in as many rounds as the server asks for; it
// returns the final result as the server sent it (prompts.go reads it).
func (s *Session) getPrompt(ctx context.Context, p *mcp.GetPromptParams) (json.RawMessage, error) {
	raw, err := s.inRounds(ctx, func(ctx context.Context, conn *connection, token string, in *roundInput) error {
		params := &mcp.GetPromptParams{Name: p.Name, Arguments: p.Arguments}
		if in != nil {
			params.InputResponses, params.RequestState = in.responses, in.state
		}
		params.SetProgressToken(token)
		_, err := conn.cs.GetPrompt(ctx, params)
		return err
	})
	if err == nil && raw == nil {
		return nil, fmt.Errorf("the answer to prompts/get never reached mcpsh")
	}
	return raw, err
}

// readResource is cs.ReadResource in as many rounds as the server asks for.
func (s *Session) readResource(ctx context.Context, p *mcp.ReadResourceParams) (res *mcp.ReadResourceResult, err error) {
	_, err = s.inRounds(ctx, func(ctx context.Context, conn *connection, token string, in *roundInput) error {
		params := &mcp.ReadResourceParams{URI: p.URI}
		if in != nil {
			params.InputResponses, params.RequestState = in.responses, in.state
		}
		params.SetProgressToken(token)
		var err error
		res, err = conn.cs.ReadResource(ctx, params)
		return err
	})
	return res, err
}
