package demo

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// resourceURIs lists the resources as "uri title" lines.
func resourceURIs(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	res, err := cs.ListResources(t.Context(), nil)
	if err != nil {
		t.Fatalf("resources/list: %v", err)
	}
	var out []string
	for _, r := range res.Resources {
		out = append(out, r.URI+" "+r.Title)
	}
	return out
}

func readText(t *testing.T, cs *mcp.ClientSession, uri string) (string, error) {
	t.Helper()
	res, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return "", err
	}
	if len(res.Contents) != 1 || res.Contents[0].MIMEType != "text/markdown" || res.Contents[0].URI != uri {
		t.Fatalf("read %s: %+v", uri, res.Contents)
	}
	return res.Contents[0].Text, nil
}

func TestNotesAreResources(t *testing.T) {
	cs := connect(t, New(), nil)
	init := cs.InitializeResult().Capabilities
	if init.Resources == nil || !init.Resources.Subscribe || !init.Resources.ListChanged || init.Prompts == nil || init.Completions == nil {
		t.Errorf("capabilities %+v", init)
	}
	if got := strings.Join(resourceURIs(t, cs), "|"); got != "note://1 Welcome to mcpsh|note://2 Shopping list|note://3 Release checklist" {
		t.Errorf("resources: %s", got)
	}
	tl, err := cs.ListResourceTemplates(t.Context(), nil)
	if err != nil || len(tl.ResourceTemplates) != 1 || tl.ResourceTemplates[0].URITemplate != "note://{id}" {
		t.Fatalf("templates: %v %+v", err, tl)
	}
	got, err := readText(t, cs, "note://1")
	if err != nil || got != "# Welcome to mcpsh\n\n*tags: demo · pinned*\n\nThis workspace lives in memory. Try search_notes, then add_note.\n" {
		t.Errorf("note://1: %v %q", err, got)
	}
	for _, uri := range []string{"note://9", "note://02", "note://-1", "note://x", "note://"} {
		if _, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: uri}); err == nil || !strings.Contains(err.Error(), "not found") {
			t.Errorf("read %s: %v, want not found", uri, err)
		}
	}
}

// watcher is a client that reports the resource notifications it hears.
func watcher() (updated chan string, listChanged chan struct{}, opts *mcp.ClientOptions) {
	updated, listChanged = make(chan string, 10), make(chan struct{}, 10)
	return updated, listChanged, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) { updated <- r.Params.URI },
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
			select {
			case listChanged <- struct{}{}:
			default:
			}
		},
	}
}

func nextURI(t *testing.T, ch chan string, what string) string {
	t.Helper()
	select {
	case u := <-ch:
		return u
	case <-time.After(5 * time.Second):
		t.Fatalf("no resources/updated %s", what)
	}
	return ""
}

func TestResourceListFollowsTheNotes(t *testing.T) {
	_, changed, opts := watcher()
	cs := connect(t, New(), opts)
	callOK(t, cs, "add_note", map[string]any{"title": "Fourth"})
	next(t, changed, "resources/list_changed after add_note")
	if got := resourceURIs(t, cs); len(got) != 4 || got[3] != "note://4 Fourth" {
		t.Errorf("after add_note: %q", got)
	}
	callOK(t, cs, "archive_notes", map[string]any{"older_than_days": 30})
	next(t, changed, "resources/list_changed after archive_notes")
	if got := strings.Join(resourceURIs(t, cs), "|"); strings.Contains(got, "note://1") {
		t.Errorf("an archived note is still a resource: %s", got)
	}
}

func TestSubscribersHearOfTheirNotes(t *testing.T) {
	for _, v := range versions {
		t.Run(v, func(t *testing.T) {
			updated, _, opts := watcher()
			cs := connectAt(t, New(), opts, v)
			ctx := t.Context()
			if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "note://2"}); err != nil {
				t.Fatalf("subscribe: %v", err)
			}
			// At 2026-07-28 go-sdk's client subscribes on a stream of its own
			// and hears a refusal only there.
			if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "note://9"}); err == nil && v < roundsVersion {
				t.Error("subscribed to a note there is not")
			}
			// Note 3 changes, then note 2: the first update heard is note 2's,
			// because no one subscribed to note 3.
			callOK(t, cs, "tag_note", map[string]any{"id": 3, "tag": "urgent"})
			callOK(t, cs, "tag_note", map[string]any{"id": 2, "tag": "errands"})
			if u := nextURI(t, updated, "after tag_note"); u != "note://2" {
				t.Fatalf("first update for %s, want note://2", u)
			}
			if got, _ := readText(t, cs, "note://2"); !strings.Contains(got, "*tags: home, errands*") {
				t.Errorf("note://2 after tagging: %q", got)
			}
			// Tagging note 2 again changes nothing, so the next update is
			// the rename of note 1, subscribed to as well.
			if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "note://1"}); err != nil {
				t.Fatalf("subscribe: %v", err)
			}
			callOK(t, cs, "tag_note", map[string]any{"id": 2, "tag": "errands"})
			callOK(t, cs, "rename_note", map[string]any{"id": 1, "title": "Hello"})
			if u := nextURI(t, updated, "after rename_note"); u != "note://1" {
				t.Fatalf("update for %s, want note://1 (a tag that changed nothing was announced)", u)
			}
			if got := resourceURIs(t, cs); got[0] != "note://1 Hello" {
				t.Errorf("the list after the rename: %q", got)
			}
			// Deleted: the subscriber hears it, and reads that it is gone.
			callOK(t, cs, "delete_note", map[string]any{"id": 2})
			if u := nextURI(t, updated, "after delete_note"); u != "note://2" {
				t.Fatalf("update for %s, want note://2", u)
			}
			if _, err := readText(t, cs, "note://2"); err == nil {
				t.Error("note://2 reads after delete_note")
			}
		})
	}
}
