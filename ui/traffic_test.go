package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/internal/theme"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/style"
)

// The traffic pane shows every message of the session with the server on
// screen: the handshake, the listing and a call with its latency; it filters
// by method, opens one pretty-printed and copies it.
func TestTrafficPane(t *testing.T) {
	alpha, beta := demo.New(), demo.New()
	var traced []client.TraceEntry // Options.Client.Trace (--trace) still hears everything
	traceCh := make(chan client.TraceEntry, 4096)
	// Pinned to 2025-11-25, the handshake is initialize (2026-07-28's is
	// server/discover).
	m := New(context.Background(), Options{NoColor: true, Now: func() time.Time { return fixedNow },
		Client:  client.Options{ProtocolVersion: "2025-11-25", Trace: func(e client.TraceEntry) { traceCh <- e }},
		Choices: []Choice{demoChoice("alpha", alpha, policy.Trusted), demoChoice("beta", beta, policy.Trusted)}})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	d := drive(t, m)
	d.run(m.Init())
	a, b := m.servers[0], m.servers[1]
	d.until("both servers", func() bool { return ready(a) && ready(b) })
	d.callTool("list notes")
	d.until("the call's result", func() bool { return m.mode == modeResult })
	d.keys("T")
	if m.overlay != overlayTraffic {
		t.Fatal("T did not open the traffic pane")
	}
	answered := func() bool {
		for _, e := range a.traffic.Entries() {
			if e.Method == "tools/call" && e.Kind == "response" {
				return true
			}
		}
		return false
	}
	d.until("the call's answer on the wire", answered)
	s := screen(m)
	if miss := has(s, "Traffic  alpha", "→ request", "initialize", "tools/list", "tools/call", "← response", " ms"); miss != "" {
		t.Fatalf("the pane lacks %q:\n%s", miss, s)
	}
	for _, e := range a.traffic.Entries() {
		if e.Method == "tools/call" && e.Kind == "response" && e.LatencyMS <= 0 {
			t.Errorf("no latency on the tools/call answer: %+v", e.TraceEntry)
		}
		if e.Server != "alpha" {
			t.Errorf("alpha's pane has a message of %q", e.Server)
		}
	}
	if beta.Executions("list_notes") != 0 || len(b.traffic.Entries()) == 0 {
		t.Fatalf("beta: %d calls, %d messages", beta.Executions("list_notes"), len(b.traffic.Entries()))
	}
	for range len(traceCh) {
		traced = append(traced, <-traceCh)
	}
	if len(traced) < len(a.traffic.Entries())+len(b.traffic.Entries()) {
		t.Errorf("Options.Client.Trace heard %d messages, the panes %d", len(traced), len(a.traffic.Entries())+len(b.traffic.Entries()))
	}
	checkScreen(t, "traffic", m.render(), 100, 30)

	// Filter by method as you type.
	d.keys("/")
	d.typeText("CALL")
	if a.traffic.Matching() != 2 || strings.Contains(screen(m), "tools/list") {
		t.Fatalf("filter: %d shown\n%s", a.traffic.Matching(), screen(m))
	}
	d.keys("enter")
	if miss := has(screen(m), "/ CALL", "2 of "); miss != "" {
		t.Fatalf("the kept filter lacks %q:\n%s", miss, screen(m))
	}
	// ] shows beta's traffic, which has no call.
	d.keys("]")
	if m.serverState != b || m.overlay != overlayTraffic || !strings.Contains(screen(m), "Traffic  beta") {
		t.Fatalf("]: on %s, overlay %v", m.name(), m.overlay)
	}
	d.keys("[")

	// Open the answer, pretty-printed.
	d.keys("enter")
	s = screen(m)
	if miss := has(s, "← response tools/call", "answered in", `"jsonrpc": "2.0"`, `"result": {`); miss != "" {
		t.Fatalf("the open message lacks %q:\n%s", miss, s)
	}
	checkScreen(t, "traffic open", m.render(), 100, 30)
	d.keys("down", "pgdown", "G", "g")

	// c copies it with OSC 52.
	_, cmd := m.Update(keyOf("c"))
	if cmd == nil {
		t.Fatal("c copied nothing")
	}
	msg := cmd()
	if reflect.TypeOf(msg).String() != "tea.setClipboardMsg" {
		t.Fatalf("c: %T, not tea.SetClipboard", msg)
	}
	if text := reflect.ValueOf(msg).String(); !strings.Contains(text, `"jsonrpc": "2.0"`) || !strings.Contains(text, "\n  ") {
		t.Fatalf("copied %q", text)
	}
	if !strings.Contains(m.status, "copied") {
		t.Errorf("status %q", m.status)
	}
	d.keys("esc")
	if a.traffic.Opened() {
		t.Fatal("esc did not close the message")
	}
	d.keys("esc")
	if a.traffic.Filter() != "" || m.overlay != overlayTraffic {
		t.Fatal("esc did not clear the filter first")
	}
	d.keys("esc")
	if m.overlay != overlayNone {
		t.Fatal("esc did not close the pane")
	}
}

