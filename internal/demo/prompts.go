package demo

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The prompts: templates of a conversation a user picks and fills in. Their
// arguments complete (complete.go): a note's id from the notes there are, a
// style from a fixed list, a tag from the tags in use.

// styles are summarize_note's styles, the first the default.
var styles = []string{"brief", "detailed", "bullets"}

var styleAsks = map[string]string{
	"brief":    "Summarize the note above in one or two sentences.",
	"detailed": "Summarize the note above in a short paragraph, keeping every task and date it mentions.",
	"bullets":  "Summarize the note above as a bulleted list, one point per line.",
}

func (s *Server) addPrompts() {
	s.mcp.AddPrompt(&mcp.Prompt{
		Name:        "summarize_note",
		Title:       "Summarize a note",
		Description: "Asks the model to summarize one note, embedded in the prompt as its resource; id and style complete.",
		Arguments: []*mcp.PromptArgument{
			{Name: "id", Title: "Note id", Description: "the note to summarize, as in note://{id}", Required: true},
			{Name: "style", Title: "Style", Description: "brief (the default), detailed or bullets"},
		},
	}, s.summarizeNote)
	s.mcp.AddPrompt(&mcp.Prompt{
		Name:        "triage_notes",
		Title:       "Triage notes",
		Description: "Asks the model what to do next about the notes with a tag, or all of them; the tag completes from the workspace.",
		Arguments: []*mcp.PromptArgument{
			{Name: "tag", Title: "Tag", Description: "only the notes with this tag"},
		},
	}, s.triageNotes)
}

// badArgument is a prompt's answer to an argument it cannot use.
func badArgument(format string, args ...any) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}

func (s *Server) summarizeNote(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	args := req.Params.Arguments
	id, err := strconv.Atoi(strings.TrimSpace(args["id"]))
	if err != nil {
		return nil, badArgument("argument id: %q is not a note id (list_notes shows them)", args["id"])
	}
	n, ok := s.notes.get(id)
	if !ok {
		return nil, badArgument("argument id: no note with id %d (list_notes shows them)", id)
	}
	style := strings.TrimSpace(args["style"])
	if style == "" {
		style = styles[0]
	}
	if !slices.Contains(styles, style) {
		return nil, badArgument("argument style: %q is not one of %s", style, strings.Join(styles, ", "))
	}
	return &mcp.GetPromptResult{
		Description: fmt.Sprintf("Summarize note #%d (%s)", n.ID, style),
		Messages: []*mcp.PromptMessage{
			{Role: "user", Content: &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: noteURI(n.ID), MIMEType: noteMIME, Text: markdown(n)}}},
			{Role: "user", Content: &mcp.TextContent{Text: styleAsks[style]}},
		},
	}, nil
}

func (s *Server) triageNotes(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	tag := strings.TrimSpace(req.Params.Arguments["tag"])
	notes := s.notes.list(tag)
	var b strings.Builder
	if tag == "" {
		b.WriteString("Here are the notes of my workspace:\n")
	} else {
		fmt.Fprintf(&b, "Here are my notes tagged %q:\n", tag)
	}
	for _, n := range notes {
		fmt.Fprintf(&b, "\n- #%d %s: %s", n.ID, n.Title, n.Content)
	}
	if len(notes) == 0 {
		b.WriteString("\n(none)")
	}
	b.WriteString("\n\nWhich of them need doing first, which can wait, and which could be archived?")
	what := "all notes"
	if tag != "" {
		what = "notes tagged " + tag
	}
	return &mcp.GetPromptResult{
		Description: fmt.Sprintf("Triage %s (%d)", what, len(notes)),
		Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: b.String()}}},
	}, nil
}
