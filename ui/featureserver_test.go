//lint:file-ignore SA1019 these tests play a server that still uses SEP-2577's deprecated sampling, which mcpsh serves through the deprecation window

package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// featureServer is an in-process go-sdk server with everything beside tools
// that the view shows: resources (Markdown, JSON, a blob, a counter that can
// be followed), a template with completion, prompts with completion, and
// tools that ask the user for things (a form, a URL to visit, a completion).
// It records what reached it, for tests to assert on.
type featureServer struct {
	srv *mcp.Server

	mu         sync.Mutex
	counter    int
	elicited   []*mcp.ElicitResult
	sampled    []*mcp.CreateMessageResult
	sampleErrs []string
	completes  []string // "arg=value", in order
	reads      []string
	subscribed []string
}

const featureInstructions = "Read info://readme.md first; notes live at notes://{folder}/{name}."

const featureReadme = "# Feature server\n\nA test server for **mcpsh**, with `code` and a [link](https://example.com).\n\n- one\n- two\n"

// featurePixel is a 1×1 PNG.
var featurePixel = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")

var featureNotes = map[string]string{"work/todo": "Ship the client.", "work/ideas": "Subscriptions everywhere.", "home/shopping": "Milk, eggs."}

// featureForm is the form ask_form sends: defaults for all but email.
const featureForm = `{"type":"object","properties":{
	"email":{"type":"string","format":"email","title":"Email"},
	"age":{"type":"number","minimum":0,"maximum":150,"default":30},
	"subscribe":{"type":"boolean","default":true},
	"color":{"type":"string","oneOf":[{"const":"red","title":"Red"},{"const":"green","title":"Green"}],"default":"green"},
	"nickname":{"type":"string","minLength":1,"maxLength":20,"default":"ada"}},
	"required":["email"]}`

func newFeatureServer() *featureServer {
	f := &featureServer{}
	f.srv = mcp.NewServer(&mcp.Implementation{Name: "features", Version: "1.0.0"}, &mcp.ServerOptions{
		Instructions:      featureInstructions,
		CompletionHandler: f.complete,
		SubscribeHandler: func(_ context.Context, r *mcp.SubscribeRequest) error {
			f.note(&f.subscribed, r.Params.URI)
			return nil
		},
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	text := func(uri, mime, body string) mcp.ResourceHandler {
		return func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			f.note(&f.reads, uri)
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mime, Text: body}}}, nil
		}
	}
	f.srv.AddResource(&mcp.Resource{URI: "info://readme.md", Name: "readme", Title: "Read me", MIMEType: "text/markdown"}, text("info://readme.md", "text/markdown", featureReadme))
	f.srv.AddResource(&mcp.Resource{URI: "info://config.json", Name: "config", MIMEType: "application/json", Description: "The server's settings."},
		text("info://config.json", "application/json", `{"name":"features","folders":["home","work"]}`))
	f.srv.AddResource(&mcp.Resource{URI: "info://pixel.png", Name: "pixel", MIMEType: "image/png"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			f.note(&f.reads, "info://pixel.png")
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "info://pixel.png", MIMEType: "image/png", Blob: featurePixel}}}, nil
		})
	f.srv.AddResource(&mcp.Resource{URI: "mem://counter", Name: "counter", MIMEType: "text/plain"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			f.note(&f.reads, "mem://counter")
			f.mu.Lock()
			n := f.counter
			f.mu.Unlock()
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "mem://counter", MIMEType: "text/plain", Text: fmt.Sprintf("count: %d", n)}}}, nil
		})
	f.srv.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "notes://{folder}/{name}", Name: "note", MIMEType: "text/plain"},
		func(_ context.Context, r *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			uri := r.Params.URI
			f.note(&f.reads, uri)
			body, ok := featureNotes[strings.TrimPrefix(uri, "notes://")]
			if !ok {
				return nil, mcp.ResourceNotFoundError(uri)
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/plain", Text: body}}}, nil
		})
	f.srv.AddPrompt(&mcp.Prompt{Name: "greet", Title: "Greeting", Description: "Greets someone.", Arguments: []*mcp.PromptArgument{
		{Name: "name", Description: "who", Required: true}, {Name: "style", Description: "casual or formal"}}},
		func(_ context.Context, r *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			style := r.Params.Arguments["style"]
			if style == "" {
				style = "casual"
			}
			return &mcp.GetPromptResult{Description: "a greeting", Messages: []*mcp.PromptMessage{
				{Role: "user", Content: &mcp.TextContent{Text: fmt.Sprintf("Please greet %s in a %s way.", r.Params.Arguments["name"], style)}},
				{Role: "assistant", Content: &mcp.ImageContent{MIMEType: "image/png", Data: featurePixel}},
			}}, nil
		})
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: new(bool)}
	f.srv.AddTool(&mcp.Tool{Name: "ask_form", Title: "Ask for a form", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: ro},
		func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := r.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Tell us about you", RequestedSchema: json.RawMessage(featureForm)})
			return f.answered(res, err)
		})
	f.srv.AddTool(&mcp.Tool{Name: "ask_visit", Title: "Ask to visit a page", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: ro},
		func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := r.Session.Elicit(ctx, &mcp.ElicitParams{Mode: "url", Message: "Connect your account",
				URL: "https://login.example.com/connect?session=1", ElicitationID: "url-1"})
			return f.answered(res, err)
		})
	f.srv.AddTool(&mcp.Tool{Name: "sample", Title: "Ask the client's model", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: ro},
		func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := r.Session.CreateMessage(ctx, &mcp.CreateMessageParams{
				Messages:         []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "Say hello"}}},
				SystemPrompt:     "You are a test.",
				MaxTokens:        100,
				ModelPreferences: &mcp.ModelPreferences{Hints: []*mcp.ModelHint{{Name: "test-model"}}, SpeedPriority: 0.5},
			})
			f.mu.Lock()
			defer f.mu.Unlock()
			if err != nil {
				f.sampleErrs = append(f.sampleErrs, err.Error())
				return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "refused: " + err.Error()}}}, nil
			}
			f.sampled = append(f.sampled, res)
			t, _ := res.Content.(*mcp.TextContent)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "the human wrote: " + t.Text}}}, nil
		})
	f.srv.AddTool(&mcp.Tool{Name: "bump", Title: "Bump the counter", InputSchema: json.RawMessage(`{"type":"object"}`),
		Annotations: &mcp.ToolAnnotations{DestructiveHint: new(bool), OpenWorldHint: new(bool)}},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			f.mu.Lock()
			f.counter++
			f.mu.Unlock()
			f.srv.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: "mem://counter"})
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "bumped"}}}, nil
		})
	return f
}