// The pane keeps the newest messages only, each cut short, and the feed
// never blocks the client: past its buffer, messages are counted as dropped.
func TestTrafficIsBounded(t *testing.T) {
	st, keys := style.NewStyles(theme.Dark(), true), keymap.Default()
	p := NewTraffic(st, keys, nil, nil)
	p.SetSize(80, 20)
	var batch []TrafficEntry
	for i := range trafficKeep + 500 {
		batch = append(batch, TrafficEntry{TraceEntry: client.TraceEntry{Time: fixedNow, Dir: "out", Kind: "request", Method: fmt.Sprintf("m/%d", i), ID: fmt.Sprint(i), Message: json.RawMessage(`{}`), Size: 2}})
	}
	p.Add(batch, 7)
	if p.Len() != trafficKeep || p.base != 500 || p.entries[0].Method != "m/500" {
		t.Fatalf("kept %d from %d (%s)", p.Len(), p.base, p.entries[0].Method)
	}
	if e, _ := p.selected(); e.Method != fmt.Sprintf("m/%d", trafficKeep+499) {
		t.Fatalf("the cursor is on %s, not the newest", e.Method)
	}
	if s := p.View("x"); !strings.Contains(s, "7 not shown") || !strings.Contains(s, fmt.Sprintf("the last %d of %d", trafficKeep, trafficKeep+500)) {
		t.Fatalf("the title does not say what was left out:\n%s", s)
	}

	// A large message is cut; large ones together stay within the budget.
	f := newTrafficFeed(nil, nil)
	huge := json.RawMessage(`"` + strings.Repeat("é", 1<<20) + `"`)
	f.offer(client.TraceEntry{Message: huge, Size: len(huge)})
	e := <-f.ch
	if len(e.Message) > trafficTextMax || e.cut != len(huge)-len(e.Message) || e.Size != len(huge) {
		t.Fatalf("kept %d bytes, cut %d", len(e.Message), e.cut)
	}
	if pretty := string(prettyMessage(e)); !strings.Contains(pretty, "more not kept") {
		t.Fatal("a cut message does not say so")
	}
	var big []TrafficEntry
	for range 300 {
		big = append(big, e)
	}
	p.Add(big, 0)
	if p.bytes > trafficBytes {
		t.Fatalf("%d bytes kept, more than %d", p.bytes, trafficBytes)
	}

	// The feed never blocks: the transport's goroutine goes on.
	for range trafficQueue + 10 {
		f.offer(client.TraceEntry{Message: json.RawMessage(`{}`)})
	}
	if got := f.dropped.Load(); got != 10 {
		t.Fatalf("dropped %d, want 10", got)
	}
	msg := waitTraffic(f)().(TrafficMsg)
	if len(msg.Entries) != trafficBatch || msg.Dropped != 10 {
		t.Fatalf("a batch of %d, dropped %d", len(msg.Entries), msg.Dropped)
	}
	// Nor does it hold more than trafficQueueBytes of text for the view.
	g := newTrafficFeed(nil, nil)
	for range 2 * trafficQueueBytes / trafficTextMax {
		g.offer(client.TraceEntry{Message: huge})
	}
	if kept := len(g.ch); kept*trafficTextMax > trafficQueueBytes || g.dropped.Load() == 0 {
		t.Fatalf("%d large messages queued, %d dropped", kept, g.dropped.Load())
	}
	for range len(g.ch) {
		g.took(<-g.ch)
	}
	if g.queued.Load() != 0 {
		t.Fatalf("%d bytes counted as queued in an empty queue", g.queued.Load())
	}
	// A method or ID counts against the budgets as the message does.
	long := strings.Repeat("m", 64<<10)
	h := newTrafficFeed(nil, nil)
	for range trafficQueue {
		h.offer(client.TraceEntry{Method: long, ID: long, Message: json.RawMessage(`{}`)})
	}
	if h.dropped.Load() == 0 || int64(len(h.ch))*int64(2*len(long)) > trafficQueueBytes {
		t.Fatalf("%d entries with long methods queued, %d dropped", len(h.ch), h.dropped.Load())
	}
	var longs []TrafficEntry
	for range trafficKeep {
		longs = append(longs, TrafficEntry{TraceEntry: client.TraceEntry{Method: long, ID: long, Message: json.RawMessage(`{}`)}})
	}
	q := NewTraffic(st, keys, nil, nil)
	q.Add(longs, 0)
	if q.bytes > trafficBytes || q.Len()*2*len(long) > trafficBytes {
		t.Fatalf("%d entries with long methods kept (%d bytes counted)", q.Len(), q.bytes)
	}
}

