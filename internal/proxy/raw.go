package proxy

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/mcpsh/mcpsh/internal/jsonscan"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rawResult hands go-sdk the upstream server's result to send the host as
// it came. go-sdk's jsonrpc2 marshals a result with encoding/json, which
// calls MarshalJSON and compacts what it returns, HTML left unescaped
// (internal/jsonrpc2/messages.go): the host gets the server's bytes less
// insignificant whitespace. Embedding ResultBase makes it an mcp.Result
// (go-sdk's documented way for results of one's own type), whose _meta
// go-sdk may write to (at 2026-07-28 it names the server there).
//
// Only the members that belong to one connection rather than to the
// content are rewritten (hop members): resultType, inputRequests and
// requestState (SEP-2322), the io.modelcontextprotocol/ members of _meta
// (SEP-2575), and on listings ttlMs and cacheScope (SEP-2549), so a host
// never caches a listing mcpsh may have to take back. The rest is spliced
// verbatim.
type rawResult struct {
	mcp.ResultBase
	raw json.RawMessage
	// drop are top-level members of raw this hop leaves out; set are the
	// ones it writes itself, in order, after raw's own.
	drop []string
	set  []member
}

type member struct {
	key   string
	value json.RawMessage
}

// hopMembers are the top-level members no result passes on.
var hopMembers = []string{"resultType", "inputRequests", "requestState"}

// listingHopMembers are those of a listing, which also says how long it
// may be cached.
var listingHopMembers = []string{"resultType", "inputRequests", "requestState", "ttlMs", "cacheScope"}

// errNotObject: an answer to pass on that is not a JSON object, which no
// MCP result may be.
var errNotObject = errors.New("the server's answer is not a JSON object")

// newRaw makes the result to pass on from raw, which must be a JSON object;
// resultType says, for a host that speaks 2026-07-28, that it is complete
// (go-sdk writes it only into its own result types).
func newRaw(raw json.RawMessage, drop []string, newProtocol bool) (*rawResult, error) {
	if _, err := topLevel(raw); err != nil {
		return nil, err
	}
	r := &rawResult{raw: raw, drop: drop}
	if newProtocol {
		r.set = append(r.set, member{"resultType", json.RawMessage(`"complete"`)})
	}
	return r, nil
}

// MarshalJSON never fails: jsonrpc2 sends no answer at all for a result it
// cannot marshal, and the host would wait until its own timeout. raw was
// checked by newRaw, and the splice only drops and adds whole members; if
// it still made no JSON object, the host gets a result that says so
// (unpassable), never an empty one that would read as success.
func (r *rawResult) MarshalJSON() ([]byte, error) {
	fields, err := topLevel(r.raw)
	if err != nil {
		return r.unpassable(), nil
	}
	var b bytes.Buffer
	b.Grow(len(r.raw) + 64)
	b.WriteByte('{')
	n := 0
	write := func(key []byte, value []byte) {
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.Write(key)
		b.WriteByte(':')
		b.Write(value)
	}
	metaDone := false
	for _, f := range fields {
		name := f.name()
		switch {
		case slices.Contains(r.drop, name) || r.sets(name):
			continue
		case name == "_meta":
			if metaDone {
				continue
			}
			metaDone = true
			if m := r.meta(f.value); m != nil {
				write(f.key, m)
			}
			continue
		}
		write(f.key, f.value)
	}
	if !metaDone {
		if m := r.meta(nil); m != nil {
			write([]byte(`"_meta"`), m)
		}
	}
	for _, s := range r.set {
		k, _ := json.Marshal(s.key)
		write(k, s.value)
	}
	b.WriteByte('}')
	if !json.Valid(b.Bytes()) {
		return r.unpassable(), nil
	}
	return b.Bytes(), nil
}

// unpassableText is what the agent reads when mcpsh could not pass the
// server's answer on.
const unpassableText = "mcpsh could not pass the server's answer on: it did not make a JSON object; nothing of it was sent here. If this was a tool call, it may have run on the server."

// unpassable is a tool result with isError that says the server's answer
// could not be passed on, with this hop's members (resultType).
func (r *rawResult) unpassable() []byte {
	b := []byte(`{"content":[{"type":"text","text":"` + unpassableText + `"}],"isError":true`)
	for _, s := range r.set {
		k, _ := json.Marshal(s.key)
		b = append(append(append(append(b, ','), k...), ':'), s.value...)
	}
	return append(b, '}')
}

func (r *rawResult) sets(name string) bool {
	for _, s := range r.set {
		if s.key == name {
			return true
		}
	}
	return false
}

// meta is the _meta to send: the server's, less its io.modelcontextprotocol/
// members, with this hop's own (go-sdk's, in ResultBase) added. nil when
// there is none.
func (r *rawResult) meta(upstream json.RawMessage) json.RawMessage {
	var fields []field
	if upstream != nil {
		fields, _ = topLevel(upstream)
		if fields == nil && !isNullJSON(upstream) && len(r.Meta) == 0 {
			return upstream // not an object: the server's, as it was
		}
		// Not an object, with members of this hop's to write (the server's
		// name, at 2026-07-28): they go in an object of their own, in its
		// place, since no _meta can hold both.
	}
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	write := func(key, value []byte) {
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.Write(key)
		b.WriteByte(':')
		b.Write(value)
	}
	for _, f := range fields {
		if name := f.name(); strings.HasPrefix(name, "io.modelcontextprotocol/") || r.Meta[name] != nil {
			continue
		}
		write(f.key, f.value)
	}
	keys := make([]string, 0, len(r.Meta))
	for k := range r.Meta {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v, err := marshalNoEscape(r.Meta[k])
		if err != nil {
			continue
		}
		kb, _ := json.Marshal(k)
		write(kb, v)
	}
	if n == 0 && upstream == nil {
		return nil
	}
	b.WriteByte('}')
	return b.Bytes()
}

// field is one member of a JSON object: its key as written (a string
// literal, escapes and all) and its value.
type field struct {
	key   []byte
	value json.RawMessage
}

// name is the key's value.
func (f field) name() string {
	if bytes.IndexByte(f.key, '\\') < 0 {
		return string(f.key[1 : len(f.key)-1])
	}
	var s string
	_ = json.Unmarshal(f.key, &s)
	return s
}

// topLevel returns the members of a JSON object in order, as slices of raw.
func topLevel(raw json.RawMessage) ([]field, error) {
	fields := []field{}
	if !jsonscan.Members(raw, func(k, v []byte) bool {
		fields = append(fields, field{key: k, value: v})
		return true
	}) {
		return nil, errNotObject
	}
	return fields, nil
}

func isNullJSON(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}

// marshalNoEscape is json.Marshal without HTML escaping, as jsonrpc2 writes.
func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
