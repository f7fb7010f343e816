package proxy

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/testing/wait"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A host's calls through the proxy, from a go-sdk client: at protocol
// 2025-11-25 (asked with elicitation/create) and at go-sdk's default,
// 2026-07-28 (asked inside the call's result).

var versions = []struct{ name, version string }{{"2025-11-25", "2025-11-25"}, {"2026-07-28", ""}}

func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	if args == nil {
		args = map[string]any{}
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// lastLogged is the last outcome the session log got for tool.
func (r *rig) lastLogged(tool string) *client.Outcome {
	out := r.logged()
	for i := len(out) - 1; i >= 0; i-- {
		if out[i].Tool == tool {
			return out[i]
		}
	}
	r.t.Fatalf("no %s in the log: %+v", tool, out)
	return nil
}

func TestReadOnlyCallPasses(t *testing.T) {
	t.Parallel()
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			r := newRig(t, "proxy")
			cs := r.goHost(v.version, nil)
			res := callTool(t, cs, "read", map[string]any{"n": 0})
			if res.IsError || textOf(res) != "ran read" || r.executions("read") != 1 {
				t.Fatalf("read: %+v, executions %d", res, r.executions("read"))
			}
			o := r.lastLogged("read")
			if o.Status != client.StatusOK || o.ApprovedBy != policy.ByPolicy || !o.Proxy || o.Host == nil ||
				o.Host.Name != "test-host" || o.Host.Version != "9.1" || o.Server != "fixture" {
				t.Fatalf("logged %+v (host %+v)", o, o.Host)
			}
			if want := v.name; o.Host.Protocol != want {
				t.Errorf("host protocol %q; want %q", o.Host.Protocol, want)
			}
		})
	}
}

func TestDestructiveCallWithNoOneToAskIsRefusedAndNeverSent(t *testing.T) {
	t.Parallel()
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			r := newRig(t, "proxy")
			cs := r.goHost(v.version, nil)
			res := callTool(t, cs, "wipe", nil)
			text := textOf(res)
			if !res.IsError || r.executions("wipe") != 0 {
				t.Fatalf("wipe: %+v, executions %d", res, r.executions("wipe"))
			}
			for _, want := range []string{`mcpsh refused wipe on server "fixture"; nothing was sent`, "destructiveHint true — declared by the server (a claim, not checked)",
				"How a person can allow it", "did not declare", `"policy": {"allow": ["wipe"]}`} {
				if !strings.Contains(text, want) {
					t.Errorf("the refusal does not say %q:\n%s", want, text)
				}
			}
			if o := r.lastLogged("wipe"); o.Status != client.StatusRefused || o.Need != policy.NeedApproval {
				t.Errorf("logged %s need %q", o.Status, o.Need)
			}
		})
	}
}

// answering is a host whose user answers mcpsh's questions, and counts
// every form it is shown.
type answering struct {
	action   string
	content  map[string]any
	asked    atomic.Int32
	messages chan string
}

func (a *answering) options() *mcp.ClientOptions {
	a.messages = make(chan string, 16)
	return &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		a.asked.Add(1)
		a.messages <- req.Params.Message
		return &mcp.ElicitResult{Action: a.action, Content: a.content}, nil
	}}
}

func TestHostElicitationApprovesOrDeclines(t *testing.T) {
	t.Parallel()
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			r := newRig(t, "proxy")
			yes := &answering{action: "accept", content: map[string]any{"decision": "run"}}
			cs := r.goHost(v.version, yes.options())
			res := callTool(t, cs, "wipe", map[string]any{"path": "/tmp/x"})
			if res.IsError || r.executions("wipe") != 1 || yes.asked.Load() != 1 {
				t.Fatalf("accepted: %q, executions %d, asked %d", textOf(res), r.executions("wipe"), yes.asked.Load())
			}
			msg := wait.Recv(t, "the question", yes.messages)
			for _, want := range []string{`mcpsh asks before a call by Test Host 9.1 to server "fixture":`, "Tool: wipe: destructive",
				"destructiveHint true — declared by the server (a claim, not checked)", `Arguments: {"path":"/tmp/x"}`} {
				if !strings.Contains(msg, want) {
					t.Errorf("the question does not say %q:\n%s", want, msg)
				}
			}
			if o := r.lastLogged("wipe"); o.Status != client.StatusOK || o.ApprovedBy != policy.ByHost {
				t.Errorf("logged %s by %q", o.Status, o.ApprovedBy)
			}

			r2 := newRig(t, "proxy")
			no := &answering{action: "decline"}
			res = callTool(t, r2.goHost(v.version, no.options()), "wipe", nil)
			if !res.IsError || r2.executions("wipe") != 0 || !strings.Contains(textOf(res), "declined by the host's user") {
				t.Fatalf("declined: %q, executions %d", textOf(res), r2.executions("wipe"))
			}
		})
	}
}

