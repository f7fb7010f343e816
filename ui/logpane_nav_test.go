package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/internal/sessionlog"
	"github.com/mcpsh/mcpsh/policy"
)

// logModel is a model with the session log overlay open on logOutcomes, the
// second call holding arguments with a secret in them.
func logModel(t *testing.T, w, h int) *Model {
	t.Helper()
	m, _ := connected(t, true, w, h)
	calls := logOutcomes()
	calls[1].Args = map[string]any{"query": "lisbon weather", "api_key": "sk-live-0123456789abcdefghij", "limit": 5}
	calls[1].Server = "websearch"
	m.logPane.SetEntries("/state/mcpsh/sessions/s.jsonl", calls)
	send(m, "L")
	if pane(m) != dialogLog {
		t.Fatalf("L: overlay %v", pane(m))
	}
	return m
}

// selectedCall is the tool of the call under the log pane's cursor.
func selectedCall(m *Model) string {
	if o := m.logPane.Selected(); o != nil {
		return o.Tool
	}
	return ""
}

func TestLogPaneMovesOverCalls(t *testing.T) {
	m := logModel(t, 80, 24)
	if got := selectedCall(m); got != "long_job" {
		t.Fatalf("the cursor starts on %s, want the newest call", got)
	}
	golden(t, "logpane/cursor-80x24", m.logPane.View())
	steps := []struct{ key, want string }{
		{"k", "get_forecast"}, {"up", "delete_file"}, {"k", "fetch_page"},
		{"j", "delete_file"}, {"g", "get_forecast"}, {"up", "get_forecast"}, {"G", "long_job"}, {"down", "long_job"},
	}
	for _, s := range steps {
		m.Update(keyOf(s.key))
		if got := selectedCall(m); got != s.want {
			t.Errorf("after %s the cursor is on %s, want %s", s.key, got, s.want)
		}
	}
	// The cursor's row is picked out on screen.
	send(m, "g")
	if !strings.Contains(ansi.Strip(m.logPane.View()), "› 09:26:53  ok") {
		t.Errorf("the cursor is not drawn:\n%s", ansi.Strip(m.logPane.View()))
	}
	// A new call arrives while the cursor is away from the newest: it stays.
	calls := m.logPane.Shown()
	m.logPane.SetEntries("/x", append(calls, okOutcome()))
	if m.logPane.Selected() != calls[0] {
		t.Errorf("a new call moved the cursor to %s, off the first call", selectedCall(m))
	}
}

