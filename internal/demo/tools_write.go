package demo

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The write tools cover every combination of the two hints that matter for
// a write: destructiveHint (may it lose data?) and idempotentHint (is a
// repeat harmless?). All of them are closed world: they touch only this
// server's notes.

func (s *Server) addWriteTools() {
	addTool(s, &mcp.Tool{
		Name:        "add_note",
		Title:       "Add a note",
		Description: "Creates a new note; additive (nothing is overwritten) but not idempotent, because calling it twice makes two notes.",
		InputSchema: schema(`{"type":"object","required":["title"],"properties":{
			"title":{"type":"string","minLength":1,"description":"a short title"},
			"content":{"type":"string","description":"the body of the note"},
			"tags":{"type":"array","items":{"type":"string"},"description":"labels to file the note under"},
			"pinned":{"type":"boolean","description":"keep the note at the top"}}}`),
		Annotations: &mcp.ToolAnnotations{DestructiveHint: flag(false), IdempotentHint: false, OpenWorldHint: flag(false)},
		Meta: examples(
			map[string]any{"title": "Buy groceries", "content": "Milk, eggs, bread"},
			map[string]any{"title": "Fix login bug", "tags": []any{"work"}},
		),
	}, s.addNote)

	addTool(s, &mcp.Tool{
		Name:        "tag_note",
		Description: "Adds a tag to a note; idempotent, because tagging it again with the same tag changes nothing, so a retry is safe.",
		InputSchema: schema(`{"type":"object","required":["id","tag"],"properties":{
			"id":{"type":"integer","description":"the note id"},
			"tag":{"type":"string","minLength":1,"description":"the tag to add"}}}`),
		Annotations: &mcp.ToolAnnotations{Title: "Tag a note", DestructiveHint: flag(false), IdempotentHint: true, OpenWorldHint: flag(false)},
		Meta:        examples(map[string]any{"id": 2, "tag": "errands"}, map[string]any{"id": 3, "tag": "urgent"}),
	}, s.tagNote)

	addTool(s, &mcp.Tool{
		Name:        "delete_note",
		Title:       "Delete a note",
		Description: "Deletes a note for good; destructive, so clients should ask first, and idempotent, because deleting a note that is already gone changes nothing.",
		InputSchema: schema(`{"type":"object","required":["id"],"properties":{
			"id":{"type":"integer","description":"the note id"}}}`),
		Annotations: &mcp.ToolAnnotations{DestructiveHint: flag(true), IdempotentHint: true, OpenWorldHint: flag(false)},
		Meta:        examples(map[string]any{"id": 2}),
	}, s.deleteNote)

	addTool(s, &mcp.Tool{
		Name:        "pop_note",
		Title:       "Pop the newest note",
		Description: "Removes the newest note and returns it; destructive and not idempotent, because every call removes another note.",
		InputSchema: schema(emptyInput),
		Annotations: &mcp.ToolAnnotations{DestructiveHint: flag(true), IdempotentHint: false, OpenWorldHint: flag(false)},
	}, s.popNote)

	addTool(s, &mcp.Tool{
		Name:        "archive_notes",
		Title:       "Archive old notes",
		Description: "Only moves notes older than the given number of days to the archive, where list_notes no longer shows them.",
		InputSchema: schema(`{"type":"object","required":["older_than_days"],"properties":{
			"older_than_days":{"type":"integer","minimum":0,"description":"archive notes created more than this many days ago"}}}`),
		// destructiveHint is left out on purpose, and the description plays
		// it down: the classic author mistake. Archived notes leave the
		// workspace and nothing brings them back, and by the spec a missing
		// destructiveHint means true, so clients must ask before running
		// it; mcpsh shows the hint as implied and its audit flags the tool.
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: false, OpenWorldHint: flag(false)},
		Meta:        examples(map[string]any{"older_than_days": 30}),
	}, s.archiveNotes)
}

type addNoteInput struct {
	Title   string   `json:"title"`
	Content string   `json:"content"`
	Tags    []string `json:"tags"`
	Pinned  bool     `json:"pinned"`
}

func (s *Server) addNote(_ context.Context, _ *mcp.CallToolRequest, in addNoteInput) (*mcp.CallToolResult, any, error) {
	title := strings.TrimSpace(in.Title)
	if title == "" {
		return nil, nil, fmt.Errorf("title must not be blank")
	}
	n := s.notes.add(title, in.Content, in.Tags, in.Pinned)
	return textResult("Added note #%d: %s", n.ID, n.Title), nil, nil
}

type tagNoteInput struct {
	ID  int    `json:"id"`
	Tag string `json:"tag"`
}

func (s *Server) tagNote(_ context.Context, _ *mcp.CallToolRequest, in tagNoteInput) (*mcp.CallToolResult, any, error) {
	tag := strings.TrimSpace(in.Tag)
	if tag == "" {
		return nil, nil, fmt.Errorf("tag must not be blank")
	}
	n, added, ok := s.notes.tag(in.ID, tag)
	if !ok {
		return nil, nil, fmt.Errorf("no note with id %d", in.ID)
	}
	if !added {
		return textResult("Note #%d already has tag %q; nothing changed.", n.ID, tag), nil, nil
	}
	return textResult("Tagged note #%d %q; its tags are now %s.", n.ID, tag, strings.Join(n.Tags, ", ")), nil, nil
}

func (s *Server) deleteNote(_ context.Context, _ *mcp.CallToolRequest, in idInput) (*mcp.CallToolResult, any, error) {
	n, ok := s.notes.remove(in.ID)
	if !ok {
		// Not an error: the caller wanted the note gone, and it is. This is
		// what makes a retried delete safe.
		return textResult("Note #%d does not exist; nothing to delete.", in.ID), nil, nil
	}
	return textResult("Deleted note #%d: %s", n.ID, n.Title), nil, nil
}

func (s *Server) popNote(_ context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	n, ok := s.notes.pop()
	if !ok {
		return nil, nil, fmt.Errorf("the workspace is empty; nothing to pop")
	}
	return textResult("Removed the newest note:\n%s", render(n, s.now())), nil, nil
}

type archiveInput struct {
	OlderThanDays int `json:"older_than_days"`
}

func (s *Server) archiveNotes(_ context.Context, _ *mcp.CallToolRequest, in archiveInput) (*mcp.CallToolResult, any, error) {
	if in.OlderThanDays < 0 {
		return nil, nil, fmt.Errorf("older_than_days must not be negative")
	}
	days := min(in.OlderThanDays, 100*365) // keeps the date arithmetic sane
	moved := s.notes.archive(s.now().Add(-time.Duration(days) * 24 * time.Hour))
	if len(moved) == 0 {
		return textResult("No notes older than %d days.", days), nil, nil
	}
	titles := make([]string, len(moved))
	for i, n := range moved {
		titles[i] = fmt.Sprintf("#%d %s", n.ID, n.Title)
	}
	return textResult("Archived %d note(s); they no longer appear in list_notes: %s", len(moved), strings.Join(titles, "; ")), nil, nil
}
