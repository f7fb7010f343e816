package client

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// One prompt or resource go-sdk would not decode (a name that is a number)
// is skipped with a warning naming its page and place; the rest of the
// listing stands. go-sdk failed the whole page on it.
func TestListingsSkipWhatTheyCannotRead(t *testing.T) {
	t.Parallel()
	target, _ := fixtureTarget(t, "odd-shapes")
	s := connectFixture(t, target, nil)
	pl, err := s.ListPrompts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []*Prompt{
		{Name: "greet", Arguments: []PromptArgument{{Name: "who", Required: true}}},
		{Name: "plain", Arguments: []PromptArgument{{Name: "tone"}}},
	}
	if diff := cmp.Diff(want, pl.Prompts); diff != "" {
		t.Errorf("prompts (-want +got):\n%s", diff)
	}
	warnings := strings.Join(pl.Warnings, "\n")
	for _, w := range []string{"page 1, prompt 2 skipped", "prompt greet: argument 2 skipped: it has no name"} {
		if !strings.Contains(warnings, w) {
			t.Errorf("warnings %q lack %q", warnings, w)
		}
	}
	rl, err := s.ListResources(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	wantR := []*Resource{{URI: "file:///a", Name: "a", Size: 12}, {URI: "file:///c", Name: "c"}}
	if diff := cmp.Diff(wantR, rl.Resources); diff != "" {
		t.Errorf("resources (-want +got):\n%s", diff)
	}
	if w := strings.Join(rl.Warnings, "\n"); !strings.Contains(w, "page 1, resource 2 skipped") {
		t.Errorf("warnings %q", w)
	}
}

// Resources, templates, prompts and completions from a go-sdk server come
// through the raw path as go-sdk's typed one had them, across pages.
func TestListingsFromAGoSDKServer(t *testing.T) {
	t.Parallel()
	for _, version := range []string{LatestProtocol, "2025-11-25"} {
		srv := mcp.NewServer(&mcp.Implementation{Name: "lists", Version: "1"}, &mcp.ServerOptions{PageSize: 2,
			CompletionHandler: func(context.Context, *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
				return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{"alpha", "beta"}, Total: 2}}, nil
			}})
		for _, n := range []string{"a", "b", "c"} {
			srv.AddResource(&mcp.Resource{URI: "file:///" + n, Name: n, Title: "T" + n, MIMEType: "text/plain", Size: 3},
				func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) { return nil, nil })
			srv.AddPrompt(&mcp.Prompt{Name: "p" + n, Arguments: []*mcp.PromptArgument{{Name: "x", Required: true}}},
				func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
					return &mcp.GetPromptResult{Description: "d", Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "hi " + n}}}}, nil
				})
		}
		srv.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "file:///{n}", Name: "t"},
			func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) { return nil, nil })
		s, err := Connect(context.Background(), Target{Kind: KindInProcess, InProcess: srv}, &Options{ProtocolVersion: version})
		if err != nil {
			t.Fatal(err)
		}
		rl, err := s.ListResources(context.Background())
		if err != nil || len(rl.Resources) != 3 || len(rl.Templates) != 1 || *rl.Resources[2] != (Resource{URI: "file:///c", Name: "c", Title: "Tc", MIMEType: "text/plain", Size: 3}) {
			t.Errorf("%s: resources %+v, %v", version, rl, err)
		}
		pl, err := s.ListPrompts(context.Background())
		if err != nil || len(pl.Prompts) != 3 || !pl.Prompts[1].Arguments[0].Required {
			t.Fatalf("%s: prompts %+v, %v", version, pl, err)
		}
		res, err := s.GetPrompt(context.Background(), pl.Prompts[1], map[string]string{"x": "1"})
		if err != nil || len(res.Messages) != 1 || res.Messages[0].Block.Text != "hi b" {
			t.Errorf("%s: prompt %+v, %v", version, res, err)
		}
		var j struct {
			Messages []struct {
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		b, _ := json.Marshal(res)
		if json.Unmarshal(b, &j) != nil || !strings.Contains(string(j.Messages[0].Content), `"hi b"`) {
			t.Errorf("%s: --json %s", version, b)
		}
		c, err := s.Complete(context.Background(), CompletionRef{Prompt: "pa"}, "x", "", nil)
		if err != nil || !cmp.Equal(c.Values, []string{"alpha", "beta"}) {
			t.Errorf("%s: completion %+v, %v", version, c, err)
		}
		s.Close()
	}
}
