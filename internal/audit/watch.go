package audit

import (
	"encoding/json"
	"sync"

	"github.com/mcpsh/mcpsh/client"
)

// stateChanges are the notifications that say the server's state changed:
// its tools, its resources, or its prompts.
var stateChanges = map[string]string{
	"notifications/tools/list_changed":     "the server's tool list",
	"notifications/resources/list_changed": "the server's resource list",
	"notifications/resources/updated":      "a resource",
	"notifications/prompts/list_changed":   "the server's prompt list",
}

// Notice is one state-change notification the server sent.
type Notice struct {
	Method string
	URI    string // the resource, for notifications/resources/updated
}

// Watch attributes the server's state-change notifications to the tools/call
// in flight when they arrived. It is fed every message as it crosses the
// wire (client.Options.Trace), in wire order. The SDK's own notification
// handlers cannot tell this: go-sdk queues notifications to a handler
// goroutine of their own (internal/jsonrpc2 conn.go, handleAsync) but hands a
// response to its caller at once, so a handler may run after the answer that
// followed its notification on the wire has been returned.
//
// A call is in flight from its tools/call request going out to its response
// (or error) coming in. Probe calls are sequential, so at most one is.
type Watch struct {
	mu      sync.Mutex
	open    string // the request ID of the tools/call in flight, "" for none
	during  []Notice
	between []Notice
}

// Note is a client.Options.Trace: it runs on the transport's goroutines and
// does not block.
func (w *Watch) Note(e client.TraceEntry) {
	switch {
	case e.Dir == "out" && e.Kind == "request" && e.Method == "tools/call":
		w.mu.Lock()
		w.open = e.ID
		w.mu.Unlock()
	case e.Dir == "in" && (e.Kind == "response" || e.Kind == "error"):
		w.mu.Lock()
		if e.ID != "" && e.ID == w.open {
			w.open = ""
		}
		w.mu.Unlock()
	case e.Dir == "in" && e.Kind == "notification":
		if _, ok := stateChanges[e.Method]; !ok {
			return
		}
		n := Notice{Method: e.Method}
		if e.Method == "notifications/resources/updated" {
			var m struct {
				Params struct {
					URI string `json:"uri"`
				} `json:"params"`
			}
			if json.Unmarshal(e.Message, &m) == nil {
				n.URI = clip(m.Params.URI, 200)
			}
		}
		w.mu.Lock()
		if w.open != "" {
			w.during = append(w.during, n)
		} else {
			w.between = append(w.between, n)
		}
		w.mu.Unlock()
	}
}

// Take returns the notices that arrived while a call was in flight since the
// last Take, and closes any call left open (one that timed out, say), so a
// late notice is not put on the next call.
func (w *Watch) Take() []Notice {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.during
	w.during, w.open = nil, ""
	return out
}

// Between returns the notices that arrived while no call was in flight.
func (w *Watch) Between() []Notice {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]Notice(nil), w.between...)
}
