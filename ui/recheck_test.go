package ui

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// redeclaring is a go-sdk server whose one tool, thing, the test re-declares
// while the user is preparing or confirming a call to it.
type redeclaring struct {
	srv  *mcp.Server
	runs atomic.Int32
}

func (r *redeclaring) declare(ann *mcp.ToolAnnotations) {
	r.srv.AddTool(&mcp.Tool{Name: "thing", InputSchema: map[string]any{"type": "object"}, Annotations: ann},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			r.runs.Add(1)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil
		})
}

func boolp(b bool) *bool { return &b }

func connectRedeclaring(t *testing.T, ann *mcp.ToolAnnotations) (*Model, *redeclaring) {
	t.Helper()
	r := &redeclaring{srv: mcp.NewServer(&mcp.Implementation{Name: "redeclaring", Version: "1"}, nil)}
	r.declare(ann)
	target := &client.Target{Name: "redeclaring", Kind: client.KindInProcess, InProcess: r.srv, Trust: policy.Trusted}
	m := New(context.Background(), Options{Target: target, NoColor: true})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	m.shown().connReq = m.nextID()
	m.Update(connectCmd(context.Background(), m.shown().connReq, *target, &client.Options{}, make(chan struct{}))())
	t.Cleanup(func() { m.shown().session.Close() })
	if m.shown().mode != modeBrowse {
		t.Fatalf("mode %v: %v", m.shown().mode, m.shown().connErr)
	}
	return m, r
}

// refresh does what the TUI does on tools/list_changed: list again, in a command.
func refresh(m *Model) {
	m.shown().listReq = m.nextID()
	m.Update(listCmd(context.Background(), m.shown().listReq, m.shown().session)())
}

func TestOpenFormIsDecidedAgainWhenTheServerRedeclaresTheTool(t *testing.T) {
	m, r := connectRedeclaring(t, &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: boolp(false)})
	// The form of thing, a read-only tool that would run unasked (enter would
	// run it at once: it takes no arguments).
	m.shown().openForm(m.shown().list.Selected(), nil)
	if m.shown().mode != modeForm {
		t.Fatalf("mode %v, want the form", m.shown().mode)
	}
	r.declare(&mcp.ToolAnnotations{DestructiveHint: boolp(true), OpenWorldHint: boolp(false)})
	refresh(m)
	if !strings.Contains(m.shown().status, "the server changed thing's hints") {
		t.Errorf("status %q does not say the hints changed", m.shown().status)
	}
	send(m, "ctrl+r")
	if !confirming(m.shown()) || m.shown().pending == nil || !strings.Contains(m.shown().pending.changed, "readOnlyHint") || r.runs.Load() != 0 {
		t.Fatalf("mode %v, pending %+v, runs %d: a re-declared tool must be confirmed before it runs", m.shown().mode, m.shown().pending, r.runs.Load())
	}
	if !strings.Contains(m.render(), "the server changed this tool") {
		t.Errorf("the dialog does not say the tool changed:\n%s", m.render())
	}
}

func TestOpenDialogIsDecidedAgainAndAnEarlierAnswerDoesNotCount(t *testing.T) {
	m, r := connectRedeclaring(t, &mcp.ToolAnnotations{DestructiveHint: boolp(true), OpenWorldHint: boolp(false)})
	send(m, "enter", "ctrl+r")
	if !confirming(m.shown()) {
		t.Fatalf("mode %v, want the dialog", m.shown().mode)
	}
	r.declare(&mcp.ToolAnnotations{DestructiveHint: boolp(true), OpenWorldHint: boolp(true)})
	refresh(m)
	p := m.shown().pending
	if !confirming(m.shown()) || p == nil || !strings.Contains(p.changed, "openWorldHint false → true") || !p.decision.OpenWorld {
		t.Fatalf("mode %v, pending %+v: the dialog must show the new declaration", m.shown().mode, p)
	}
	if r.runs.Load() != 0 {
		t.Fatal("the call ran without a new answer")
	}

	// Removed while the dialog is open: nothing is sent.
	r.srv.RemoveTools("thing")
	refresh(m)
	if m.shown().mode != modeForm || m.shown().pending != nil || !strings.Contains(m.shown().status, "no longer listed") {
		t.Errorf("mode %v, status %q", m.shown().mode, m.shown().status)
	}
}

func TestSessionAllowanceHoldsOnlyForTheHintsItWasGivenFor(t *testing.T) {
	m, r := connectRedeclaring(t, &mcp.ToolAnnotations{DestructiveHint: boolp(true), OpenWorldHint: boolp(false)})
	tool, _ := m.shown().session.Tool("thing")
	m.shown().allowed["thing"] = tool.Hints
	if !m.shown().sessionAllowed(tool) {
		t.Fatal("allowed for the hints it had")
	}
	r.declare(&mcp.ToolAnnotations{DestructiveHint: boolp(true), OpenWorldHint: boolp(true)})
	refresh(m)
	now, _ := m.shown().session.Tool("thing")
	if m.shown().sessionAllowed(now) || m.shown().decision(now).Verdict != policy.Ask {
		t.Errorf("an allowance given for other hints still holds: %s", m.shown().decision(now).Verdict)
	}
}
