package listing

import (
	"slices"
	"testing"

	"github.com/mcpsh/mcpsh/client"
)

func TestResourcesGroups(t *testing.T) {
	l := &client.ResourceListing{
		Resources: []*client.Resource{{URI: "notes://a", Name: "a", Title: "Note A", MIMEType: "text/plain", Size: 2048}},
		Templates: []*client.ResourceTemplate{{URITemplate: "notes://a", Name: "by-name"}},
	}
	gs := Resources(l)
	if len(gs) != 2 || gs[0].Heading(true) != "Resources (1, stopped)" || gs[1].Heading(false) != "Templates (1)" {
		t.Fatalf("groups %+v", gs)
	}
	r, tm := gs[0].Items[0], gs[1].Items[0]
	if r.Title != "Note A" || r.Name != "notes://a" || tm.Title != "by-name" || tm.Kind != Template {
		t.Errorf("items %+v %+v", r, tm)
	}
	// The same URI as a resource and as a template are two items.
	if r.Key() == tm.Key() {
		t.Errorf("a resource and a template share the key %q", r.Key())
	}
	if got := ResourceFacts(l.Resources[0]); !slices.Equal(got, []string{"text/plain", "2.0 kB"}) {
		t.Errorf("facts %q", got)
	}
	// No templates: no heading for them; the resources' heading stays.
	if gs := Resources(&client.ResourceListing{}); len(gs) != 1 || gs[0].Heading(false) != "Resources (0)" {
		t.Errorf("an empty listing: %+v", gs)
	}
}

func TestPromptArgs(t *testing.T) {
	p := &client.Prompt{Name: "p", Arguments: []client.PromptArgument{{Name: "a\x1b[2J", Required: true}, {Name: "b"}}}
	if got := PromptArgs(p); !slices.Equal(got, []string{"a*", "b"}) {
		t.Errorf("args %q", got)
	}
	if g := Prompts(&client.PromptListing{Prompts: []*client.Prompt{p}}); len(g) != 1 || g[0].Items[0].Key() != "p" || g[0].Heading(false) != "Prompts (1)" {
		t.Errorf("prompts %+v", g)
	}
}

func TestTemplateVars(t *testing.T) {
	vars, err := Vars("notes://{folder}/{name}{?q,lang}{#frag}")
	if err != nil {
		t.Fatal(err)
	}
	want := []Var{{"folder", true}, {"name", true}, {"q", false}, {"lang", false}, {"frag", false}}
	if !slices.Equal(vars, want) {
		t.Errorf("vars %v, want %v", vars, want)
	}
	got, err := Expand("notes://{folder}/{name}{?q}", map[string]string{"folder": "a b", "name": "x/y"})
	if err != nil || got != "notes://a%20b/x%2Fy" {
		t.Errorf("expanded %q, %v", got, err)
	}
	if _, err := Vars("notes://{folder"); err == nil {
		t.Error("a broken template was read")
	}
}
