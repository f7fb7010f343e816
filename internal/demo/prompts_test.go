package demo

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestPrompts(t *testing.T) {
	cs := connect(t, New(), nil)
	ctx := t.Context()
	l, err := cs.ListPrompts(ctx, nil)
	if err != nil || len(l.Prompts) != 2 {
		t.Fatalf("prompts/list: %v %+v", err, l)
	}
	byName := map[string]*mcp.Prompt{}
	for _, p := range l.Prompts {
		byName[p.Name] = p
		if p.Title == "" || !strings.HasSuffix(p.Description, ".") {
			t.Errorf("%s: title %q, description %q", p.Name, p.Title, p.Description)
		}
	}
	if a := byName["summarize_note"].Arguments; len(a) != 2 || a[0].Name != "id" || !a[0].Required || a[1].Name != "style" || a[1].Required {
		t.Errorf("summarize_note arguments %+v", a)
	}

	res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "summarize_note", Arguments: map[string]string{"id": "3", "style": "bullets"}})
	if err != nil || len(res.Messages) != 2 {
		t.Fatalf("summarize_note id=3: %v %+v", err, res)
	}
	er, ok := res.Messages[0].Content.(*mcp.EmbeddedResource)
	if !ok || er.Resource.URI != "note://3" || !strings.HasPrefix(er.Resource.Text, "# Release checklist") {
		t.Errorf("the first message: %#v", res.Messages[0].Content)
	}
	if tc, ok := res.Messages[1].Content.(*mcp.TextContent); !ok || !strings.Contains(tc.Text, "bulleted list") {
		t.Errorf("the second message: %#v", res.Messages[1].Content)
	}
	if res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "summarize_note", Arguments: map[string]string{"id": "1"}}); err != nil ||
		res.Description != "Summarize note #1 (brief)" {
		t.Errorf("summarize_note without a style: %v %+v", err, res)
	}
	for args, want := range map[[2]string]string{
		{"9", ""}:      "no note with id 9",
		{"one", ""}:    `"one" is not a note id`,
		{"1", "haiku"}: `argument style: "haiku" is not one of brief, detailed, bullets`,
	} {
		_, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "summarize_note", Arguments: map[string]string{"id": args[0], "style": args[1]}})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("summarize_note %v: %v, want %q", args, err, want)
		}
	}

	res, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "triage_notes", Arguments: map[string]string{"tag": "work"}})
	if err != nil || len(res.Messages) != 1 {
		t.Fatalf("triage_notes tag=work: %v %+v", err, res)
	}
	if tc := res.Messages[0].Content.(*mcp.TextContent); !strings.Contains(tc.Text, "#3 Release checklist") || strings.Contains(tc.Text, "Shopping") {
		t.Errorf("triage_notes tag=work: %q", tc.Text)
	}
}

func TestCompletions(t *testing.T) {
	s := New()
	cs := connect(t, s, nil)
	complete := func(ref *mcp.CompleteReference, arg, value string) string {
		t.Helper()
		res, err := cs.Complete(t.Context(), &mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteParamsArgument{Name: arg, Value: value}})
		if err != nil {
			t.Fatalf("complete %s %s=%q: %v", ref.Type, arg, value, err)
		}
		if res.Completion.Total != len(res.Completion.Values) || res.Completion.HasMore {
			t.Errorf("complete %s %s=%q: total %d for %d values", ref.Type, arg, value, res.Completion.Total, len(res.Completion.Values))
		}
		return strings.Join(res.Completion.Values, ",")
	}
	tmpl := &mcp.CompleteReference{Type: "ref/resource", URI: "note://{id}"}
	summarize := &mcp.CompleteReference{Type: "ref/prompt", Name: "summarize_note"}
	triage := &mcp.CompleteReference{Type: "ref/prompt", Name: "triage_notes"}
	for _, c := range []struct {
		ref        *mcp.CompleteReference
		arg, value string
		want       string
	}{
		{tmpl, "id", "", "1,2,3"},
		{tmpl, "id", "2", "2"},
		{tmpl, "id", "7", ""},
		{summarize, "id", "", "1,2,3"},
		{summarize, "style", "b", "brief,bullets"},
		{summarize, "style", "D", "detailed"},
		{triage, "tag", "", "demo,home,work"},
		{triage, "tag", "w", "work"},
		{&mcp.CompleteReference{Type: "ref/prompt", Name: "nope"}, "id", "", ""},
		{&mcp.CompleteReference{Type: "ref/resource", URI: "other://{id}"}, "id", "", ""},
	} {
		if got := complete(c.ref, c.arg, c.value); got != c.want {
			t.Errorf("complete %s%s%s %s=%q: %q, want %q", c.ref.Type, c.ref.Name, c.ref.URI, c.arg, c.value, got, c.want)
		}
	}
	// The completions follow the workspace.
	callOK(t, cs, "add_note", map[string]any{"title": "Plan", "tags": []string{"travel"}})
	if got := complete(tmpl, "id", ""); got != "1,2,3,4" {
		t.Errorf("ids after add_note: %q", got)
	}
	if got := complete(triage, "tag", "t"); got != "travel" {
		t.Errorf("tags after add_note: %q", got)
	}
}
