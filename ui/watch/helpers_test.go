package watch

import (
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/console"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/internal/uitest"
)

var t0 = time.Date(2026, 3, 14, 15, 4, 5, 0, time.UTC)

// answers records what the view answered, as console.Watcher.Answer would
// send it.
type answers struct {
	mu  sync.Mutex
	got []string
}

func (a *answers) answer(proxy, question string, c console.Choice) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.got = append(a.got, proxy+"/"+question+"/"+string(c))
	return nil
}

func (a *answers) list() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.got...)
}

// newTest is a view of w×h cells with no events yet.
func newTest(t *testing.T, noColor bool, w, h int) (*Model, *answers) {
	t.Helper()
	a := &answers{}
	m := New(Options{Answer: a.answer, NoColor: noColor, Now: func() time.Time { return t0 }, Location: time.UTC})
	// The test arms each dialog itself (arm), when it means to.
	m.tick = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m, a
}

// feed hands the view events, as the watcher's command would.
func feed(m *Model, es ...console.Event) tea.Cmd {
	_, cmd := m.Update(eventsMsg(es))
	return cmd
}

// press types keys; it returns the last key's command.
func press(m *Model, keys ...string) tea.Cmd {
	var cmd tea.Cmd
	for _, k := range keys {
		_, cmd = m.Update(uitest.Key(k))
	}
	return cmd
}

// run runs cmd and what it batches, and hands their messages to the view.
func run(m *Model, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			run(m, c)
		}
	case nil:
	default:
		m.Update(msg)
	}
}

// arm is the dialog's tick arriving.
func arm(m *Model) { m.Update(armMsg{seq: m.armSeq}) }

func info(id, host, version, server string, started time.Time) *console.Info {
	i := &console.Info{ID: id, PID: 4242, Started: started, Socket: "/run/x/" + id + ".sock", Mcpsh: "1.0",
		Server: console.Server{Name: server, Transport: "stdio", Protocol: "2025-11-25"}}
	if host != "" {
		i.Host = &client.Peer{Name: host, Version: version, Protocol: "2025-11-25"}
	}
	return i
}

func appeared(i *console.Info) console.Event {
	return console.Event{Kind: console.ProxyAppeared, Proxy: i.ID, Info: i}
}

func started(proxy string, id uint64, at time.Duration, tool, title string, class policy.Class, facets []string, args any) console.Event {
	return console.Event{Kind: "call-started", Proxy: proxy, Call: &console.CallEvent{Event: console.CallStarted, ID: id, Time: t0.Add(at),
		Tool: tool, Title: title, Class: class, Facets: facets, OpenWorld: contains(facets, "open-world"),
		Host: &client.Peer{Name: "claude-code", Version: "2.1"}, Args: args, Decision: policy.Run}}
}

func decided(proxy string, id uint64, v policy.Verdict, by policy.Approver, reason string) console.Event {
	return console.Event{Kind: "call-decided", Proxy: proxy, Call: &console.CallEvent{Event: console.CallDecided, ID: id, Decision: v, ApprovedBy: by, Reason: reason}}
}

func ended(proxy string, id uint64, s client.Status, ms float64, attempts int, err string) console.Event {
	return console.Event{Kind: "call-ended", Proxy: proxy, Call: &console.CallEvent{Event: console.CallEnded, ID: id, Status: s, DurationMS: ms, Attempts: attempts, Error: err}}
}

func asked(proxy, qid string, call uint64, tool string, class policy.Class, args any) console.Event {
	return console.Event{Kind: console.QuestionAsked, Proxy: proxy, Question: &console.Question{ID: qid, Call: call, Tool: tool, Server: "notes",
		Host: client.Peer{Name: "claude-code", Version: "2.1"}, Class: class,
		Why: "delete_note is destructive: it may destroy data", Args: args, Deadline: t0.Add(2 * time.Minute),
		Basis: []policy.Basis{{Field: policy.FieldDestructive, Declared: policy.True, Value: true, Source: policy.SourceDeclared, Believed: true, Decided: true}}}}
}

func closedBy(proxy, qid string, c console.Choice, yours bool) console.Event {
	return console.Event{Kind: console.QuestionClosed, Proxy: proxy, Closed: &console.Closed{Question: qid, How: console.ClosedAnswered, Choice: c, Yours: yours}}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// busy is two proxies and calls of every kind: read-only, write with a
// retry and a tool error, destructive refused at the console, open-world,
// hints implied, conflicting, allowed for the session, running, and one
// waiting for a person.
func busy(m *Model) {
	feed(m,
		appeared(info("p1", "claude-code", "2.1", "notes", t0)),
		appeared(info("p2", "cursor", "1.2", "files", t0.Add(time.Minute))),
		started("p1", 1, 10*time.Second, "list_notes", "List notes", policy.ClassReadOnly, nil, map[string]any{}),
		decided("p1", 1, policy.Run, policy.ByPolicy, "read-only"),
		ended("p1", 1, client.StatusOK, 12, 1, ""),
		started("p1", 2, 20*time.Second, "add_note", "Add a note", policy.ClassWrite, []string{"idempotent"}, map[string]any{"title": "plan"}),
		decided("p1", 2, policy.Run, policy.ByRule, "allowed by rule add_*"),
		ended("p1", 2, client.StatusToolError, 1430, 2, "the note exists"),
		started("p2", 1, 30*time.Second, "fetch", "", policy.ClassReadOnly, []string{"open-world"}, map[string]any{"url": "https://example.com"}),
		decided("p2", 1, policy.Run, policy.ByPolicy, ""),
		ended("p2", 1, client.StatusOK, 250, 1, ""),
		started("p2", 2, 40*time.Second, "rm", "Remove", policy.ClassDestructive, []string{"implied"}, map[string]any{"path": "/tmp/x"}),
		decided("p2", 2, policy.Refuse, "", "declined at the console"),
		ended("p2", 2, client.StatusRefused, 0, 0, ""),
		started("p1", 3, 50*time.Second, "odd", "", policy.ClassDestructive, []string{"conflict"}, nil),
		started("p1", 4, 55*time.Second, "archive", "Archive", policy.ClassWrite, nil, map[string]any{}),
		decided("p1", 4, policy.Run, policy.BySession, ""),
		ended("p1", 4, client.StatusOK, 3, 1, ""),
		started("p1", 5, 60*time.Second, "delete_note", "Delete a note", policy.ClassDestructive, nil, map[string]any{"id": 2}),
		asked("p1", "q1", 5, "delete_note", policy.ClassDestructive, map[string]any{"id": 2}),
	)
}

func tea_size(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }

func pasteOf(s string) tea.PasteMsg { return tea.PasteMsg{Content: s} }
