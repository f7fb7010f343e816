package client

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The wire tap sits beneath the SDK (a wrapped Connection for stdio, SSE and
// in-process sessions; a wrapped http.RoundTripper for streamable HTTP) and takes
// the results of tools/list and tools/call off the wire before the SDK decodes them,
// and those of prompts/get and resources/read that ask for more input (rounds.go).
//
// mcpsh parses those two results itself because the SDK's typed decode loses what
// mcpsh is for: ReadOnlyHint and IdempotentHint are plain bools, so "absent" and
// "false" look alike; one hint of the wrong JSON type fails the whole tools/list;
// one content block of an unknown type fails the whole tools/call. The tap keeps
// the raw result for mcpsh and hands the SDK an empty shell it always accepts.
//
// Seeing the wire in order also tells mcpsh what the SDK's callbacks cannot:
// that the server said its tools changed *before* the answer that follows on
// the same stream, whether a cancellation actually left, and whether an HTTP
// server has forgotten the session.
type tap struct {
	mu      sync.Mutex
	pending map[string]tapped          // request ID → what the answer is wanted for
	results map[string]json.RawMessage // tools/call results, and input-required ones, by progress token
	pages   map[string]json.RawMessage // tools/list results by cursor
	wire    map[string]*callWire       // what the transport saw of each tools/call, by token
	// cancels are closed once notifications/cancelled for a request ID has been
	// written (stdio) or accepted (HTTP).
	cancels map[string]chan struct{}

	// listChanged hears of notifications/tools/list_changed as it is read, so a
	// call whose answer comes after it on the wire is decided on a new listing.
	listChanged func()
	// asked hears of each request the server sends mcpsh, by method, so a
	// request for something mcpsh did not offer is reported, not just refused.
	asked func(method string)
	// trace, when set, hears every message as it crosses the wire.
	trace *tracer
	// sessionGone: an HTTP server answered 404 to a request that carried the
	// session ID. The spec says the client must then start a new session.
	sessionGone atomic.Bool
	// initialize is the server's answer to initialize as it came: go-sdk's
	// typed decode drops what its types lack (2025-11-25's tasks
	// capability, taskwire.go).
	initialize atomic.Pointer[json.RawMessage]
}

// callWire is what the transport saw of one tools/call: whether it left mcpsh
// and, over HTTP, the status and Retry-After. Failure classification needs it:
// a request that never left cannot have run.
type callWire struct {
	id         string // the JSON-RPC request ID, as wire JSON
	sent       bool
	status     int
	retryAfter time.Duration
	// oversized: the answer was more than mcpsh accepts (too large, or nested
	// too deep to read), so mcpsh put an error in its place; why says which.
	oversized bool
	why       string
	// cancelTold: the call was cancelled and notifications/cancelled left mcpsh.
	cancelTold bool
	// sessionGone: the HTTP server answered 404 to a request that carried
	// the session's ID. A 404 to a request without one (protocol 2026-07-28
	// keeps no sessions) is the server's answer, not a lost session.
	sessionGone bool
	// progressToken is the call's token, kept routed when the call created
	// a task (attempt).
	progressToken string
}

type tapped struct {
	method string
	key    string // progress token (tools/call, prompts/get, resources/read) or cursor (tools/list)
	// keep: the final answer of a resources/read is kept too, not only one
	// that asks for input (a forwarded request, forward.go).
	keep bool
}

// outNote is what outgoing learned of a message, for the transport to confirm
// once the message has left: the token of a tools/call, or the request a
// cancellation is for.
type outNote struct {
	token    string
	cancelOf string
}

func newTap() *tap {
	return &tap{
		pending: map[string]tapped{},
		results: map[string]json.RawMessage{},
		pages:   map[string]json.RawMessage{},
		wire:    map[string]*callWire{},
		cancels: map[string]chan struct{}{},
	}
}

// Shells the SDK decodes instead of the real results.
var (
	emptyListResult   = json.RawMessage(`{"tools":[]}`)
	emptyCallResult   = json.RawMessage(`{"content":[]}`)
	emptyPromptResult = json.RawMessage(`{"messages":[]}`)
	emptyReadResult   = json.RawMessage(`{"contents":[]}`)
)

// roundShells are the shells for the requests a server may answer with an
// input-required result besides tools/call, whose results the tap always keeps.
var roundShells = map[string]json.RawMessage{"prompts/get": emptyPromptResult, "resources/read": emptyReadResult}

// idKey is a request ID as wire JSON, so an ID the SDK holds as int64 and the
// same ID decoded from a cancellation's params compare equal. go-sdk numbers
// its requests, and this runs for every message both ways, so an int64 skips
// json.Marshal (which writes it the same way).
func idKey(id jsonrpc.ID) string {
	if n, ok := id.Raw().(int64); ok {
		return strconv.FormatInt(n, 10)
	}
	b, _ := json.Marshal(id.Raw())
	return string(b)
}

// rawIDKey is idKey for an ID read from JSON.
func rawIDKey(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(bytes.TrimSpace(raw))
	}
	if f, ok := v.(float64); ok {
		v = int64(f)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// outgoing notes the requests whose answers mcpsh wants and the cancellations
// mcpsh sends. It runs before the message is written, so the answer cannot
// arrive first; the transport confirms with delivered once the message is out.
func (t *tap) outgoing(ctx context.Context, msg jsonrpc.Message) outNote {
	req, ok := msg.(*jsonrpc.Request)
	if !ok {
		return outNote{}
	}
	if !req.IsCall() {
		if req.Method != "notifications/cancelled" {
			return outNote{}
		}
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if json.Unmarshal(req.Params, &p) != nil || len(p.RequestID) == 0 {
			return outNote{}
		}
		return outNote{cancelOf: rawIDKey(p.RequestID)}
	}
	var key string
	switch req.Method {
	case "tools/call", "prompts/get", "resources/read":
		key = callToken(ctx, req.Params)
	case "tools/list":
		var p struct {
			Cursor string `json:"cursor"`
		}
		_ = json.Unmarshal(req.Params, &p)
		key = p.Cursor
	default:
		key = rawKeyOf(ctx, req.Method) // tapraw.go
	}
	// Every call is noted, so an answer too large to read can be turned into
	// an error for whichever request it answers, and a probe left unanswered
	// (server/discover) can be told apart from a dead server.
	id := idKey(req.ID)
	t.mu.Lock()
	t.pending[id] = tapped{method: req.Method, key: key, keep: keepsAnswer(ctx)}
	if req.Method == "tools/call" && key != "" {
		t.wire[key] = &callWire{id: id}
	}
	t.mu.Unlock()
	if req.Method == "tools/call" {
		return outNote{token: key}
	}
	return outNote{}
}

// callTokenKey carries a request's progress token from attempt (or a round of
// prompts/get or resources/read) to the tap, on the context the SDK writes
// the request with.
type callTokenKey struct{}

func withCallToken(ctx context.Context, token string) context.Context {
	return context.WithValue(ctx, callTokenKey{}, token)
}

// callToken is the progress token in a tools/call's _meta: "" when it is not
// one of mcpsh's calls. The token attempt put on the context is taken when
// the parameters carry it, which costs a search rather than a parse of the
// arguments, however large; otherwise the parameters are read in full.
func callToken(ctx context.Context, params json.RawMessage) string {
	if tok, ok := ctx.Value(callTokenKey{}).(string); ok && tok != "" &&
		bytes.Contains(params, []byte(`"progressToken":"`+tok+`"`)) {
		return tok
	}
	var p struct {
		Meta struct {
			ProgressToken any `json:"progressToken"`
		} `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return ""
	}
	tok, _ := p.Meta.ProgressToken.(string)
	return tok
}

// unanswered reports whether a request with this method went out and got no answer.
func (t *tap) unanswered(method string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, p := range t.pending {
		if p.method == method {
			return true
		}
	}
	return false
}

// delivered records that a noted message left mcpsh, and what an HTTP server
// answered (status 0 for other transports).
func (t *tap) delivered(n outNote, status int, retryAfter time.Duration) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if n.token != "" {
		if w := t.wire[n.token]; w != nil {
			w.sent, w.status, w.retryAfter = true, status, retryAfter
		}
	}
	if n.cancelOf != "" && (status == 0 || status/100 == 2) {
		ch := t.cancelChan(n.cancelOf)
		select {
		case <-ch:
		default:
			close(ch)
		}
	}
}

// cancelChan returns the channel closed when the cancellation of request id
// has left; the caller holds mu.
func (t *tap) cancelChan(id string) chan struct{} {
	ch, ok := t.cancels[id]
	if !ok {
		ch = make(chan struct{})
		t.cancels[id] = ch
	}
	return ch
}

// cancelDelivered waits at most d for the cancellation of the call with this
// token to leave mcpsh. The SDK sends it from a goroutine after the call
// returns, so a process that exits at once would otherwise never send it.
func (t *tap) cancelDelivered(token string, d time.Duration) bool {
	t.mu.Lock()
	w := t.wire[token]
	if w == nil || !w.sent {
		t.mu.Unlock()
		return false
	}
	ch := t.cancelChan(w.id)
	t.mu.Unlock()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ch:
		return true
	case <-timer.C:
		return false
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
	if req, ok := msg.(*jsonrpc.Request); ok {
		switch {
		case !req.IsCall() && req.Method == "notifications/tools/list_changed" && t.listChanged != nil:
			t.listChanged()
		case req.IsCall() && t.asked != nil:
			t.asked(req.Method)
		}
		return msg
	}
	resp, ok := msg.(*jsonrpc.Response)
	if !ok || !resp.ID.IsValid() {
		return msg
	}
	id := idKey(resp.ID)
	// Whether a prompt or a resource asks for input is read before the lock
	// is taken: the answer may be large, and the lock is every message's.
	t.mu.Lock()
	peek := t.pending[id]
	t.mu.Unlock()
	asks := roundShells[peek.method] != nil && resp.Error == nil && wantsInput(resp.Result)
	t.mu.Lock()
	defer t.mu.Unlock()
	what, ok := t.pending[id]
	if !ok {
		return msg
	}
	delete(t.pending, id)
	if resp.Error != nil || len(resp.Result) == 0 {
		return msg
	}
	shell := *resp
	switch {
	case what.method == "initialize":
		raw := resp.Result
		t.initialize.Store(&raw)
		return msg
	case what.method == "tools/call" && what.key != "":
		// An input-required result too (SEP-2322): mcpsh runs the rounds
		// (rounds.go), and go-sdk, whose decode fails on a request method it
		// does not know, never sees one.
		t.results[what.key] = resp.Result
		shell.Result = emptyCallResult
	case what.method == "prompts/get" && what.key != "":
		// Every answer, a final one too: go-sdk's decode fails a whole
		// prompt on one content block of a type it does not know, where
		// mcpsh shows a placeholder (prompts.go).
		t.results[what.key] = resp.Result
		shell.Result = roundShells[what.method]
	case roundShells[what.method] != nil && what.key != "" && (asks || what.keep):
		t.results[what.key] = resp.Result
		shell.Result = roundShells[what.method]
	case what.method == "tools/list":
		t.pages[what.key] = resp.Result
		shell.Result = emptyListResult
	case what.key != "" && rawShells[what.method] != nil:
		t.results[what.key] = resp.Result
		shell.Result = rawShells[what.method]
	default:
		return msg
	}
	return &shell
}

// wantsInput reports a result that asks for input, or whose type mcpsh cannot
// read: mcpsh's rounds say what is wrong with it, where go-sdk would take it
// for a final result.
func wantsInput(result json.RawMessage) bool {
	more, err := needsInput(result)
	return more || err != nil
}

// refuseAnswer marks the call waiting for request id as answered with more
// than mcpsh accepts (why says how), and returns the error response to hand
// the SDK in its place, so the session survives and the call fails at once
// rather than at its timeout. ok is false when no call of mcpsh's waits for
// that ID.
func (t *tap) refuseAnswer(id string, why error) ([]byte, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	what, ok := t.pending[id]
	if !ok {
		return nil, false
	}
	if what.method == "tools/call" {
		if w := t.wire[what.key]; w != nil {
			w.oversized, w.why = true, why.Error()
		}
	}
	msg, _ := json.Marshal(why.Error())
	return []byte(`{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32603,"message":` + string(msg) + `}}`), true
}

// takeResult returns and forgets the raw result kept for a progress token.
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
	if w := t.wire[token]; w != nil {
		delete(t.cancels, w.id)
	}
	delete(t.results, token)
	delete(t.wire, token)
	for id, p := range t.pending {
		if p.method != "tools/list" && p.key == token {
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
