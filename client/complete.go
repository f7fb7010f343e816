package client

import (
	"context"
	"fmt"

	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// CompletionRef says what a completion is for: a prompt's argument, or a
// resource template's variable. Exactly one of the two is set.
type CompletionRef struct {
	Prompt      string
	URITemplate string
}

// Completion is the server's suggestions for a value being typed.
type Completion struct {
	Values  []string `json:"values"`
	Total   int      `json:"total,omitempty"`
	HasMore bool     `json:"hasMore,omitempty"`
}

// maxCompletions is the spec's limit on the values of one answer; a server
// that sends more is cut to it (completionLimits).
const maxCompletions = 100

// Complete asks the server to complete the value of arg given so far, with
// the values of other arguments already chosen as context.
func (s *Session) Complete(ctx context.Context, ref CompletionRef, arg, value string, given map[string]string) (*Completion, error) {
	if !s.Server().Capabilities.Completions {
		return nil, fmt.Errorf("completing %s: %w", termtext.Line(arg), ErrNotOffered)
	}
	r := &mcp.CompleteReference{Type: "ref/prompt", Name: ref.Prompt}
	if ref.URITemplate != "" {
		r = &mcp.CompleteReference{Type: "ref/resource", URI: ref.URITemplate}
	}
	params := &mcp.CompleteParams{Ref: r, Argument: mcp.CompleteParamsArgument{Name: arg, Value: value}}
	if len(given) > 0 {
		params.Context = &mcp.CompleteContext{Arguments: given}
	}
	res, err := s.current().cs.Complete(ctx, params)
	if err != nil {
		return nil, fmt.Errorf("completing %s: %s", termtext.Line(arg), s.Target.Redact(termtext.Line(err.Error())))
	}
	c := &Completion{Values: []string{}, Total: res.Completion.Total, HasMore: res.Completion.HasMore}
	// Suggestions draw on a budget like a listing's (listbudget.go): past it
	// they are cut, as the spec cuts them at 100, and hasMore says so.
	b := &listBudget{lim: completionLimits}
	for _, v := range res.Completion.Values {
		if _, ok := b.take(1); !ok {
			c.HasMore = true
			break
		}
		if _, ok := b.spend(len(v)); !ok {
			c.HasMore = true
			break
		}
		c.Values = append(c.Values, v)
	}
	return c, nil
}
