package client

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The wire tap sits beneath the SDK (a wrapped Connection for stdio, SSE and
// in-process sessions; a wrapped http.RoundTripper for streamable HTTP) and takes
// the results of tools/list and tools/call off the wire before the SDK decodes them.
//
// mcpsh parses those two results itself because the SDK's typed decode loses what
// mcpsh is for: ReadOnlyHint and IdempotentHint are plain bools, so "absent" and
// "false" look alike; one hint of the wrong JSON type fails the whole tools/list;
// one content block of an unknown type fails the whole tools/call. The tap keeps
// the raw result for mcpsh and hands the SDK an empty shell it always accepts.
type tap struct {
	mu      sync.Mutex
	pending map[string]tapped          // request ID → what the answer is wanted for
	results map[string]json.RawMessage // tools/call results by progress token
	pages   map[string]json.RawMessage // tools/list results by cursor
	wire    map[string]*callWire       // what the transport saw of each tools/call, by token
}

// callWire is what the transport saw of one tools/call: whether it left mcpsh
// and, over HTTP, the status and Retry-After. Failure classification needs it:
// a request that never left cannot have run.
type callWire struct {
	sent       bool
	status     int
	retryAfter time.Duration
}

type tapped struct {
	method string
	key    string // progress token (tools/call) or cursor (tools/list)
}

func newTap() *tap {
	return &tap{
		pending: map[string]tapped{},
		results: map[string]json.RawMessage{},
		pages:   map[string]json.RawMessage{},
		wire:    map[string]*callWire{},
	}
}

// Shells the SDK decodes instead of the real results.
var (
	emptyListResult = json.RawMessage(`{"tools":[]}`)
	emptyCallResult = json.RawMessage(`{"content":[]}`)
)

func idKey(id jsonrpc.ID) string { return fmt.Sprintf("%T:%v", id.Raw(), id.Raw()) }

// outgoing notes the requests whose answers mcpsh wants, and returns the
// progress token of a tools/call. It runs before the message is written, so
// the answer cannot arrive first.
func (t *tap) outgoing(msg jsonrpc.Message) string {
	req, ok := msg.(*jsonrpc.Request)
	if !ok || !req.IsCall() {
		return ""
	}
	var key string
	switch req.Method {
	case "tools/call":
		var p struct {
			Meta struct {
				ProgressToken any `json:"progressToken"`
			} `json:"_meta"`
		}
		if json.Unmarshal(req.Params, &p) != nil {
			return ""
		}
		tok, ok := p.Meta.ProgressToken.(string)
		if !ok {
			return "" // not one of mcpsh's calls
		}
		key = tok
	case "tools/list":
		var p struct {
			Cursor string `json:"cursor"`
		}
		_ = json.Unmarshal(req.Params, &p)
		key = p.Cursor
	default:
		return ""
	}
	t.mu.Lock()
	t.pending[idKey(req.ID)] = tapped{method: req.Method, key: key}
	if req.Method == "tools/call" {
		t.wire[key] = &callWire{}
	}
	t.mu.Unlock()
	if req.Method == "tools/call" {
		return key
	}
	return ""
}

// sentCall records that the tools/call with this token left mcpsh, and what
// an HTTP server answered (status 0 for other transports).
func (t *tap) sentCall(token string, status int, retryAfter time.Duration) {
	if t == nil || token == "" {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if w := t.wire[token]; w != nil {
		w.sent, w.status, w.retryAfter = true, status, retryAfter
	}
}

// wireOf returns what the transport saw of a call.
func (t *tap) wireOf(token string) callWire {
	t.mu.Lock()
	defer t.mu.Unlock()
	if w := t.wire[token]; w != nil {
		return *w
	}
	return callWire{}
}

// incoming keeps the raw result of a tapped request and returns the message the
// SDK should see in its place.
func (t *tap) incoming(msg jsonrpc.Message) jsonrpc.Message {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok || !resp.ID.IsValid() {
		return msg
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	what, ok := t.pending[idKey(resp.ID)]
	if !ok {
		return msg
	}
	delete(t.pending, idKey(resp.ID))
	if resp.Error != nil || len(resp.Result) == 0 {
		return msg
	}
	shell := *resp
	switch what.method {
	case "tools/call":
		t.results[what.key] = resp.Result
		shell.Result = emptyCallResult
	case "tools/list":
		t.pages[what.key] = resp.Result
		shell.Result = emptyListResult
	}
	return &shell
}

// takeResult returns and forgets the raw tools/call result for a progress token.
func (t *tap) takeResult(token string) (json.RawMessage, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	r, ok := t.results[token]
	delete(t.results, token)
	return r, ok
}

// forget drops a call's bookkeeping once its caller has stopped waiting, so a
// late answer to a cancelled call passes through to the SDK, which drops it.
func (t *tap) forget(token string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.results, token)
	delete(t.wire, token)
	for id, p := range t.pending {
		if p.method == "tools/call" && p.key == token {
			delete(t.pending, id)
		}
	}
}

// takePage returns and forgets the raw tools/list result for a cursor.
func (t *tap) takePage(cursor string) (json.RawMessage, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	r, ok := t.pages[cursor]
	delete(t.pages, cursor)
	return r, ok
}