// A host that accepts every form unseen approves nothing: the form has a
// required choice and no default.
func TestAHostThatAcceptsEveryFormApprovesNothing(t *testing.T) {
	t.Parallel()
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			for _, content := range []map[string]any{nil, {}, {"decision": "refuse"}} {
				r := newRig(t, "proxy")
				blind := &answering{action: "accept", content: content}
				cs := r.goHost(v.version, blind.options())
				// go-sdk's host may itself refuse its handler's answer ({}
				// lacks the required choice): the call then fails at the
				// host. Either way nothing runs.
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "wipe", Arguments: map[string]any{}})
				if (err == nil && !res.IsError) || r.executions("wipe") != 0 || blind.asked.Load() != 1 {
					t.Fatalf("accept %v: %v %v, executions %d, asked %d", content, res, err, r.executions("wipe"), blind.asked.Load())
				}
			}
		})
	}
}

func TestDenyRuleBeatsTheHostsYes(t *testing.T) {
	t.Parallel()
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			r := newRig(t, "proxy", func(o *Options) { o.Target.Rules = []policy.Rule{{Pattern: "wipe", Action: policy.Deny}} })
			yes := &answering{action: "accept", content: map[string]any{"decision": "run"}}
			res := callTool(t, r.goHost(v.version, yes.options()), "wipe", nil)
			if !res.IsError || r.executions("wipe") != 0 || yes.asked.Load() != 0 || !strings.Contains(textOf(res), `denied by rule "wipe"`) {
				t.Fatalf("%q, executions %d, host asked %d times", textOf(res), r.executions("wipe"), yes.asked.Load())
			}
		})
	}
}

func TestUntrustedServerAsksEvenForReads(t *testing.T) {
	t.Parallel()
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			r := newRig(t, "proxy", untrusted)
			res := callTool(t, r.goHost(v.version, nil), "read", nil)
			if !res.IsError || r.executions("read") != 0 || !strings.Contains(textOf(res), "not believed: the server is untrusted") {
				t.Fatalf("read with no one to ask: %q, executions %d", textOf(res), r.executions("read"))
			}
			r2 := newRig(t, "proxy", untrusted)
			yes := &answering{action: "accept", content: map[string]any{"decision": "run"}}
			res = callTool(t, r2.goHost(v.version, yes.options()), "read", nil)
			if res.IsError || r2.executions("read") != 1 || yes.asked.Load() != 1 {
				t.Fatalf("read approved: %q, executions %d", textOf(res), r2.executions("read"))
			}
		})
	}
}

// The server re-declares a tool between the host's listing and its call:
// the call is decided on what the server declares at the call.
func TestHintChangeBetweenListingAndCall(t *testing.T) {
	t.Parallel()
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			r := newRig(t, "redeclare")
			cs := r.goHost(v.version, nil)
			tools, err := cs.ListTools(context.Background(), nil)
			if err != nil || len(tools.Tools) != 2 {
				t.Fatalf("%v %v", tools, err)
			}
			callTool(t, cs, "trigger", nil)
			res := callTool(t, cs, "get_thing", nil)
			if !res.IsError || r.executions("get_thing") != 0 || !strings.Contains(textOf(res), "destructive") {
				t.Fatalf("get_thing after the change: %q, executions %d", textOf(res), r.executions("get_thing"))
			}
		})
	}
}

func TestRetriesThroughACrashOnlyForReplaySafeCalls(t *testing.T) {
	t.Parallel()
	r := newRig(t, "proxy")
	cs := r.goHost("2025-11-25", nil)
	res := callTool(t, cs, "crash_read", nil)
	if res.IsError || textOf(res) != "ran crash_read" || r.executions("crash_read") != 2 {
		t.Fatalf("crash_read: %q, executions %d; want ok after a retry", textOf(res), r.executions("crash_read"))
	}
	res = callTool(t, cs, "crash_write", nil)
	if !res.IsError || r.executions("crash_write") != 1 || !strings.Contains(textOf(res), "failed") {
		t.Fatalf("crash_write: %q, executions %d; want an error, sent once", textOf(res), r.executions("crash_write"))
	}
}
