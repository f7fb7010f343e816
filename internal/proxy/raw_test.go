package proxy

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The splice passes the server's members on as written and takes out the
// hop's, however the server spells their keys: a key with escapes is the
// same key to the host's decoder.
func TestRawResultRewritesOnlyTheHopsMembers(t *testing.T) {
	cases := []struct {
		name, raw string
		isNew     bool
		meta      mcp.Meta
		want      string
	}{
		{"as written", `{ "content" : [ {"type":"text","text":"<b>&"} ], "x":1e3 }`, false, nil,
			`{"content":[{"type":"text","text":"<b>&"}],"x":1e3}`},
		{"hop members dropped", `{"content":[],"resultType":"input_required","inputRequests":{},"requestState":"s"}`, false, nil,
			`{"content":[]}`},
		{"escaped keys dropped", `{"content":[],"resultTyp\u0065":"input_required","\u0072equestState":"s"}`, false, nil,
			`{"content":[]}`},
		{"complete at 2026-07-28", `{"content":[],"resultType":"input_required"}`, true, nil,
			`{"content":[],"resultType":"complete"}`},
		{"the server's protocol _meta replaced", `{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"evil"},"k":1},"content":[]}`, true,
			mcp.Meta{mcp.MetaKeyServerInfo: map[string]string{"name": "up"}},
			`{"_meta":{"k":1,"io.modelcontextprotocol/serverInfo":{"name":"up"}},"content":[],"resultType":"complete"}`},
		{"_meta added", `{"content":[]}`, true, mcp.Meta{mcp.MetaKeyServerInfo: map[string]string{"name": "up"}},
			`{"content":[],"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"up"}},"resultType":"complete"}`},
		{"a _meta that is not an object kept", `{"_meta":[1],"content":[]}`, false, nil, `{"_meta":[1],"content":[]}`},
	}
	for _, c := range cases {
		r, err := newRaw(json.RawMessage(c.raw), hopMembers, c.isNew)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		r.Meta = c.meta
		got, err := r.MarshalJSON()
		var compacted bytes.Buffer
		if err != nil || !json.Valid(got) || json.Compact(&compacted, got) != nil || compacted.String() != c.want {
			t.Errorf("%s:\n got %s (%v)\nwant %s", c.name, got, err, c.want)
		}
	}
	for _, bad := range []string{`[1]`, `"x"`, `{"a":`, ``} {
		if _, err := newRaw(json.RawMessage(bad), hopMembers, false); err == nil {
			t.Errorf("newRaw(%q) took it", bad)
		}
	}
}
