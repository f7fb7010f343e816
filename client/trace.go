package client

import (
	"bytes"
	"encoding/json"
	"slices"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mcpsh/mcpsh/internal/redact"
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
	// secrets are the credentials mcpsh holds for the server, now: taken
	// out of a message before anyone sees it, so the traffic pane and a
	// trace file show what crossed the wire but for them (a server may
	// quote a token).
	secrets func() []string

	mu     sync.Mutex
	sentAt map[string]sent // request ID → when and what it was
}

type sent struct {
	at     time.Time
	method string
}

func newTracer(t Target, emit func(TraceEntry)) *tracer {
	return &tracer{server: t.Label(), emit: emit, secrets: t.knownSecrets, sentAt: map[string]sent{}}
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
	e := TraceEntry{Time: time.Now(), Server: tr.server, Dir: dir, Size: len(raw), Message: tr.scrub(raw)}
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
		tr.emit(TraceEntry{Time: time.Now(), Server: tr.server, Dir: dir, Kind: "unreadable", Size: len(raw), Message: clipRaw(tr.redactText(raw))})
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

// known are the secrets to take out of a message now; none without a
// hook (tests that build a tracer by hand).
func (tr *tracer) known() []string {
	if tr.secrets == nil {
		return nil
	}
	return slices.DeleteFunc(tr.secrets(), func(s string) bool { return s == "" })
}

func (tr *tracer) redactText(raw []byte) []byte {
	if secrets := tr.known(); len(secrets) > 0 {
		return []byte(redact.Known(string(raw), secrets))
	}
	return raw
}

// scrub is a copy of a JSON-RPC message without the credentials mcpsh
// holds for the server. A match on the bytes finds a secret written
// plainly, and leaves the JSON valid; but a JSON string can spell it with
// escapes ("\u0061t-1" for "at-1"), so a message that holds any is read,
// and written again with every string redacted, if that changed one.
func (tr *tracer) scrub(raw []byte) json.RawMessage {
	secrets := tr.known()
	if len(secrets) == 0 {
		return append(json.RawMessage(nil), raw...)
	}
	out := []byte(redact.Known(string(raw), secrets))
	plain := json.Valid(out)
	if plain && bytes.IndexByte(out, '\\') < 0 {
		return out
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) == nil {
		changed := false
		v = redactStrings(v, func(s string) string {
			r := redact.Known(s, secrets)
			changed = changed || r != s
			return r
		})
		if changed {
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			if enc.Encode(v) == nil {
				return bytes.TrimRight(b.Bytes(), "\n")
			}
		}
	}
	if plain {
		return out
	}
	return clipRaw(out) // not JSON any more: kept as a string
}

// redactStrings applies f to every string in v, keys included.
func redactStrings(v any, f func(string) string) any {
	switch x := v.(type) {
	case string:
		return f(x)
	case []any:
		for i := range x {
			x[i] = redactStrings(x[i], f)
		}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[f(k)] = redactStrings(e, f)
		}
		return out
	}
	return v
}
