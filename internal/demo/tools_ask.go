//lint:file-ignore SA1019 the demo shows SEP-2577's deprecated sampling, which servers still use through the deprecation window

package demo

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tools that ask the client for something (asks.go): rename_note asks
// the user for a title it lacks, suggest_title asks the client's model for
// one. Both say plainly what they need when the client does not offer it,
// and change nothing then.

// titleMax bounds a title, given or suggested.
const titleMax = 120

func (s *Server) addAskTools() {
	addTool(s, &mcp.Tool{
		Name:        "rename_note",
		Title:       "Rename a note",
		Description: "Gives a note a new title and asks the user for it by elicitation when the call has none; destructive, because the old title is overwritten, and idempotent, because the same title again changes nothing.",
		InputSchema: schema(`{"type":"object","required":["id"],"properties":{
			"id":{"type":"integer","description":"the note id"},
			"title":{"type":"string","minLength":1,"maxLength":120,"description":"the new title; left out, the user is asked for it"}}}`),
		Annotations: &mcp.ToolAnnotations{DestructiveHint: flag(true), IdempotentHint: true, OpenWorldHint: flag(false)},
		Meta:        examples(map[string]any{"id": 2}, map[string]any{"id": 2, "title": "Groceries"}),
	}, s.renameNote)

	// suggest_title is closed world. The spec's open world is the outside
	// entities a tool reaches (the web, a mailbox, a third party's API);
	// sampling reaches none: the request goes back to the client that made
	// the call, which shows it to its user, picks the model (or, in mcpsh,
	// has a person write the reply) and may refuse. Where the text then
	// goes is the client's decision, made and shown there, not this tool's.
	addTool(s, &mcp.Tool{
		Name:        "suggest_title",
		Title:       "Suggest a title",
		Description: "Asks the client's model by sampling for a short title for a note and returns it without changing anything; read-only, and closed world because the request goes only to the client that made the call.",
		InputSchema: schema(`{"type":"object","required":["id"],"properties":{
			"id":{"type":"integer","description":"the note id"}}}`),
		Annotations: readOnly(""),
		Meta:        examples(map[string]any{"id": 3}),
	}, s.suggestTitle)
}

type renameInput struct {
	ID    int    `json:"id"`
	Title string `json:"title"`
}

func (s *Server) renameNote(ctx context.Context, req *mcp.CallToolRequest, in renameInput) (*mcp.CallToolResult, any, error) {
	n, ok := s.notes.get(in.ID)
	if !ok {
		return nil, nil, fmt.Errorf("no note with id %d (list_notes shows the ids)", in.ID)
	}
	title := strings.TrimSpace(in.Title)
	if in.Title != "" && title == "" {
		return nil, nil, fmt.Errorf("title must not be blank")
	}
	if title == "" {
		if !canElicit(req) {
			return nil, nil, fmt.Errorf("rename_note needs a title: pass title, or call it from a client that offers elicitation, which asks the user; nothing was changed")
		}
		a := ask(ctx, req, "title", &mcp.ElicitParams{
			Message: fmt.Sprintf("Rename note #%d, now titled %q: what should its new title be?", n.ID, n.Title),
			// A map, not schema text: the current title is the default, and
			// a title may hold anything JSON must escape.
			RequestedSchema: map[string]any{"type": "object", "required": []string{"title"}, "properties": map[string]any{
				"title": map[string]any{"type": "string", "title": "New title", "minLength": 1, "maxLength": titleMax, "default": n.Title}}},
		})
		switch {
		case a.pending != nil:
			return a.pending, nil, nil
		case a.err != nil:
			return nil, nil, fmt.Errorf("the client gave no title (%v); nothing was changed", a.err)
		}
		r, ok := a.answer.(*mcp.ElicitResult)
		if !ok {
			return nil, nil, fmt.Errorf("the client answered the request for a title with something else (%T); nothing was changed", a.answer)
		}
		if r.Action != "accept" {
			// The user's choice, not a failure: the call did what they asked.
			return textResult("The user chose %s; note #%d keeps its title %q.", actionWord(r.Action), n.ID, n.Title), nil, nil
		}
		t, _ := r.Content["title"].(string)
		if title = strings.TrimSpace(t); title == "" {
			return nil, nil, fmt.Errorf("the title the user gave is blank; nothing was changed")
		}
	}
	if len([]rune(title)) > titleMax {
		return nil, nil, fmt.Errorf("the title is longer than %d characters; nothing was changed", titleMax)
	}
	before, changed, ok := s.notes.rename(in.ID, title)
	if !ok {
		return nil, nil, fmt.Errorf("no note with id %d any more; nothing was changed", in.ID)
	}
	if !changed {
		return textResult("Note #%d is already titled %q; nothing changed.", in.ID, title), nil, nil
	}
	return textResult("Renamed note #%d from %q to %q.", in.ID, before.Title, title), nil, nil
}

// actionWord is how a result names an elicitation the user did not accept.
func actionWord(action string) string {
	switch action {
	case "decline":
		return "to decline"
	case "cancel":
		return "to cancel"
	}
	return fmt.Sprintf("%q", action)
}

func (s *Server) suggestTitle(ctx context.Context, req *mcp.CallToolRequest, in idInput) (*mcp.CallToolResult, any, error) {
	n, ok := s.notes.get(in.ID)
	if !ok {
		return nil, nil, fmt.Errorf("no note with id %d (list_notes shows the ids)", in.ID)
	}
	if !canSample(req) {
		return nil, nil, fmt.Errorf("suggest_title asks the client's model, and this client does not offer sampling; nothing was asked")
	}
	a := ask(ctx, req, "suggestion", &mcp.CreateMessageParams{
		SystemPrompt:   "You suggest short, specific titles for notes.",
		Messages:       []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "Suggest a title of at most eight words for this note; reply with the title only.\n\n" + markdown(n)}}},
		MaxTokens:      40,
		IncludeContext: "none",
		ModelPreferences: &mcp.ModelPreferences{
			Hints:        []*mcp.ModelHint{{Name: "haiku"}},
			CostPriority: 0.8, SpeedPriority: 0.8, IntelligencePriority: 0.2,
		},
	})
	switch {
	case a.pending != nil:
		return a.pending, nil, nil
	case a.err != nil:
		return nil, nil, fmt.Errorf("the client did not answer the sampling request (%v); nothing was changed", a.err)
	}
	text, model := sampledText(a.answer)
	// A title is one line: the first the model wrote.
	title, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	if title = strings.TrimSpace(title); title == "" {
		return nil, nil, fmt.Errorf("the client's model sent back no text; nothing was changed")
	}
	if r := []rune(title); len(r) > titleMax {
		title = string(r[:titleMax]) + "…"
	}
	if model == "" {
		model = "an unnamed model"
	}
	return textResult("Suggested title for note #%d, from %s: %s\nNothing was changed; rename_note with this title applies it.", n.ID, model, title), nil, nil
}
