package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/internal/testing/wait"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var update = flag.Bool("update", false, "rewrite testdata/words.golden")

// wordsCase is a tool, what the server sent for its hints, and the
// request policy decides on.
type wordsCase struct {
	name     string
	hints    policy.Hints
	declared string // the annotations' hints as sent
	trust    policy.Trust
	rules    []policy.Rule
}

var wordsCases = []wordsCase{
	{name: "destructive, declared", hints: policy.Hints{ReadOnly: policy.False, Destructive: policy.True, OpenWorld: policy.False},
		declared: `{"readOnlyHint":false,"destructiveHint":true,"openWorldHint":false}`},
	{name: "nothing declared: every hint the spec's default", declared: `{}`},
	{name: "a hint that is not a boolean", hints: policy.Hints{ReadOnly: policy.False},
		declared: `{"readOnlyHint":false,"destructiveHint":"yes"}`},
	{name: "untrusted: claims not believed", hints: policy.Hints{ReadOnly: policy.True, OpenWorld: policy.False},
		declared: `{"readOnlyHint":true,"openWorldHint":false}`, trust: policy.Untrusted},
	{name: "read-only and destructive: the stricter reading", hints: policy.Hints{ReadOnly: policy.True, Destructive: policy.True},
		declared: `{"readOnlyHint":true,"destructiveHint":true}`},
	{name: "deny by class", hints: policy.Hints{ReadOnly: policy.False, Destructive: policy.True},
		declared: `{"readOnlyHint":false,"destructiveHint":true}`, rules: []policy.Rule{{Pattern: "is:destructive", Action: policy.Deny}}},
	{name: "confirm by class on a read-only tool", hints: policy.Hints{ReadOnly: policy.True, OpenWorld: policy.True},
		declared: `{"readOnlyHint":true,"openWorldHint":true}`, rules: []policy.Rule{{Pattern: "is:open-world", Action: policy.Confirm}}},
	{name: "deny by name", hints: policy.Hints{ReadOnly: policy.True},
		declared: `{"readOnlyHint":true}`, rules: []policy.Rule{{Pattern: "t*", Action: policy.Deny}}},
	{name: "untrusted, deny by class: the worst case", hints: policy.Hints{ReadOnly: policy.True},
		declared: `{"readOnlyHint":true}`, trust: policy.Untrusted, rules: []policy.Rule{{Pattern: "is:destructive", Action: policy.Deny}}},
}

func (c wordsCase) tool() *client.Tool {
	t := &client.Tool{Name: "tool", Title: "Tool", Hints: c.hints, Declared: map[string]json.RawMessage{}}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(c.declared), &m); err != nil {
		panic(err)
	}
	t.Declared = m
	return t
}

func (c wordsCase) trustOf() policy.Trust {
	if c.trust == "" {
		return policy.Trusted
	}
	return c.trust
}

// TestWordsGolden renders, for each case, the question the host's user
// would be asked (in interactive mode) and the refusal the agent gets (in
// batch mode) from policy's own decision. A change in policy's account
// or in the proxy's wording shows as a diff of testdata/words.golden;
// read it, then rerun with -update.
func TestWordsGolden(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	host := client.Peer{Name: "Test Host", Version: "9.1"}
	for _, c := range wordsCases {
		tool := c.tool()
		req := policy.Request{Tool: tool.Name, Hints: c.hints, Trust: c.trustOf(), Rules: c.rules}
		fmt.Fprintf(&b, "=== %s\n", c.name)
		req.Mode = policy.Interactive
		if d := policy.Decide(req); d.Verdict == policy.Ask {
			a := &client.Approval{Server: "fx", Tool: tool, Args: map[string]any{"path": "/tmp/x"}, Decision: d}
			fmt.Fprintf(&b, "--- question\n%s\n", question(a, host, c.trustOf()))
		}
		req.Mode = policy.Batch
		d := policy.Decide(req)
		if d.Verdict != policy.Refuse {
			fmt.Fprintf(&b, "--- %s: %s\n", d.Verdict, d.Reason)
			continue
		}
		o := &client.Outcome{Tool: tool.Name, Declared: tool.Declared, Reason: d.Reason, Need: d.Need, Rule: d.Rule, Basis: d.Basis}
		fmt.Fprintf(&b, "--- refusal\n%s\n", refusal("fx", o, false, allowAt{entry: true}))
	}
	path := filepath.Join("testdata", "words.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/proxy -run TestWordsGolden -update)", err)
	}
	if !bytes.Equal(want, b.Bytes()) {
		t.Errorf("the proxy's words changed; if intended, rerun with -update and read the diff:\n%s", b.String())
	}
}

