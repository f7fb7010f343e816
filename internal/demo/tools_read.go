package demo

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// readOnly is the shape of every read tool on the workspace: it changes
// nothing, and it only sees this server's own notes (closed world).
func readOnly(title string) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: flag(false), Title: title}
}

func (s *Server) addReadTools() {
	addTool(s, &mcp.Tool{
		Name:        "list_notes",
		Title:       "List notes",
		Description: "Lists the ids and titles of the workspace's notes, optionally only those with a given tag; read-only, so it is safe to run without asking and to retry.",
		InputSchema: schema(`{"type":"object","properties":{
			"tag":{"type":"string","description":"only list notes carrying this tag"}}}`),
		Annotations: readOnly(""),
	}, s.listNotes)

	addTool(s, &mcp.Tool{
		Name:        "get_note",
		Description: "Shows one note in full (title, tags, content); read-only, and titled only through annotations.title.",
		InputSchema: schema(`{"type":"object","required":["id"],"properties":{
			"id":{"type":"integer","description":"the note id, as shown by list_notes"}}}`),
		Annotations: readOnly("Read a note"),
		Meta:        examples(map[string]any{"id": 1}, map[string]any{"id": 3}),
	}, s.getNote)

	addTool(s, &mcp.Tool{
		Name:        "search_notes",
		Description: "Finds notes whose title, content or tags contain the query (ignoring case) and returns the matches as structured content that follows the output schema.",
		InputSchema: schema(`{"type":"object","required":["query"],"properties":{
			"query":{"type":"string","minLength":1,"description":"text to look for"},
			"limit":{"type":"integer","minimum":1,"maximum":50,"default":10,"description":"at most this many matches"}}}`),
		OutputSchema: schema(`{"type":"object","required":["matches","total"],"additionalProperties":false,"properties":{
			"matches":{"type":"array","items":{"type":"object","required":["id","title","snippet"],"additionalProperties":false,"properties":{
				"id":{"type":"integer"},
				"title":{"type":"string"},
				"snippet":{"type":"string"}}}},
			"total":{"type":"integer","minimum":0,"description":"matches found before the limit was applied"}}}`),
		Annotations: readOnly("Search notes"),
		Meta:        examples(map[string]any{"query": "release"}, map[string]any{"query": "milk", "limit": 5}),
	}, s.searchNotes)
}

type listNotesInput struct {
	Tag string `json:"tag"`
}

func (s *Server) listNotes(_ context.Context, _ *mcp.CallToolRequest, in listNotesInput) (*mcp.CallToolResult, any, error) {
	notes := s.notes.list(in.Tag)
	if len(notes) == 0 {
		if in.Tag != "" {
			return textResult("No notes tagged %q.", in.Tag), nil, nil
		}
		return textResult("No notes. Add one with add_note."), nil, nil
	}
	var b strings.Builder
	for _, n := range notes {
		fmt.Fprintf(&b, "#%d %s", n.ID, n.Title)
		if len(n.Tags) > 0 {
			fmt.Fprintf(&b, " [%s]", strings.Join(n.Tags, ", "))
		}
		if n.Pinned {
			b.WriteString(" (pinned)")
		}
		b.WriteByte('\n')
	}
	return textResult("%s", strings.TrimSuffix(b.String(), "\n")), nil, nil
}

type idInput struct {
	ID int `json:"id"`
}

func (s *Server) getNote(_ context.Context, _ *mcp.CallToolRequest, in idInput) (*mcp.CallToolResult, any, error) {
	n, ok := s.notes.get(in.ID)
	if !ok {
		return nil, nil, fmt.Errorf("no note with id %d (list_notes shows the ids)", in.ID)
	}
	return textResult("%s", render(n, s.now())), nil, nil
}

// render formats a whole note for reading. Its age is in days, not its
// date: the seed notes are made relative to when the demo starts, so a
// date would make the same call read differently each day, and a session
// replayed tomorrow (log --as-script, expect digest) fail for nothing.
func render(n note, now time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#%d %s\n", n.ID, n.Title)
	if len(n.Tags) > 0 {
		fmt.Fprintf(&b, "tags: %s\n", strings.Join(n.Tags, ", "))
	}
	if n.Pinned {
		b.WriteString("pinned\n")
	}
	fmt.Fprintf(&b, "created: %s\n", age(n.Created, now))
	if n.Content != "" {
		fmt.Fprintf(&b, "\n%s", n.Content)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

type searchInput struct {
	Query string `json:"query"`
	Limit int    `json:"limit"`
}

// searchOutput is the structured content of search_notes; its JSON shape
// is the tool's output schema.
type searchOutput struct {
	Matches []searchMatch `json:"matches"`
	Total   int           `json:"total"`
}

type searchMatch struct {
	ID      int    `json:"id"`
	Title   string `json:"title"`
	Snippet string `json:"snippet"`
}

func (s *Server) searchNotes(_ context.Context, _ *mcp.CallToolRequest, in searchInput) (*mcp.CallToolResult, searchOutput, error) {
	if in.Query == "" {
		return nil, searchOutput{}, fmt.Errorf("query must not be empty")
	}
	limit := in.Limit
	if limit < 1 || limit > 50 {
		limit = 10 // the SDK applies the schema's default and bounds; this is only a guard
	}
	found := s.notes.search(in.Query)
	out := searchOutput{Matches: []searchMatch{}, Total: len(found)}
	for _, n := range found[:min(limit, len(found))] {
		out.Matches = append(out.Matches, searchMatch{ID: n.ID, Title: n.Title, Snippet: snippet(n.Content, in.Query)})
	}

	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d matches for %q", len(out.Matches), out.Total, in.Query)
	for _, m := range out.Matches {
		fmt.Fprintf(&b, "\n#%d %s: %s", m.ID, m.Title, m.Snippet)
	}
	return textResult("%s", b.String()), out, nil
}

// fold lower-cases s rune by rune, so that rune offsets in the result are
// rune offsets in s (strings.ToLower may change lengths).
func fold(s string) string { return strings.Map(unicode.ToLower, s) }

// snippet returns a short piece of content around the first match of query,
// or the start of content when the match was in the title or tags.
func snippet(content, query string) string {
	const before, width = 20, 60
	runes := []rune(content)
	start := 0
	if i := strings.Index(fold(content), fold(query)); i >= 0 {
		start = max(0, utf8.RuneCountInString(fold(content)[:i])-before)
	}
	end := min(len(runes), start+width)
	out := string(runes[start:end])
	if start > 0 {
		out = "…" + out
	}
	if end < len(runes) {
		out += "…"
	}
	return out
}

// age says how long ago t was, in whole days by the calendar.
func age(t, now time.Time) string {
	y1, m1, d1 := t.Date()
	y2, m2, d2 := now.Date()
	days := int(time.Date(y2, m2, d2, 0, 0, 0, 0, time.UTC).Sub(time.Date(y1, m1, d1, 0, 0, 0, 0, time.UTC)).Hours() / 24)
	switch {
	case days <= 0:
		return "today"
	case days == 1:
		return "yesterday"
	}
	return fmt.Sprintf("%d days ago", days)
}