func TestLogPaneFilters(t *testing.T) {
	m := logModel(t, 80, 24)
	p := m.logPane
	calls := func() string {
		var out []string
		for _, o := range p.Shown() {
			out = append(out, string(o.Status)+":"+o.Tool)
		}
		return strings.Join(out, ",")
	}
	send(m, "f")
	if got := calls(); got != "ok:get_forecast,ok:search_web" {
		t.Errorf("f once: %s", got)
	}
	send(m, "f", "f")
	if got := calls(); got != "failed:fetch_page" {
		t.Errorf("f three times: %s", got)
	}
	if view := ansi.Strip(m.logPane.View()); !strings.Contains(view, "status failed · 1 of 6 calls") {
		t.Errorf("the filter is not shown:\n%s", view)
	}
	send(m, "f", "f", "f") // refused, cancelled, then every status again
	if got := calls(); strings.Count(got, ",") != 5 {
		t.Errorf("f round the statuses: %s", got)
	}
	send(m, "o")
	if got := calls(); got != "ok:search_web,failed:fetch_page" {
		t.Errorf("o: %s", got)
	}
	golden(t, "logpane/open-world-80x24", m.logPane.View())
	send(m, "o")
	// Typed after /: the tool's name or title, or the server's.
	send(m, "/", "f", "o", "r", "e", "c")
	if got := calls(); got != "ok:get_forecast,tool_error:get_forecast" {
		t.Errorf("/forec: %s", got)
	}
	if !p.Typing() {
		t.Error("the filter is not being typed")
	}
	send(m, "enter")
	if p.Typing() || calls() != "ok:get_forecast,tool_error:get_forecast" {
		t.Errorf("enter did not keep the filter: %s", calls())
	}
	send(m, "/") // the input holds the filter kept: clear it
	for range len("forec") {
		m.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	send(m, "w", "e", "b", "s")
	if got := calls(); got != "ok:search_web" {
		t.Errorf("/webs (the server's name): %s", got)
	}
	golden(t, "logpane/typing-80x24", m.logPane.View())
	// Esc while typing clears the text: keyhandlers.go gives the pane the
	// keys it WantsKey, so esc reaches the pane instead of closing it.
	m.Update(keyOf("esc"))
	if pane(m) != dialogLog {
		t.Fatal("esc while typing closed the pane: keyhandlers.go must ask the log pane WantsKey")
	}
	if p.Typing() || len(p.Shown()) != 6 {
		t.Errorf("esc did not clear the typed filter: %d calls shown", len(p.Shown()))
	}
}

func TestLogPaneOpensACall(t *testing.T) {
	m := logModel(t, 80, 24)
	send(m, "g", "j") // search_web, with arguments
	send(m, "enter")
	p := m.logPane
	if p.Opened() == nil || p.Opened().Tool != "search_web" {
		t.Fatalf("enter opened %v", p.Opened())
	}
	view := ansi.Strip(m.logPane.View())
	for _, want := range []string{
		"search_web  Search the web  call 2 of 6",
		"ok · 1.2 s · 1 attempt",
		"server    websearch (stdio)",
		"Arguments as logged: secret-looking values redacted",
		`"query": "lisbon weather"`,
		`"api_key": "` + sessionlog.Redacted + `"`,
		"Result",
	} {
		if !strings.Contains(view, want) {
			t.Errorf("the opened call lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, "sk-live") {
		t.Error("the opened call shows a secret the log would not keep")
	}
	golden(t, "logpane/open-80x24", m.logPane.View())
	m.logPane.SetArgsMode(sessionlog.ArgsNone)
	if view := ansi.Strip(m.logPane.View()); strings.Contains(view, "lisbon") || !strings.Contains(view, "not logged (--log-args none)") {
		t.Errorf("--log-args none:\n%s", view)
	}
	// Esc goes back to the calls (the pane WantsKey it), not out of the pane.
	m.Update(keyOf("esc"))
	if pane(m) == "" {
		t.Fatal("esc on an opened call closed the pane: keyhandlers.go must ask the log pane WantsKey")
	}
	if p.Opened() != nil || pane(m) != dialogLog {
		t.Errorf("esc did not go back to the calls: open %v, overlay %v", p.Opened(), pane(m))
	}
}

// The log pane says how the session log kept an opened call's arguments, as
// --log-args set it (Options.LogArgs): it said "redacted" whatever the flag.
func TestLogPaneKnowsTheLogsArgsMode(t *testing.T) {
	for mode, want := range map[sessionlog.ArgsMode]string{
		sessionlog.ArgsFull: "in full (--log-args full)",
		sessionlog.ArgsNone: "not logged (--log-args none)",
		"":                  "secret-looking values redacted",
	} {
		d := demo.New()
		target := &client.Target{Name: "demo", Kind: client.KindInProcess, InProcess: d.MCP(), Trust: policy.Trusted}
		m := New(context.Background(), Options{Target: target, NoColor: true, Now: func() time.Time { return fixedNow },
			LogPath: "/state/mcpsh/sessions/s.jsonl", LogArgs: mode})
		m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
		calls := logOutcomes()
		calls[1].Args = map[string]any{"query": "lisbon weather"}
		m.logPane.SetEntries("/state/mcpsh/sessions/s.jsonl", calls)
		for _, k := range []string{"g", "j", "enter"} {
			m.logPane.Update(keyOf(k))
		}
		if view := ansi.Strip(m.logPane.View()); !strings.Contains(view, want) {
			t.Errorf("--log-args %q: the opened call does not say %q:\n%s", mode, want, view)
		}
	}
}
