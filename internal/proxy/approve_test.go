package proxy

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func shortApproval(o *Options) { o.ApprovalTimeout = 300 * time.Millisecond }

// A question nobody answers is a refusal once the approval timeout passes.
func TestAnUnansweredQuestionIsARefusal(t *testing.T) {
	t.Parallel()
	r := newRig(t, "proxy", shortApproval)
	silent := &mcp.ClientOptions{ElicitationHandler: func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		<-ctx.Done() // the host's user never answers; mcpsh gives up and cancels the request
		return nil, ctx.Err()
	}}
	res := callTool(t, r.goHost("2025-11-25", silent), "wipe", nil)
	if !res.IsError || r.executions("wipe") != 0 || !strings.Contains(textOf(res), "no one answered within 300ms") {
		t.Fatalf("%q, executions %d", textOf(res), r.executions("wipe"))
	}
	if o := r.lastLogged("wipe"); o.Status != client.StatusRefused {
		t.Errorf("logged %s", o.Status)
	}
}

// At 2026-07-28 the question's state expires: an answer sent after the
// approval timeout approves nothing.
func TestAnAnswerAfterTheTimeoutIsARefusal(t *testing.T) {
	t.Parallel()
	r := newRig(t, "proxy", shortApproval)
	h := r.rawHost()
	if _, e := h.call("server/discover", `{`+newMeta+`}`); e != nil {
		t.Fatal(string(e))
	}
	st := h.question()
	time.Sleep(400 * time.Millisecond) // past the approval timeout: the host's user answers late
	m, e := h.callNew("wipe", yes+`,"requestState":"`+st+`"`)
	if e != nil || string(m["isError"]) != "true" || !strings.Contains(string(m["content"]), "no one answered within 300ms") || r.executions("wipe") != 0 {
		t.Fatalf("%v %s, executions %d", m, e, r.executions("wipe"))
	}
}

// What the host says it is reaches its user's screen made safe.
func TestTheHostsNameIsMadeSafeInTheQuestion(t *testing.T) {
	t.Parallel()
	r := newRig(t, "proxy")
	h := r.rawHost()
	var name string
	_ = json.Unmarshal([]byte(`"evil`+fixture.Evil+`host"`), &name)
	evil, _ := json.Marshal(name)
	if _, e := h.call("initialize", `{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":`+string(evil)+`,"version":"1"}}`); e != nil {
		t.Fatal(string(e))
	}
	h.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	h.send(`{"jsonrpc":"2.0","id":"w","method":"tools/call","params":{"name":"wipe","arguments":{}}}`)
	for {
		m := h.read()
		if string(m["method"]) != `"elicitation/create"` {
			continue
		}
		var p struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal(m["params"], &p)
		if !strings.HasPrefix(p.Message, "mcpsh asks before a call by evil") || strings.ContainsAny(p.Message, "\x1b\x07\u009b\u202e") {
			t.Fatalf("the question: %q", p.Message)
		}
		h.send(`{"jsonrpc":"2.0","id":` + string(m["id"]) + `,"result":{"action":"decline"}}`)
		return
	}
}
