package overlays

import (
	"encoding/json"
	"sync/atomic"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
)

// The wire, per server: every JSON-RPC message in and out, as the client's
// trace sees it (client.Options.Trace). The trace runs on the transport's
// goroutines, so it only offers each message to a buffered channel, never
// waiting: when the view has fallen a whole buffer behind (trafficQueue
// messages, or trafficQueueBytes of their text), the message is counted as
// dropped instead. A re-armed command (waitTraffic) hands what
// arrived to Update in batches, and the traffic pane keeps the newest
// trafficKeep of them, each cut to trafficTextMax, and no more than
// trafficBytes of text in all: memory stays bounded however long the session
// and however large the messages.
const (
	trafficKeep       = 1000
	trafficBytes      = 8 << 20
	trafficTextMax    = 64 << 10
	trafficQueue      = 1024
	trafficQueueBytes = 4 << 20
	trafficBatch      = 256
)

// TrafficEntry is one message as the pane keeps it: its text cut to
// trafficTextMax, and how much of it was cut.
type TrafficEntry struct {
	client.TraceEntry
	cut int
}

// TrafficMsg is the JSON-RPC messages that crossed the wire since the last
// one, and how many the view has had to drop so far.
type TrafficMsg struct {
	Entries []TrafficEntry
	Dropped int64
}

// trafficFeed carries one server's messages from the transport to the view.
type trafficFeed struct {
	ch      chan TrafficEntry
	queued  atomic.Int64 // bytes of text in ch
	dropped atomic.Int64
	// stop and ctxDone end the wait: the view has ended.
	stop    <-chan struct{}
	ctxDone <-chan struct{}
}

func newTrafficFeed(stop, ctxDone <-chan struct{}) *trafficFeed {
	return &trafficFeed{ch: make(chan TrafficEntry, trafficQueue), stop: stop, ctxDone: ctxDone}
}

// tracer is client.Options.Trace for the server's sessions: next, when set
// (--trace's file), hears every message first, whole.
func (f *trafficFeed) tracer(next func(client.TraceEntry)) func(client.TraceEntry) {
	return func(e client.TraceEntry) {
		if next != nil {
			next(e)
		}
		f.offer(e)
	}
}

// offer cuts the message to what the pane keeps, and hands it over unless
// the view is a whole buffer behind.
func (f *trafficFeed) offer(e client.TraceEntry) {
	te := TrafficEntry{TraceEntry: e}
	if n := len(e.Message); n > trafficTextMax {
		keep := trafficTextMax
		for keep > 0 && !utf8.RuneStart(e.Message[keep]) {
			keep--
		}
		te.Message = append(json.RawMessage(nil), e.Message[:keep]...)
		te.cut = n - keep
	}
	n := entryBytes(te)
	if f.queued.Add(n) > trafficQueueBytes {
		f.queued.Add(-n)
		f.dropped.Add(1)
		return
	}
	select {
	case f.ch <- te:
	default:
		f.queued.Add(-n)
		f.dropped.Add(1)
	}
}

// took says the view took e off the queue.
func (f *trafficFeed) took(e TrafficEntry) { f.queued.Add(-entryBytes(e)) }

// entryBytes is the text an entry holds, for the bounds on the queue and the pane.
func entryBytes(e TrafficEntry) int64 {
	return int64(len(e.Message) + len(e.Method) + len(e.ID) + len(e.Server))
}

// waitTraffic delivers the messages that arrived since the last call, at
// least one; Update re-arms it after each batch.
func waitTraffic(f *trafficFeed) tea.Cmd {
	return func() tea.Msg {
		var first TrafficEntry
		select {
		case first = <-f.ch:
		case <-f.stop:
			return nil
		case <-f.ctxDone:
			return nil
		}
		f.took(first)
		entries := []TrafficEntry{first}
		for len(entries) < trafficBatch {
			select {
			case e := <-f.ch:
				f.took(e)
				entries = append(entries, e)
			default:
				return TrafficMsg{Entries: entries, Dropped: f.dropped.Load()}
			}
		}
		return TrafficMsg{Entries: entries, Dropped: f.dropped.Load()}
	}
}
