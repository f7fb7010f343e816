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

// ListPrompts lists every prompt, page by page, within the listing's budget
// (listbudget.go). Stopped at the budget, it keeps the prompts that came
// before, which are safe to show, and returns them with the
// *ListLimitError. A prompt mcpsh cannot read is skipped with a warning.
func (s *Session) ListPrompts(ctx context.Context) (*PromptListing, error) {
	if !s.Server().Capabilities.Prompts {
		return nil, fmt.Errorf("listing prompts: %w", ErrNotOffered)
	}
	c := s.current()
	out := &PromptListing{}
	warnings, err := s.paginate("prompts", "prompts", true, func(cursor string) (json.RawMessage, error) {
		return s.rawCall(ctx, c, "prompts/list", func(ctx context.Context) error {
			_, err := c.cs.ListPrompts(ctx, &mcp.ListPromptsParams{Cursor: cursor})
			return err
		})
	}, func(page, n int, item json.RawMessage) {
		pr, problems, err := promptItem(item)
		switch {
		case err != nil:
			out.Warnings = append(out.Warnings, skipped("prompt", page, n, err))
		case pr != nil:
			out.Prompts = append(out.Prompts, pr)
			out.Warnings = append(out.Warnings, problems...)
		}
	})
	out.Warnings = append(out.Warnings, warnings...)
	switch {
	case err == nil:
		return out, nil
	case isListLimit(err):
		return out, err
	}
	return nil, s.listError("prompts", err)
}

// PromptMessage is one message of a prompt's result.
type PromptMessage struct {
	Role  string `json:"role"`
	Block Block  `json:"-"`
	// Content is the content block as the server sent it, for machine-readable output.
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
	raw, err := s.getPrompt(ctx, &mcp.GetPromptParams{Name: p.Name, Arguments: args})
	if err != nil {
		return nil, fmt.Errorf("getting prompt %s: %s", termtext.Line(p.Name), s.Target.Redact(termtext.Line(err.Error())))
	}
	out, err := parsePromptResult(raw)
	if err != nil {
		return nil, fmt.Errorf("getting prompt %s: %s", termtext.Line(p.Name), err)
	}
	return out, nil
}

// parsePromptResult reads a prompts/get result as tools/call results are
// read (result.go): a content block of a type mcpsh does not know, or cannot
// read, is kept and shown as a one-line summary, never the end of the
// prompt, as it would be in go-sdk's typed decode.
func parsePromptResult(raw json.RawMessage) (*PromptResult, error) {
	var w struct {
		Description json.RawMessage   `json:"description"`
		Messages    []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, fmt.Errorf("the server's answer is not a prompt: %s", safeText(err.Error()))
	}
	out := &PromptResult{Messages: []PromptMessage{}}
	_ = json.Unmarshal(w.Description, &out.Description)
	for _, rm := range w.Messages {
		if isNull(rm) {
			continue
		}
		var m struct {
			Role    json.RawMessage `json:"role"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(rm, &m) != nil {
			out.Messages = append(out.Messages, PromptMessage{Block: parseBlock(rm), Content: rm})
			continue
		}
		var role string
		_ = json.Unmarshal(m.Role, &role)
		content := m.Content
		if len(content) == 0 {
			content = json.RawMessage("null")
		}
		out.Messages = append(out.Messages, PromptMessage{Role: role, Block: parseBlock(content), Content: content})
	}
	return out, nil
}
