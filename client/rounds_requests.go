package client

import (
	"context"
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
// round); the tap keeps an answer that asks for input, and hands go-sdk a
// shell in its place.
func (s *Session) inRounds(ctx context.Context, send func(ctx context.Context, conn *connection, token string, in *roundInput) error) error {
	rt := newRounds(s)
	for {
		conn := s.current()
		token := "mcpsh-" + strconv.FormatInt(s.seq.Add(1), 10)
		err := send(withCallToken(ctx, token), conn, token, rt.next)
		raw, kept := conn.tap.takeResult(token)
		conn.tap.forget(token)
		if err != nil || !kept {
			return err
		}
		if _, err := needsInput(raw); err != nil {
			return err
		}
		if err := rt.advance(ctx, raw); err != nil {
			return err
		}
	}
}

// getPrompt is cs.GetPrompt in as many rounds as the server asks for.
func (s *Session) getPrompt(ctx context.Context, p *mcp.GetPromptParams) (res *mcp.GetPromptResult, err error) {
	err = s.inRounds(ctx, func(ctx context.Context, conn *connection, token string, in *roundInput) error {
		params := &mcp.GetPromptParams{Name: p.Name, Arguments: p.Arguments}
		if in != nil {
			params.InputResponses, params.RequestState = in.responses, in.state
		}
		params.SetProgressToken(token)
		var err error
		res, err = conn.cs.GetPrompt(ctx, params)
		return err
	})
	return res, err
}

// readResource is cs.ReadResource in as many rounds as the server asks for.
func (s *Session) readResource(ctx context.Context, p *mcp.ReadResourceParams) (res *mcp.ReadResourceResult, err error) {
	err = s.inRounds(ctx, func(ctx context.Context, conn *connection, token string, in *roundInput) error {
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