// The question and the refusal say what policy's decision says about each
// hint: its own account, line for line, not the proxy's reading of the
// tool. A decision whose basis differs from what the tool's hints alone
// would give (a rule, an untrusted server) is worded as decided.
func TestWordsAreThePolicysAccount(t *testing.T) {
	t.Parallel()
	for _, c := range wordsCases {
		t.Run(c.name, func(t *testing.T) {
			tool := c.tool()
			d := policy.Decide(policy.Request{Tool: tool.Name, Hints: c.hints, Trust: c.trustOf(), Rules: c.rules, Mode: policy.Batch})
			if len(d.Basis) == 0 {
				t.Fatal("policy gave no basis")
			}
			o := &client.Outcome{Tool: tool.Name, Declared: tool.Declared, Reason: d.Reason, Need: d.Need, Rule: d.Rule, Basis: d.Basis}
			text := refusal("fx", o, false, allowAt{entry: true})
			for _, x := range d.Basis {
				if !strings.Contains(text, "  "+x.String()) {
					t.Errorf("the refusal does not carry policy's %q:\n%s", x.String(), text)
				}
			}
			if d.Rule != "" && !strings.Contains(text, fmt.Sprintf("Rule: %q, in mcpsh's config", d.Rule)) {
				t.Errorf("the refusal does not name rule %q:\n%s", d.Rule, text)
			}
		})
	}
}

// A rule from the config and a hint's value from the server reach the
// host's user and the agent made safe for a terminal.
func TestBasisIsMadeSafe(t *testing.T) {
	t.Parallel()
	var evil string
	_ = json.Unmarshal([]byte(`"`+fixture.Evil+`"`), &evil)
	// JSON may carry C1 controls and bidi overrides unescaped.
	raw := json.RawMessage("\"\u009b31m\u202eyes\"")
	bs := []policy.Basis{{Field: policy.FieldDestructive, Declared: policy.Absent, Value: true, Source: policy.SourceDefault, Believed: true, Decided: true, Rule: "x" + evil, Overridden: true}}
	lines := basis(bs, "rule"+evil, map[string]json.RawMessage{"destructiveHint": raw})
	text := strings.Join(lines, "\n")
	if strings.ContainsAny(text, "\x1b\x07\u009b\u202e") || !strings.Contains(text, "which is not a boolean") || !strings.Contains(text, "Rule: ") {
		t.Fatalf("basis: %q", text)
	}
}

// The mark on a server's message is on its first visible line: what the
// server puts before its words (blank lines, controls, invisible
// characters) is dropped, so nothing it wrote starts below the mark.
func TestTheServersMarkIsOnItsFirstVisibleLine(t *testing.T) {
	t.Parallel()
	for _, msg := range []string{"\n\n\n\nmcpsh asks: ok?", "\r\n\u200b\n \t\n\u3164\u2800mcpsh asks: ok?", "\x1b[2J\x1b[H\u202e\u0301mcpsh asks: ok?", "\u2028\u2029\ufeffmcpsh asks: ok?"} {
		got := markServer("fx", msg)
		first, _, _ := strings.Cut(got, "\n")
		if first != `From server "fx" (not mcpsh): mcpsh asks: ok?` || !termtext.Safe(got) {
			t.Errorf("markServer(%q) = %q", msg, got)
		}
	}
	if got := markServer("fx", "line one\n\nline two"); got != "From server \"fx\" (not mcpsh): line one\n\nline two" {
		t.Errorf("the message's own lines: %q", got)
	}
}

// A server whose form starts with blank lines and invisible characters
// reaches the host with the mark on the line its words start on.
func TestTheServersLeadingBlanksDoNotPushItsWordsBelowTheMark(t *testing.T) {
	t.Parallel()
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			r := newRig(t, "proxy")
			asked := make(chan string, 1)
			cs := r.goHost(v.version, &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				asked <- req.Params.Message
				return &mcp.ElicitResult{Action: "decline"}, nil
			}})
			callTool(t, cs, "ask", map[string]any{"lead": true})
			msg := wait.Recv(t, "the server's form", asked)
			if first, _, _ := strings.Cut(msg, "\n"); first != `From server "fixture" (not mcpsh): `+fixture.ProxyAskMessage || !termtext.Safe(msg) {
				t.Fatalf("the host was shown %q", msg)
			}
		})
	}
}
