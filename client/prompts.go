package client

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Prompt is one prompt a server lists. Its text is the server's.
type Prompt struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments"`
}

// PromptArgument is one argument a prompt takes; every value is a string.
type PromptArgument struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required"`
}

// DisplayName is the title, else the name.
func (p *Prompt) DisplayName() string { return orName(p.Title, p.Name) }

// PromptListing is every page of prompts/list.
type PromptListing struct {
	Prompts  []*Prompt
	Warnings []string
}

// ListPrompts lists every prompt, page by page.
func (s *Session) ListPrompts(ctx context.Context) (*PromptListing, error) {
	if !s.Server().Capabilities.Prompts {
		return nil, fmt.Errorf("listing prompts: %w", ErrNotOffered)
	}
	cs := s.current().cs
	out := &PromptListing{}
	err := paginate("prompts", &out.Warnings, func(cursor string) (string, error) {
		res, err := cs.ListPrompts(ctx, &mcp.ListPromptsParams{Cursor: cursor})
		if err != nil {
			return "", err
		}
		for _, p := range res.Prompts {
			if p == nil {
				continue
			}
			pr := &Prompt{Name: p.Name, Title: p.Title, Description: p.Description, Arguments: []PromptArgument{}}
			for _, a := range p.Arguments {
				if a != nil {
					pr.Arguments = append(pr.Arguments, PromptArgument{Name: a.Name, Title: a.Title, Description: a.Description, Required: a.Required})
				}
			}
			out.Prompts = append(out.Prompts, pr)
		}
		return res.NextCursor, nil
	})
	if err != nil {
		return nil, s.listError("prompts", err)
	}
	return out, nil
}

// PromptMessage is one message of a prompt's result.
type PromptMessage struct {
	Role  string `json:"role"`
	Block Block  `json:"-"`
	// Content is the content block as the server sent it, for --json.
	Content json.RawMessage `json:"content"`
}

// PromptResult is what prompts/get returned.
type PromptResult struct {
	Description string          `json:"description,omitempty"`
	Messages    []PromptMessage `json:"messages"`
}

// GetPrompt gets a prompt with its arguments. A required argument left out is
// an *ArgError and nothing is sent.
func (s *Session) GetPrompt(ctx context.Context, p *Prompt, args map[string]string) (*PromptResult, error) {
	for _, a := range p.Arguments {
		if a.Required && args[a.Name] == "" {
			return nil, &ArgError{Tool: safeText(p.Name), Arg: safeText(a.Name), Rule: "required but missing"}
		}
	}
	known := map[string]bool{}
	for _, a := range p.Arguments {
		known[a.Name] = true
	}
	for k := range args {
		if !known[k] {
			return nil, &ArgError{Tool: safeText(p.Name), Arg: safeText(k), Rule: "not an argument this prompt takes"}
		}
	}
	res, err := s.getPrompt(ctx, &mcp.GetPromptParams{Name: p.Name, Arguments: args})
	if err != nil {
		return nil, fmt.Errorf("getting prompt %s: %s", termtext.Line(p.Name), s.Target.Redact(termtext.Line(err.Error())))
	}
	out := &PromptResult{Description: res.Description, Messages: []PromptMessage{}}
	for _, m := range res.Messages {
		if m == nil {
			continue
		}
		raw, err := json.Marshal(m.Content)
		if err != nil {
			raw = json.RawMessage(`{"type":"invalid"}`)
		}
		out.Messages = append(out.Messages, PromptMessage{Role: string(m.Role), Block: parseBlock(raw), Content: raw})
	}
	return out, nil
}
