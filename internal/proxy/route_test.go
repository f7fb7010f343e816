package proxy

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/wait"
)

// A server's question put to a 2026-07-28 host goes with the call it came
// in, never with another call in flight: the host would answer it as if it
// were about that call.

// sendCall sends tools/call at 2026-07-28 as request id, without waiting.
func (h *rawHost) sendCall(id, name, args, extra string) {
	h.t.Helper()
	if extra != "" {
		extra = "," + extra
	}
	h.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + name + `","arguments":` + args + extra + `,` + newMeta + `}}`)
}

// answer reads up to the next answer to a request of the host's.
func (h *rawHost) answer() (id string, result map[string]json.RawMessage) {
	h.t.Helper()
	for {
		m := h.read()
		if m["id"] != nil && m["method"] == nil {
			_ = json.Unmarshal(m["result"], &result)
			if result == nil {
				h.t.Fatalf("request %s failed: %s", m["id"], m["error"])
			}
			return string(m["id"]), result
		}
	}
}

// An upstream of 2026-07-28 asks in a round of ask_late's while hold,
// started after it, is in flight: the question comes back with ask_late's
// call, and the host's answer to it reaches the server.
func TestARoundsQuestionGoesWithItsOwnCall(t *testing.T) {
	t.Parallel()
	r := newRig(t, "rounds-pair", func(o *Options) { o.Client.ProtocolVersion = "2026-07-28" })
	h := r.rawHost()
	if _, e := h.call("server/discover", `{`+newMeta+`}`); e != nil {
		t.Fatal(string(e))
	}
	h.sendCall("101", "ask_late", `{}`, "")
	wait.Until(t, "ask_late to reach the server", func() bool { return r.executions("ask_late") == 1 })
	h.sendCall("102", "hold", `{}`, "")
	id, res := h.answer()
	var reqs map[string]struct {
		Method string `json:"method"`
		Params struct {
			Message string `json:"message"`
		} `json:"params"`
	}
	_ = json.Unmarshal(res["inputRequests"], &reqs)
	key := ""
	for k, q := range reqs {
		if q.Method == "elicitation/create" && q.Params.Message == `From server "fixture" (not mcpsh): Which one?` {
			key = k
		}
	}
	if id != "101" || string(res["resultType"]) != `"input_required"` || key == "" {
		t.Fatalf("the server's question came with request %s: %s", id, jsonOf(res))
	}
	h.sendCall("103", "ask_late", `{}`, `"inputResponses":{"`+key+`":{"action":"accept","content":{"answer":"this"}}},"requestState":`+string(res["requestState"]))
	id, res = h.answer()
	if id != "103" || !strings.Contains(string(res["content"]), "answered accept:this") {
		t.Fatalf("ask_late, answered: request %s: %s", id, jsonOf(res))
	}
}

// An older upstream asks on its own while two of the host's calls are in
// flight, naming neither: the question is declined rather than put to the
// host with a call it may not belong to, and the proxy says why.
func TestAQuestionForNoKnownCallIsDeclined(t *testing.T) {
	t.Parallel()
	r := newRig(t, "proxy")
	h := r.rawHost()
	if _, e := h.call("server/discover", `{`+newMeta+`}`); e != nil {
		t.Fatal(string(e))
	}
	h.sendCall("101", "ask", `{"after":"slow"}`, "")
	wait.Until(t, "ask to reach the server", func() bool { return r.executions("ask") == 1 })
	h.sendCall("102", "slow", `{}`, "")
	id, res := h.answer()
	if id != "101" || !strings.Contains(string(res["content"]), `asked: {\"action\":\"decline\"}`) {
		t.Fatalf("the first answer is request %s's: %s", id, jsonOf(res))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if w := strings.Join(r.warnings, "\n"); !strings.Contains(w, "the server asked for input while 2 calls of the host's were in flight, without saying for which; declined") {
		t.Errorf("warnings: %q", w)
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
