package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/ui/resultview"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/internal/testing/snapshot"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/form"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/overlays"
	"github.com/mcpsh/mcpsh/ui/scroll"
	"github.com/mcpsh/mcpsh/ui/style"
)

// View is pure (frame.go): on every screen, drawing writes nothing the model
// holds, and drawing twice draws the same. Each screen is reached through
// Update, left in a state where an impure View would have something to fix
// up (a detail scrolled past its end, a pane resized under its scroll
// position, a help overlay scrolled down as far as keys go).
func TestViewIsPure(t *testing.T) {
	for _, c := range pureScreens() {
		t.Run(c.name, func(t *testing.T) {
			m := c.open(t)
			if m.shown().mode != c.mode || topID(m) != c.overlay || (m.shown().asking() != nil) != c.dialog {
				t.Fatalf("the screen was not reached: mode %v, overlay %v, dialog %v", m.shown().mode, topID(m), m.shown().asking() != nil)
			}
			before := stateOf(t, m)
			first := m.render()
			v := m.View()
			second := m.render()
			after := stateOf(t, m)
			if first != second || v.Content != first {
				t.Errorf("drawing twice drew different screens:\n%s\n---\n%s", first, second)
			}
			if diff := snapshot.Diff(before, after); diff != "" {
				t.Errorf("View wrote to the model:\n%s", diff)
			}
		})
	}
}

type pureScreen struct {
	name    string
	mode    mode
	overlay string // the dialog on top
	dialog  bool
	open    func(t *testing.T) *Model
}