func (f *featureServer) note(list *[]string, s string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	*list = append(*list, s)
}

// answered records an elicitation's answer and returns it as the tool's text.
func (f *featureServer) answered(res *mcp.ElicitResult, err error) (*mcp.CallToolResult, error) {
	if err != nil {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}, nil
	}
	f.mu.Lock()
	f.elicited = append(f.elicited, res)
	f.mu.Unlock()
	b, _ := json.Marshal(res)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "answer " + string(b)}}}, nil
}

func (f *featureServer) complete(_ context.Context, r *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	p := r.Params
	got := p.Argument.Name + "=" + p.Argument.Value
	if p.Context != nil && len(p.Context.Arguments) > 0 {
		keys := slices.Sorted(maps.Keys(p.Context.Arguments))
		for _, k := range keys {
			got += " " + k + ":" + p.Context.Arguments[k]
		}
	}
	f.note(&f.completes, got)
	var all []string
	switch {
	case p.Ref.Type == "ref/prompt" && p.Argument.Name == "name":
		all = []string{"Ada", "Alan", "Grace"}
	case p.Ref.Type == "ref/prompt" && p.Argument.Name == "style":
		all = []string{"casual", "formal"}
	case p.Argument.Name == "folder":
		all = []string{"home", "work"}
	case p.Argument.Name == "name":
		folder := ""
		if p.Context != nil {
			folder = p.Context.Arguments["folder"]
		}
		for k := range featureNotes {
			if fo, n, _ := strings.Cut(k, "/"); folder == "" || fo == folder {
				all = append(all, n)
			}
		}
		slices.Sort(all)
	}
	var out []string
	for _, v := range all {
		if strings.HasPrefix(v, p.Argument.Value) {
			out = append(out, v)
		}
	}
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: out, Total: len(out)}}, nil
}

// counts reads the server's records under its lock.
func (f *featureServer) snapshot() (elicited []*mcp.ElicitResult, sampled []*mcp.CreateMessageResult, sampleErrs, completes, reads, subscribed []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.elicited), slices.Clone(f.sampled), slices.Clone(f.sampleErrs), slices.Clone(f.completes), slices.Clone(f.reads), slices.Clone(f.subscribed)
}

// featureTarget is a target for the feature server.
func featureTarget(f *featureServer) *client.Target {
	return &client.Target{Name: "features", Kind: client.KindInProcess, InProcess: f.srv, Trust: policy.Trusted}
}

// featureProtocol is the protocol the feature tests speak: 2026-07-28 has
// servers embed their requests in results, which go-sdk's server helpers
// used here do not, so these tests pin the version before it.
const featureProtocol = "2025-11-25"

// connectedFeatures is connected (model_test.go) on the feature server, with
// the view's own handlers for a server's requests, its resources and prompts
// listed. Commands are run by the tests themselves, as Bubble Tea would run
// them, one at a time: the ones that wait for events would block.
func connectedFeatures(t *testing.T, w, h int) (*Model, *featureServer) {
	t.Helper()
	f := newFeatureServer()
	target := featureTarget(f)
	m := New(context.Background(), Options{Target: target, NoColor: true, Now: func() time.Time { return fixedNow },
		Client: client.Options{ProtocolVersion: featureProtocol}})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m.shown().connReq = m.nextID()
	opts := m.opts.Client
	m.Update(connectCmd(context.Background(), m.shown().connReq, *target, &opts, make(chan struct{}))())
	t.Cleanup(func() {
		if m.shown().session != nil {
			m.shown().session.Close()
		}
	})
	if m.shown().mode != modeBrowse {
		t.Fatalf("mode %v after connecting: %v", m.shown().mode, m.shown().connErr)
	}
	ctx := context.Background()
	m.Update(listResourcesCmd(ctx, m.shown().resources.req, m.shown().session)())
	m.Update(listPromptsCmd(ctx, m.shown().prompts.req, m.shown().session)())
	return m, f
}
