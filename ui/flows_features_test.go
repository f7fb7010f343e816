//lint:file-ignore SA1019 these tests play a server that still uses SEP-2577's deprecated sampling, which mcpsh serves through the deprecation window

package ui

import (
	"context"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// featureFlow runs the whole TUI on the feature server, as flow does on the
// demo. Assertions are on what reached the server.
type featureFlow struct {
	*flow
	f *featureServer

	mu     sync.Mutex
	opened []string // URLs handed to the browser
}

func startFeatureFlow(t *testing.T) *featureFlow {
	t.Helper()
	f := newFeatureServer()
	ff := &featureFlow{f: f}
	m := New(context.Background(), Options{Target: featureTarget(f), NoColor: true,
		Client: client.Options{ProtocolVersion: featureProtocol},
		OpenBrowser: func(_ context.Context, u string) error {
			ff.mu.Lock()
			defer ff.mu.Unlock()
			ff.opened = append(ff.opened, u)
			return nil
		}})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
	ff.flow = &flow{t: t, tm: tm}
	t.Cleanup(func() {
		tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
		tm.WaitFinished(t, teatest.WithFinalTimeout(patience))
		if s := m.Session(); s != nil {
			s.Close()
		}
	})
	ff.waitFor("Bump the counter")
	return ff
}

// callTool filters the tools to one and runs it (they take no arguments),
// then waits for next.
func (ff *featureFlow) callTool(name, next string) {
	ff.callNoArgs(name, next)
}

func (ff *featureFlow) elicited() []*mcp.ElicitResult {
	e, _, _, _, _, _ := ff.f.snapshot()
	return e
}

func TestFlowElicitationFormWithDefaults(t *testing.T) {
	ff := startFeatureFlow(t)
	ff.callTool("ask_form", "features asks for input")
	ff.waitFor("Tell us about you")
	ff.press(tea.KeyEnter)             // moves to the next field; never answers
	ff.press(tea.KeyTab, tea.ModShift) // back to the email
	// The email shows in the form only if enter left it up; an answer enter
	// had sent would also reach the server before the one below, and be
	// the one it got.
	ff.tm.Send(tea.PasteMsg{Content: "ada@example.com"}) // drawn at once, to be waited for
	ff.waitFor("ada@example.com")
	if n := len(ff.elicited()); n != 0 {
		t.Fatalf("answered before ctrl+s: %d answers", n)
	}
	ff.press('s', tea.ModCtrl)
	ff.until("the answer to reach the server", func() bool { return len(ff.elicited()) == 1 })
	got := ff.elicited()[0]
	want := map[string]any{"email": "ada@example.com", "age": float64(30), "subscribe": true, "color": "green", "nickname": "ada"}
	if got.Action != "accept" || len(got.Content) != len(want) {
		t.Fatalf("the server got %+v, want accept %v", got, want)
	}
	for k, v := range want {
		if got.Content[k] != v {
			t.Errorf("the server got %s=%v, want %v", k, got.Content[k], v)
		}
	}
	ff.waitFor("1 attempt · no confirmation needed") // the call went on after the answer
}

func TestFlowURLElicitation(t *testing.T) {
	ff := startFeatureFlow(t)
	ff.callTool("ask_visit", "features asks you to visit a page")
	ff.waitFor("host login.example.com")
	ff.press(tea.KeyEnter)
	ff.press(tea.KeySpace)
	ff.typeText("ynox") // no single letter answers or opens
	// ctrl+l puts the request aside and brings it back: both show only if
	// the dialog was still up after the keys above. An answer they had sent
	// would reach the server before the decline below, and be the one it
	// got; a browser they had opened would be counted below.
	ff.press('l', tea.ModCtrl)
	ff.waitFor("answer its 1 request")
	ff.press('l', tea.ModCtrl)
	ff.waitFor("host login.example.com")
	ff.mu.Lock()
	opened := len(ff.opened)
	ff.mu.Unlock()
	if opened != 0 || len(ff.elicited()) != 0 {
		t.Fatal("a key that is not the dialog's opened or answered the request")
	}
	ff.press('o', tea.ModCtrl)
	ff.until("the browser to be asked", func() bool {
		ff.mu.Lock()
		defer ff.mu.Unlock()
		return len(ff.opened) == 1 && ff.opened[0] == "https://login.example.com/connect?session=1"
	})
	ff.press('x', tea.ModCtrl)
	ff.until("the answer to reach the server", func() bool { return len(ff.elicited()) == 1 })
	if a := ff.elicited()[0].Action; a != "decline" {
		t.Fatalf("the server got %q, want decline", a)
	}
	ff.mu.Lock()
	defer ff.mu.Unlock()
	if len(ff.opened) != 1 {
		t.Fatalf("the browser was asked %d times, want once (ctrl+o)", len(ff.opened))
	}
}

func TestFlowSamplingByAPerson(t *testing.T) {
	ff := startFeatureFlow(t)
	ff.callTool("sample", "features asks for a completion")
	ff.waitFor("You are a test.")
	ff.typeText("Hello from a person")
	ff.press('s', tea.ModCtrl)
	var got *mcp.CreateMessageResult
	ff.until("the reply to reach the server", func() bool {
		_, s, _, _, _, _ := ff.f.snapshot()
		if len(s) == 1 {
			got = s[0]
		}
		return got != nil
	})
	text, _ := got.Content.(*mcp.TextContent)
	if text == nil || text.Text != "Hello from a person" || got.Model != "human (mcpsh)" {
		t.Fatalf("the server got %+v (%v)", got, text)
	}
	ff.waitFor("the human wrote: Hello from a person")
}

func TestFlowSamplingRejected(t *testing.T) {
	ff := startFeatureFlow(t)
	ff.callTool("sample", "features asks for a completion")
	ff.press('x', tea.ModCtrl)
	ff.until("the refusal to reach the server", func() bool {
		_, _, errs, _, _, _ := ff.f.snapshot()
		return len(errs) == 1 && strings.Contains(errs[0], "rejected")
	})
}

func TestFlowReadAndFollowAResource(t *testing.T) {
	ff := startFeatureFlow(t)
	ff.typeText("r")
	ff.waitFor("info://config.json")
	ff.typeText("jjj") // config, pixel, readme, counter
	ff.press(tea.KeyEnter)
	ff.waitFor("count: 0")
	ff.typeText("s")
	ff.waitFor("following mem://counter")
	ff.until("the subscription", func() bool {
		_, _, _, _, _, subs := ff.f.snapshot()
		return len(subs) == 1
	})
	// The server changes it and says so: the view reads it again.
	ff.f.mu.Lock()
	ff.f.counter = 7
	ff.f.mu.Unlock()
	ff.f.srv.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: "mem://counter"})
	ff.waitFor("read again 1 time")
	_, _, _, _, reads, _ := ff.f.snapshot()
	if n := strings.Count(strings.Join(reads, " "), "mem://counter"); n != 2 {
		t.Errorf("the counter was read %d times, want 2", n)
	}
}

func TestFlowTemplateWithCompletion(t *testing.T) {
	ff := startFeatureFlow(t)
	ff.typeText("r")
	ff.waitFor("notes://{folder}/{name}")
	ff.typeText("G")
	ff.press(tea.KeyEnter)
	ff.waitFor("ctrl+r reads the resource")
	ff.typeText("w")
	ff.waitFor("work")
	ff.press(tea.KeyDown)
	ff.press(tea.KeyEnter)
	ff.press(tea.KeyTab)
	ff.waitFor("ideas")
	ff.typeText("t")
	ff.press(tea.KeyDown)
	ff.press(tea.KeyEnter) // todo
	ff.press('r', tea.ModCtrl)
	ff.waitFor("Ship the client.")
	_, _, _, completes, reads, _ := ff.f.snapshot()
	if reads[len(reads)-1] != "notes://work/todo" {
		t.Errorf("the server read %v", reads)
	}
	if !strings.Contains(strings.Join(completes, "|"), "name= folder:work") {
		t.Errorf("completions asked: %q", completes)
	}
}