// Nothing from the server reaches the screen raw: methods, IDs and message
// text go through termtext.
func TestTrafficIsSanitized(t *testing.T) {
	st, keys := style.NewStyles(theme.Dark(), true), keymap.Default()
	p := NewTraffic(st, keys, nil, nil)
	p.SetSize(80, 20)
	evil := "\x1b]0;pwned\x07\x1b[2J"
	msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "x" + evil, "params": map[string]string{"t": "a\u202eb\u0085c" + evil}})
	p.Add([]TrafficEntry{{TraceEntry: client.TraceEntry{Time: fixedNow, Dir: "in", Kind: "notification", Method: "x" + evil, ID: `"` + evil + `"`, Message: msg, Size: len(msg)}}}, 0)
	// The styles' own SGR sequences are the only escapes on screen.
	raw := func(s string) bool {
		return strings.Contains(s, "\x1b]") || strings.Contains(s, "\x1b[2J") || strings.ContainsAny(s, "\x07\u202e\u0085")
	}
	if s := p.View(evil); raw(s) {
		t.Errorf("list: a control reached the screen: %q", s)
	}
	p.openSelected()
	if s := p.View("x"); raw(s) {
		t.Errorf("open: a control reached the screen: %q", s)
	}
	if strings.ContainsAny(string(p.open.text), "\u202e\u0085") {
		t.Errorf("the copy holds raw bidi or C1 controls: %q", p.open.text)
	}
	assertFits(t, p.View("x"), 80, 20)
}

// A server's message is bytes, not necessarily UTF-8: a raw 0x9b (C1 CSI to
// terminals that read 8-bit controls) must not reach the clipboard, whether
// the message is JSON, cut short or not JSON at all.
func TestTrafficCopyHoldsNoRawInvalidBytes(t *testing.T) {
	st, keys := style.NewStyles(theme.Dark(), true), keymap.Default()
	for _, m := range []struct {
		name string
		msg  []byte
		cut  int
	}{
		{"json", []byte("{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":{\"t\":\"a\x9b31mb\"}}"), 0},
		{"not json", []byte("Starting\x9b2J server"), 0},
		{"cut", []byte("{\"t\":\"a\x9b31m"), 100},
	} {
		p := NewTraffic(st, keys, nil, nil)
		p.SetSize(80, 20)
		p.Add([]TrafficEntry{{TraceEntry: client.TraceEntry{Time: fixedNow, Dir: "in", Kind: "notification", Method: "x", Message: m.msg, Size: len(m.msg) + m.cut}, cut: m.cut}}, 0)
		if text := prettyMessage(p.entries[0]); bytes.IndexByte(text, 0x9b) >= 0 || !utf8.Valid(text) {
			t.Errorf("%s: the copy holds a raw 0x9b: %q", m.name, text)
		}
		p.openSelected()
		if bytes.IndexByte(p.open.text, 0x9b) >= 0 {
			t.Errorf("%s: the opened text holds a raw 0x9b: %q", m.name, p.open.text)
		}
	}
}
