package proxy

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
)

func compact(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The host gets each listing as the server wrote it, but for whitespace
// and the members that belong to one connection (a listing's ttlMs and
// cacheScope: mcpsh may take a listing back, so no host caches it).
func TestListingsReachTheHostAsTheServerWroteThem(t *testing.T) {
	t.Parallel()
	r := newRig(t, "proxy")
	h := r.rawHost()
	init := h.initialize("2025-11-25", `{}`)
	var ir struct {
		ProtocolVersion string          `json:"protocolVersion"`
		ServerInfo      json.RawMessage `json:"serverInfo"`
		Instructions    string          `json:"instructions"`
		Capabilities    json.RawMessage `json:"capabilities"`
	}
	_ = json.Unmarshal(init, &ir)
	if ir.ProtocolVersion != "2025-11-25" || string(ir.ServerInfo) != `{"name":"mcpsh-fixture","title":"Fixture","version":"7"}` ||
		ir.Instructions != "use read first" || !strings.Contains(string(ir.Capabilities), `"completions":{}`) {
		t.Fatalf("initialize: %s", init)
	}

	page1 := strings.Replace(compact(t, fixture.ProxyToolsPage1), `,"ttlMs":60000,"cacheScope":"shared"`, "", 1)
	cases := []struct{ method, params, want string }{
		{"tools/list", `{}`, page1},
		{"tools/list", `{"cursor":"page-2"}`, compact(t, fixture.ProxyToolsPage2)},
		{"resources/list", `{}`, compact(t, fixture.ProxyResources)},
		{"resources/list", `{"cursor":"r2"}`, compact(t, fixture.ProxyResources2)},
		{"resources/templates/list", `{}`, compact(t, fixture.ProxyTemplates)},
		{"prompts/list", `{}`, compact(t, fixture.ProxyPrompts)},
		{"prompts/get", `{"name":"greet","arguments":{"who":"x"}}`, compact(t, fixture.ProxyPromptGet)},
		{"resources/read", `{"uri":"file:///a.txt"}`, compact(t, fixture.ProxyRead)},
		{"completion/complete", `{"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"who","value":"a"}}`, compact(t, fixture.ProxyComplete)},
	}
	for _, c := range cases {
		res, e := h.call(c.method, c.params)
		if e != nil {
			t.Fatalf("%s: %s", c.method, e)
		}
		if string(res) != c.want {
			t.Errorf("%s %s:\n got %s\nwant %s", c.method, c.params, res, c.want)
		}
	}
	// The tools came from mcpsh's own listing, made when the host
	// connected: the host's listing cost the server nothing more.
	if n := len(fixture.Lines(r.state, "executions")); n != 0 {
		t.Errorf("listings ran %d tools", n)
	}
}

// A cursor that is not the current listing's is refused; a host's own
// cursor is never sent upstream.
func TestCursorsNotHandedOutAreRefused(t *testing.T) {
	t.Parallel()
	r := newRig(t, "proxy")
	h := r.rawHost()
	h.initialize("2025-11-25", `{}`)
	for _, c := range []struct{ method, cursor string }{{"tools/list", "forged"}, {"resources/list", "r2"}, {"prompts/list", "x"}} {
		_, e := h.call(c.method, `{"cursor":"`+c.cursor+`"}`)
		if !strings.Contains(string(e), `-32602`) || !strings.Contains(string(e), "invalid cursor") {
			t.Errorf("%s with cursor %q: error %s", c.method, c.cursor, e)
		}
	}
	// Once handed out, r2 is good.
	if _, e := h.call("resources/list", `{}`); e != nil {
		t.Fatal(string(e))
	}
	if _, e := h.call("resources/list", `{"cursor":"r2"}`); e != nil {
		t.Errorf("the cursor the server handed out was refused: %s", e)
	}
}

// Nothing but JSON-RPC reaches the host, however noisy the server's
// stdout: a banner, log lines, blank lines.
func TestStdoutCarriesOnlyJSONRPCWhileTheServerIsNoisy(t *testing.T) {
	t.Parallel()
	r := newRig(t, "noisy")
	h := r.rawHost()
	h.initialize("2025-11-25", `{}`)
	h.call("tools/list", `{}`)
	res, e := h.call("tools/call", `{"name":"read","arguments":{}}`)
	if e != nil || !strings.Contains(string(res), "ran read") {
		t.Fatalf("read: %s %s", res, e)
	}
	// read checks every line it reads: all of them were JSON-RPC.
	if len(h.lines) < 3 {
		t.Fatalf("read %d lines", len(h.lines))
	}
}
