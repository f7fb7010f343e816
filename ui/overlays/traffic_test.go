package overlays

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/theme"
	"github.com/mcpsh/mcpsh/ui/internal/uitest"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/style"
)

// The pane keeps the newest messages only, each cut short, and the feed
// never blocks the client: past its buffer, messages are counted as dropped.
func TestTrafficIsBounded(t *testing.T) {
	st, keys := style.NewStyles(theme.Dark(), true), keymap.Default()
	p := NewTraffic(st, keys, nil, nil)
	p.SetSize(80, 20)
	var batch []TrafficEntry
	for i := range trafficKeep + 500 {
		batch = append(batch, TrafficEntry{TraceEntry: client.TraceEntry{Time: uitest.PaneTime, Dir: "out", Kind: "request", Method: fmt.Sprintf("m/%d", i), ID: fmt.Sprint(i), Message: json.RawMessage(`{}`), Size: 2}})
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
	p.Add([]TrafficEntry{{TraceEntry: client.TraceEntry{Time: uitest.PaneTime, Dir: "in", Kind: "notification", Method: "x" + evil, ID: `"` + evil + `"`, Message: msg, Size: len(msg)}}}, 0)
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
	uitest.AssertFits(t, p.View("x"), 80, 20)
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
		p.Add([]TrafficEntry{{TraceEntry: client.TraceEntry{Time: uitest.PaneTime, Dir: "in", Kind: "notification", Method: "x", Message: m.msg, Size: len(m.msg) + m.cut}, cut: m.cut}}, 0)
		if text := prettyMessage(p.entries[0]); bytes.IndexByte(text, 0x9b) >= 0 || !utf8.Valid(text) {
			t.Errorf("%s: the copy holds a raw 0x9b: %q", m.name, text)
		}
		p.openSelected()
		if bytes.IndexByte(p.open.text, 0x9b) >= 0 {
			t.Errorf("%s: the opened text holds a raw 0x9b: %q", m.name, p.open.text)
		}
	}
}
