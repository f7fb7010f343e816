package client

import (
	"encoding/json"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// TraceEntry is one JSON-RPC message as it crossed the wire: what the
// traffic pane shows and a trace file holds. Message is the server's text
// as sent: make it safe before showing it.
type TraceEntry struct {
	Time   time.Time `json:"time"`
	Server string    `json:"server"`
	// Dir is "out" (mcpsh to the server) or "in".
	Dir string `json:"dir"`
	// Kind is request, notification, response, error or unreadable (not
	// JSON-RPC: a stdio server's stray output, say).
	Kind string `json:"kind"`
	// Method is the request's, or for a response the method of the request it answers.
	Method string `json:"method,omitempty"`
	// ID is the request ID as JSON; "" for a notification.
	ID   string `json:"id,omitempty"`
	Size int    `json:"size"`
	// LatencyMS, on a response, is the time since its request went out.
	LatencyMS float64         `json:"latencyMs,omitempty"`
	Message   json.RawMessage `json:"message"`
}

// tracer turns the messages the tap sees into TraceEntry values. It runs
// only when Options.Trace is set: encoding each message again costs.
type tracer struct {
	server string
	emit   func(TraceEntry)

	mu     sync.Mutex
	sentAt map[string]sent // request ID → when and what it was
}

type sent struct {
	at     time.Time
	method string
}

func newTracer(server string, emit func(TraceEntry)) *tracer {
	return &tracer{server: server, emit: emit, sentAt: map[string]sent{}}
}

// note traces one message; raw is its encoding when the transport has it.
func (tr *tracer) note(dir string, m jsonrpc.Message, raw []byte) {
	if tr == nil || m == nil {
		return
	}
	if raw == nil {
		var err error
		if raw, err = jsonrpc.EncodeMessage(m); err != nil {
			return
		}
	}
	e := TraceEntry{Time: time.Now(), Server: tr.server, Dir: dir, Size: len(raw), Message: append(json.RawMessage(nil), raw...)}
	switch msg := m.(type) {
	case *jsonrpc.Request:
		e.Method = clipField(msg.Method)
		e.Kind = "notification"
		if msg.IsCall() {
			id := idKey(msg.ID)
			e.Kind, e.ID = "request", clipField(id)
			tr.mu.Lock()
			tr.sentAt[dir+id] = sent{at: e.Time, method: e.Method}
			tr.mu.Unlock()
		}
	case *jsonrpc.Response:
		e.Kind = "response"
		if msg.Error != nil {
			e.Kind = "error"
		}
		if msg.ID.IsValid() {
			id := idKey(msg.ID)
			e.ID = clipField(id)
			// A response answers a request that went the other way.
			other := "out"
			if dir == "out" {
				other = "in"
			}
			tr.mu.Lock()
			if s, ok := tr.sentAt[other+id]; ok {
				e.Method, e.LatencyMS = s.method, ms(e.Time.Sub(s.at))
				delete(tr.sentAt, other+id)
			}
			tr.mu.Unlock()
		}
	}
	tr.emit(e)
}

// traceFieldMax bounds an entry's method and ID: a server may send a
// megabyte of either, and the message itself keeps them whole.
const traceFieldMax = 256

// clipField cuts s to traceFieldMax bytes, on a rune boundary, marking the cut.
func clipField(s string) string {
	if len(s) <= traceFieldMax {
		return s
	}
	keep := traceFieldMax
	for keep > 0 && !utf8.RuneStart(s[keep]) {
		keep--
	}
	return s[:keep] + "…"
}

// noteRaw traces a message the transport has as bytes only.
func (tr *tracer) noteRaw(dir string, raw []byte) {
	if tr == nil {
		return
	}
	m, err := jsonrpc.DecodeMessage(raw)
	if err != nil {
		tr.emit(TraceEntry{Time: time.Now(), Server: tr.server, Dir: dir, Kind: "unreadable", Size: len(raw), Message: clipRaw(raw)})
		return
	}
	tr.note(dir, m, raw)
}

// clipRaw keeps a message that is not JSON-RPC as a JSON string, bounded.
func clipRaw(raw []byte) json.RawMessage {
	s := string(raw)
	if len(s) > 4096 {
		s = s[:4096] + "…"
	}
	b, _ := json.Marshal(s)
	return b
}
