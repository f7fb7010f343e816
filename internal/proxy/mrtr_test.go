package proxy

import (
	"encoding/json"
	"strings"
	"testing"
)

// A raw host of protocol 2026-07-28: each request carries the host's
// version, identity and capabilities in its _meta (SEP-2575).

const newMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
	`"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}},` +
	`"io.modelcontextprotocol/clientInfo":{"name":"raw-2026","version":"3"}}`

// callNew sends tools/call at 2026-07-28 with extra params members.
func (h *rawHost) callNew(name, extra string) (map[string]json.RawMessage, json.RawMessage) {
	h.t.Helper()
	if extra != "" {
		extra = "," + extra
	}
	res, e := h.call("tools/call", `{"name":"`+name+`","arguments":{"path":"/x"}`+extra+`,`+newMeta+`}`)
	var m map[string]json.RawMessage
	_ = json.Unmarshal(res, &m)
	return m, e
}

// question asks for wipe and returns the requestState of mcpsh's question.
func (h *rawHost) question() string {
	h.t.Helper()
	m, e := h.callNew("wipe", "")
	if e != nil || string(m["resultType"]) != `"input_required"` {
		h.t.Fatalf("wipe: %v %s", m, e)
	}
	var reqs map[string]struct {
		Method string `json:"method"`
		Params struct {
			Message string `json:"message"`
		} `json:"params"`
	}
	_ = json.Unmarshal(m["inputRequests"], &reqs)
	if q := reqs[approvalKey]; q.Method != "elicitation/create" || !strings.HasPrefix(q.Params.Message, "mcpsh asks before a call by raw-2026 3") {
		h.t.Fatalf("the question: %s", m["inputRequests"])
	}
	var st string
	_ = json.Unmarshal(m["requestState"], &st)
	return st
}

const yes = `"inputResponses":{"mcpsh-approval":{"action":"accept","content":{"decision":"run"}}}`

// The answer to mcpsh's question counts only with the state mcpsh made,
// for the same call, the first time.
func TestAnswersInsideResultsAreSealedAndOneShot(t *testing.T) {
	t.Parallel()
	r := newRig(t, "proxy")
	h := r.rawHost()
	if _, e := h.call("server/discover", `{`+newMeta+`}`); e != nil {
		t.Fatal(string(e))
	}
	st := h.question()
	if r.executions("wipe") != 0 {
		t.Fatal("the question sent the call")
	}
	forged := map[string]string{
		"not mcpsh's":      "eyJrIjoiYXBwcm92ZSJ9.AAAA",
		"tampered":         st[:len(st)-2] + flip(st[len(st)-2:]),
		"another payload":  st[:10] + flip(st[10:12]) + st[12:],
		"no signature":     strings.Split(st, ".")[0],
		"empty of meaning": ".",
	}
	for what, s := range forged {
		m, e := h.callNew("wipe", yes+`,"requestState":"`+s+`"`)
		if e != nil || string(m["isError"]) != "true" || r.executions("wipe") != 0 {
			t.Fatalf("%s state: %v %s, executions %d", what, m, e, r.executions("wipe"))
		}
	}
	// The right state, for other arguments: another call.
	other, e := h.call("tools/call", `{"name":"wipe","arguments":{"path":"/other"},`+yes+`,"requestState":"`+st+`",`+newMeta+`}`)
	if e != nil || !strings.Contains(string(other), "another call") || r.executions("wipe") != 0 {
		t.Fatalf("another call's state: %s %s", other, e)
	}
	st = h.question()
	m, e := h.callNew("wipe", yes+`,"requestState":"`+st+`"`)
	if e != nil || string(m["isError"]) == "true" || r.executions("wipe") != 1 {
		t.Fatalf("the answer with mcpsh's state: %v %s, executions %d", m, e, r.executions("wipe"))
	}
	// The result names the server as the server did, not mcpsh.
	if !strings.Contains(string(m["_meta"]), `"io.modelcontextprotocol/serverInfo":{"name":"mcpsh-fixture","title":"Fixture","version":"7"}`) ||
		string(m["resultType"]) != `"complete"` {
		t.Errorf("the result's _meta %s, resultType %s", m["_meta"], m["resultType"])
	}
	m, _ = h.callNew("wipe", yes+`,"requestState":"`+st+`"`)
	if string(m["isError"]) != "true" || !strings.Contains(string(m["content"]), "already used") || r.executions("wipe") != 1 {
		t.Fatalf("the same answer again: %v, executions %d", m, r.executions("wipe"))
	}
}

func flip(s string) string {
	b := []byte(s)
	for i := range b {
		if b[i] == 'A' {
			b[i] = 'B'
		} else {
			b[i] = 'A'
		}
	}
	return string(b)
}