func pureScreens() []pureScreen {
	demoAt := func(t *testing.T, keys ...string) *Model {
		m, _ := connected(t, true, 100, 30)
		send(m, keys...)
		return m
	}
	features := func(t *testing.T, keys ...string) *Model {
		m, _ := connectedFeatures(t, 100, 30)
		send(m, keys...)
		return m
	}
	j := func(n int, k string) []string { return slices.Repeat([]string{k}, n) }
	return []pureScreen{
		{"connecting", modeConnecting, "", false, func(t *testing.T) *Model {
			target := &client.Target{Name: "demo", Kind: client.KindInProcess, InProcess: demo.New().MCP(), Trust: policy.Trusted}
			m := New(context.Background(), Options{Target: target, NoColor: true, Now: func() time.Time { return fixedNow }})
			m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
			return m
		}},
		{"connect failed", modeConnectFailed, "", false, func(t *testing.T) *Model {
			target := &client.Target{Name: "demo", Kind: client.KindInProcess, InProcess: demo.New().MCP(), Trust: policy.Trusted}
			m := New(context.Background(), Options{Target: target, NoColor: true, Now: func() time.Time { return fixedNow }})
			m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
			m.shown().connReq = m.nextID()
			m.Update(connectedMsg{id: m.shown().connReq, err: errors.New("the server went away")})
			return m
		}},
		// The cursor far down the list, the detail scrolled past its end.
		{"browse", modeBrowse, "", false, func(t *testing.T) *Model { return demoAt(t, append(j(12, "j"), j(60, "J")...)...) }},
		{"browse narrow", modeBrowse, "", false, func(t *testing.T) *Model {
			m := demoAt(t, "G")
			m.Update(tea.WindowSizeMsg{Width: 50, Height: 12})
			return m
		}},
		{"filter", modeBrowse, "", false, func(t *testing.T) *Model { return demoAt(t, "/", "n", "o", "t", "e") }},
		{"filter no match", modeBrowse, "", false, func(t *testing.T) *Model { return demoAt(t, "/", "z", "z", "z") }},
		{"form", modeForm, "", false, func(t *testing.T) *Model { return demoAt(t, "/", "a", "d", "d", "enter", "enter") }},
		{"confirm", modeForm, dialogConfirm, false, func(t *testing.T) *Model {
			m := demoAt(t, append([]string{"/"}, strings.Split("delete", "")...)...)
			send(m, "enter", "enter", "1", "ctrl+r")
			send(m, j(40, "down")...)
			m.Update(tea.WindowSizeMsg{Width: 100, Height: 16})
			return m
		}},
		{"running", modeRunning, "", false, func(t *testing.T) *Model { return demoAt(t, "/", "l", "i", "s", "t", "enter", "enter", "ctrl+r") }},
		{"result", modeResult, "", false, func(t *testing.T) *Model {
			m := demoAt(t)
			m.shown().result.SetOutcome(&client.Outcome{Tool: "echo", Status: client.StatusOK, Result: &client.Result{Content: []client.Block{{Type: "text", Text: strings.Repeat("a line of the result\n", 80)}}}})
			m.shown().mode = modeResult
			send(m, "G")
			m.Update(tea.WindowSizeMsg{Width: 100, Height: 50})
			return m
		}},
		{"help", modeBrowse, dialogHelp, false, func(t *testing.T) *Model { return demoAt(t, append([]string{"?"}, j(300, "down")...)...) }},
		{"log", modeBrowse, dialogLog, false, func(t *testing.T) *Model {
			m := demoAt(t)
			var outs []*client.Outcome
			for i := range 40 {
				outs = append(outs, &client.Outcome{Tool: fmt.Sprintf("tool_%d", i), Status: client.StatusFailed, Error: "it broke", Time: fixedNow})
			}
			m.calls = outs
			m.logPane.SetEntries("/state/s.jsonl", outs)
			send(m, "L", "k", "k", "/", "t")
			return m
		}},
		{"log open", modeBrowse, dialogLog, false, func(t *testing.T) *Model {
			m := demoAt(t)
			o := &client.Outcome{Tool: "echo", Status: client.StatusOK, Time: fixedNow, Args: map[string]any{"text": strings.Repeat("long ", 200)}}
			m.logPane.SetEntries("/state/s.jsonl", []*client.Outcome{o})
			send(m, "L", "enter")
			send(m, j(100, "down")...)
			m.Update(tea.WindowSizeMsg{Width: 100, Height: 60})
			return m
		}},
		{"server", modeBrowse, dialogServer, false, func(t *testing.T) *Model {
			m := demoAt(t)
			for i := range 100 {
				m.shown().serverPane.Append(client.Event{Kind: client.EventStderr, Time: fixedNow, Text: fmt.Sprintf("line %d", i)})
			}
			send(m, "S", "k", "k", "k")
			m.Update(tea.WindowSizeMsg{Width: 100, Height: 60})
			return m
		}},
		{"audit", modeBrowse, dialogAudit, false, func(t *testing.T) *Model {
			m, _ := openAudited(t, 100, 12)
			send(m, "G")
			m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
			return m
		}},
		{"traffic", modeBrowse, dialogTraffic, false, func(t *testing.T) *Model {
			m := demoAt(t)
			m.Update(overlays.TrafficMsg{Entries: pureTraffic(60)})
			send(m, "T", "k", "k")
			return m
		}},
		{"traffic open", modeBrowse, dialogTraffic, false, func(t *testing.T) *Model {
			m := demoAt(t)
			m.Update(overlays.TrafficMsg{Entries: pureTraffic(3)})
			send(m, "T", "enter", "G")
			m.Update(tea.WindowSizeMsg{Width: 100, Height: 80})
			return m
		}},
		{"servers", modeConnecting, dialogServers, false, func(t *testing.T) *Model {
			m := New(context.Background(), Options{NoColor: true, Now: func() time.Time { return fixedNow },
				Choices: []Choice{demoChoice("alpha", demo.New(), policy.Trusted), demoChoice("beta", demo.New(), policy.Trusted)}})
			m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
			send(m, "W", "down", "down")
			return m
		}},
		{"servers wide", modeConnecting, "", false, func(t *testing.T) *Model {
			m := New(context.Background(), Options{NoColor: true, Now: func() time.Time { return fixedNow },
				Choices: []Choice{demoChoice("alpha", demo.New(), policy.Trusted), demoChoice("beta", demo.New(), policy.Trusted)}})
			m.Update(tea.WindowSizeMsg{Width: 200, Height: 30}) // the server sidebar
			send(m, "]")
			return m
		}},
		{"resources", modeBrowse, "", false, func(t *testing.T) *Model { return features(t, "r", "G") }},
		{"prompts", modeBrowse, "", false, func(t *testing.T) *Model { return features(t, "p") }},
		{"args", modeArgs, "", false, func(t *testing.T) *Model { return features(t, "p", "enter", "A") }},
		{"resource", modeResource, "", false, func(t *testing.T) *Model {
			m := features(t, "r")
			selectItem(t, &m.shown().resources.list, "r info://readme.md")
			read(t, m)
			send(m, "G")
			m.Update(tea.WindowSizeMsg{Width: 100, Height: 70})
			return m
		}},
		{"prompt", modePrompt, "", false, func(t *testing.T) *Model {
			m := features(t, "p", "enter", "A", "ctrl+r")
			m.Update(getPromptCmd(context.Background(), m.shown().promptOut.id, m.shown().session, m.shown().strForm.Prompt, m.shown().strForm.Values())())
			return m
		}},
		{"login", modeLogin, "", false, func(t *testing.T) *Model {
			m := demoAt(t)
			m.shown().mode = modeLogin
			m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
			return m
		}},
		{"elicit", modeBrowse, dialogAsk, true, func(t *testing.T) *Model { m := demoAt(t); m.Update(askMsg{ask: formAsk()}); return m }},
		{"elicit url", modeBrowse, dialogAsk, true, func(t *testing.T) *Model {
			m := demoAt(t)
			m.Update(askMsg{ask: urlAsk("https://example.com/a")})
			return m
		}},
		{"sample", modeBrowse, dialogAsk, true, func(t *testing.T) *Model { m := demoAt(t); m.Update(askMsg{ask: sampleAsk()}); return m }},
	}
}

// pureTraffic is n messages on the wire, each long enough to wrap when opened.
func pureTraffic(n int) []overlays.TrafficEntry {
	var out []overlays.TrafficEntry
	for i := range n {
		msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": map[string]any{"lines": slices.Repeat([]string{"x"}, 60)}})
		out = append(out, overlays.TrafficEntry{TraceEntry: client.TraceEntry{Time: fixedNow, Dir: "out", Kind: "request", Method: "tools/call", ID: fmt.Sprint(i), Message: msg, Size: len(msg)}})
	}
	return out
}

// stateOf is every value the model holds, as "path = value" lines: it
// follows pointers to this package's types and its panes', and reads other
// packages' values in place but not behind their pointers (a session's
// internals, a bubble's private caches, run on their own). The feeds and
// the inbox, which other goroutines write, are left out.
func stateOf(t *testing.T, m *Model) map[string]string {
	t.Helper()
	return snapshot.Take(t, m, snapshot.Options{
		Follow: []any{(*Model)(nil), (*overlays.Log)(nil), (*form.ArgForm)(nil), (*scroll.Pane)(nil),
			(*style.Styles)(nil), (*keymap.KeyMap)(nil), (*resultview.View)(nil)},
		Opaque: []string{"overlays.trafficFeed", "ui.inbox"},
	})
}
