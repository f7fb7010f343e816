package demo

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The notes are resources too: note://1, note://2, … one per live note, and
// the template note://{id} for any of them, whose id completes (complete.go).
// The list follows the workspace: a note added, removed or archived by any
// tool changes it (resources/list_changed), and a note that changes tells
// the clients subscribed to it (resources/updated).

const (
	noteScheme   = "note://"
	noteTemplate = "note://{id}"
	noteMIME     = "text/markdown"
)

func noteURI(id int) string { return noteScheme + strconv.Itoa(id) }

// noteID reads a note's URI: note://N exactly, N a positive decimal without
// a sign or leading zeros, so that each note has one URI.
func noteID(uri string) (int, bool) {
	rest, ok := strings.CutPrefix(uri, noteScheme)
	if !ok {
		return 0, false
	}
	id, err := strconv.Atoi(rest)
	if err != nil || id < 1 || strconv.Itoa(id) != rest {
		return 0, false
	}
	return id, true
}

// addNoteResources registers the template and the seed notes' resources.
func (s *Server) addNoteResources() {
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: noteTemplate,
		Name:        "note",
		Title:       "Note by id",
		Description: "Any note of the workspace by its id, as Markdown; the id completes from the notes there are.",
		MIMEType:    noteMIME,
	}, s.readNote)
	s.publish(context.Background())
}

// resourceOf is how the resource list shows a note.
func resourceOf(n note) *mcp.Resource {
	return &mcp.Resource{
		URI:         noteURI(n.ID),
		Name:        fmt.Sprintf("note-%d", n.ID),
		Title:       n.Title,
		Description: describe(n),
		MIMEType:    noteMIME,
		Size:        int64(len(markdown(n))),
	}
}

// describe is a note's line in the resource list.
func describe(n note) string {
	var parts []string
	if len(n.Tags) > 0 {
		parts = append(parts, "tags: "+strings.Join(n.Tags, ", "))
	}
	if n.Pinned {
		parts = append(parts, "pinned")
	}
	if len(parts) == 0 {
		return "no tags"
	}
	return strings.Join(parts, " · ")
}

// markdown is a note as its resource reads. It leaves out the creation
// date, which would make the demo's answers depend on the day.
func markdown(n note) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n", n.Title)
	if d := describe(n); d != "no tags" {
		fmt.Fprintf(&b, "\n*%s*\n", d)
	}
	if n.Content != "" {
		fmt.Fprintf(&b, "\n%s\n", n.Content)
	}
	return b.String()
}

// readNote reads note://N, for the notes' resources and the template alike.
// A note that is not there (any more) is "not found", as the spec asks.
func (s *Server) readNote(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	id, ok := noteID(uri)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	n, ok := s.notes.get(id)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: noteMIME, Text: markdown(n)}}}, nil
}

// subscribe accepts a subscription to a note there is; go-sdk keeps the
// list of subscribers, and publish tells them.
func (s *Server) subscribe(_ context.Context, req *mcp.SubscribeRequest) error {
	if id, ok := noteID(req.Params.URI); ok {
		if _, ok := s.notes.get(id); ok {
			return nil
		}
	}
	return mcp.ResourceNotFoundError(req.Params.URI)
}

func (s *Server) unsubscribe(context.Context, *mcp.UnsubscribeRequest) error { return nil }

// listed is what the resource list says of one note, and its revision.
type listed struct {
	title, desc string
	rev         int
}

// publish brings the resource list up to date with the workspace and tells
// subscribers which notes changed or went away. Every tool handler calls it
// on its way out (addTool, addRawTool), so no tool that changes a note can
// forget to; it costs a lock and a compare when nothing changed.
func (s *Server) publish(ctx context.Context) {
	s.pubMu.Lock()
	if s.notes.generation() == s.pubGen {
		s.pubMu.Unlock()
		return
	}
	live, gen := s.notes.snapshot()
	var changed []int
	seen := make(map[int]bool, len(live))
	for _, n := range live {
		seen[n.ID] = true
		now := listed{n.Title, describe(n), n.Rev}
		was, ok := s.published[n.ID]
		if ok && was == now {
			continue
		}
		if !ok || was.title != now.title || was.desc != now.desc {
			s.mcp.AddResource(resourceOf(n), s.readNote) // replaces; go-sdk sends list_changed
		}
		if ok {
			changed = append(changed, n.ID)
		}
		s.published[n.ID] = now
	}
	for id := range s.published {
		if !seen[id] {
			s.mcp.RemoveResources(noteURI(id))
			delete(s.published, id)
			changed = append(changed, id)
		}
	}
	s.pubGen = gen
	s.pubMu.Unlock()

	// A note gone is a change too: its subscribers read it again and find
	// it is not there.
	slices.Sort(changed)
	ctx = context.WithoutCancel(ctx)
	for _, id := range changed {
		s.mcp.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: noteURI(id)})
	}
}
