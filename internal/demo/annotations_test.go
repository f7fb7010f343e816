package demo

import (
	"strings"
	"testing"
)

// shape is a tool's safety shape as the client receives it. For the *bool
// hints, "" means absent from the wire, "true" and "false" mean sent.
type shape struct {
	title, annTitle        string
	noAnnotations          bool
	readOnly, idempotent   bool
	destructive, openWorld string
}

// wantShapes is the contract of the demo: every annotation case mcpsh
// handles, once each. Changing a row changes what newcomers see first.
var wantShapes = map[string]shape{
	"list_notes":       {title: "List notes", readOnly: true, openWorld: "false"},
	"get_note":         {annTitle: "Read a note", readOnly: true, openWorld: "false"},
	"search_notes":     {annTitle: "Search notes", readOnly: true, openWorld: "false"},
	"add_note":         {title: "Add a note", destructive: "false", openWorld: "false"},
	"tag_note":         {annTitle: "Tag a note", destructive: "false", idempotent: true, openWorld: "false"},
	"delete_note":      {title: "Delete a note", destructive: "true", idempotent: true, openWorld: "false"},
	"pop_note":         {title: "Pop the newest note", destructive: "true", openWorld: "false"},
	"archive_notes":    {title: "Archive old notes", openWorld: "false"}, // destructiveHint absent: implied true
	"weather_forecast": {title: "Weather forecast", annTitle: "Forecast (annotations)", readOnly: true, openWorld: "true"},
	"send_message":     {title: "Send a message", destructive: "false", openWorld: "true"},
	"echo":             {noAnnotations: true},
	"slow_count":       {title: "Slow count", readOnly: true, openWorld: "false"},
	"flaky_sync":       {annTitle: "Sync notes (flaky)", destructive: "false", idempotent: true, openWorld: "false"},
	"render_chart":     {title: "Render a chart", readOnly: true, openWorld: "false"},
	"toggle_extras":    {title: "Toggle extra tools", destructive: "false", idempotent: true, openWorld: "false"},
	"rename_note":      {title: "Rename a note", destructive: "true", idempotent: true, openWorld: "false"},
	"suggest_title":    {title: "Suggest a title", readOnly: true, openWorld: "false"}, // sampling goes only to the caller: closed world
}

func hint(b *bool) string {
	switch {
	case b == nil:
		return ""
	case *b:
		return "true"
	default:
		return "false"
	}
}

func TestToolShapes(t *testing.T) {
	tools := listTools(t, connect(t, New(), nil))
	if len(tools) != len(wantShapes) {
		t.Errorf("server lists %d tools, want %d", len(tools), len(wantShapes))
	}
	for name, want := range wantShapes {
		tool, ok := tools[name]
		if !ok {
			t.Errorf("tool %s missing", name)
			continue
		}
		if tool.Title != want.title {
			t.Errorf("%s: title %q, want %q", name, tool.Title, want.title)
		}
		a := tool.Annotations
		if want.noAnnotations {
			if a != nil {
				t.Errorf("%s: annotations %+v, want none at all", name, a)
			}
			continue
		}
		if a == nil {
			t.Errorf("%s: no annotations", name)
			continue
		}
		got := shape{
			title: tool.Title, annTitle: a.Title,
			readOnly: a.ReadOnlyHint, idempotent: a.IdempotentHint,
			destructive: hint(a.DestructiveHint), openWorld: hint(a.OpenWorldHint),
		}
		if got != want {
			t.Errorf("%s:\n got %+v\nwant %+v", name, got, want)
		}
	}
}

// TestDescriptions keeps every description a single sentence that ends
// with a full stop, as the house style asks.
func TestDescriptions(t *testing.T) {
	for name, tool := range listTools(t, connect(t, New(), nil)) {
		d := tool.Description
		if d == "" || !strings.HasSuffix(d, ".") || strings.Contains(d, ". ") {
			t.Errorf("%s: description %q is not one sentence", name, d)
		}
	}
}
