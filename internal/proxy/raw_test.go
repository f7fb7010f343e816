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
	t.Parallel()
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
		{"a _meta that is not an object gives way to the hop's", `{"_meta":"x","content":[]}`, true,
			mcp.Meta{mcp.MetaKeyServerInfo: map[string]string{"name": "up"}},
			`{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"up"}},"content":[],"resultType":"complete"}`},
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

// A result whose bytes do not make a JSON object (newRaw checks them; only
// a fault of mcpsh's own gets here) reaches the host as a tool result that
// says so, never as an empty, successful one.
func TestAnAnswerThatCannotBePassedOnSaysSo(t *testing.T) {
	t.Parallel()
	for _, isNew := range []bool{false, true} {
		r, err := newRaw(json.RawMessage(`{"content":[]}`), hopMembers, isNew)
		if err != nil {
			t.Fatal(err)
		}
		r.raw = json.RawMessage(`[1]`) // what newRaw would have refused
		got, err := r.MarshalJSON()
		var res mcp.CallToolResult
		if err != nil || json.Unmarshal(got, &res) != nil || !res.IsError || len(res.Content) != 1 {
			t.Fatalf("%s (%v)", got, err)
		}
		if tc, ok := res.Content[0].(*mcp.TextContent); !ok || tc.Text != unpassableText {
			t.Errorf("text: %s", got)
		}
		if isNew != bytes.Contains(got, []byte(`"resultType":"complete"`)) {
			t.Errorf("at 2026-07-28 %v: %s", isNew, got)
		}
	}
}

// A server whose result has a _meta that is not an object does not keep a
// 2026-07-28 host from learning which server answered.
func TestAServersNonObjectMetaKeepsTheServersName(t *testing.T) {
	t.Parallel()
	r := newRig(t, "proxy")
	h := r.rawHost()
	if _, e := h.call("server/discover", `{`+newMeta+`}`); e != nil {
		t.Fatal(string(e))
	}
	for _, meta := range []string{`"x"`, `[1,2]`, `7`} {
		res, e := h.call("tools/call", `{"name":"read","arguments":{"meta":`+meta+`},`+newMeta+`}`)
		var m struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		}
		if e != nil || json.Unmarshal(res, &m) != nil ||
			string(m.Meta["io.modelcontextprotocol/serverInfo"]) != `{"name":"mcpsh-fixture","title":"Fixture","version":"7"}` {
			t.Errorf("_meta %s: the host got %s %s", meta, res, e)
		}
	}
}
