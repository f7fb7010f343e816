package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Config rules that speak annotations (is:WORD), per server and global,
// decide the calls an agent makes through mcpsh proxy -s NAME: a deny
// beats the host's yes, a confirm rule makes a call the hints would let
// pass ask the host's user, and a server without the deny rule is asked,
// not denied.

// rulesConfig writes a config with two fixture servers playing the proxy
// scenario: "strict", which denies every destructive tool, and "loose",
// with no rule of its own; a global rule asks before every open-world
// call of either.
func rulesConfig(t *testing.T, strict, loose string) string {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "config.json")
	body, _ := json.Marshal(map[string]any{
		"policy": map[string]any{"confirm": []string{"is:open-world"}},
		"mcpServers": map[string]any{
			"strict": map[string]any{"command": fixtureBin, "args": []string{"-scenario", "proxy", "-state", strict},
				"policy": map[string]any{"deny": []string{"is:destructive"}}},
			"loose": map[string]any{"command": fixtureBin, "args": []string{"-scenario", "proxy", "-state", loose}},
		}})
	if err := os.WriteFile(cfg, body, 0o600); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// answeringHost is a host's user who answers mcpsh's forms with the next
// of its answers (accept runs, decline refuses) and keeps every question.
type answeringHost struct {
	mu      sync.Mutex
	answers []string
	asked   []string
}

func (h *answeringHost) elicit(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.asked = append(h.asked, req.Params.Message)
	a := "accept"
	if len(h.answers) > 0 {
		a, h.answers = h.answers[0], h.answers[1:]
	}
	if a == "accept" {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "run"}}, nil
	}
	return &mcp.ElicitResult{Action: a}, nil
}

// questions returns the questions asked since the last call, and forgets them.
func (h *answeringHost) questions() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	q := h.asked
	h.asked = nil
	return q
}

// ruleLogLine is what the session log says of a call a rule decided.
type ruleLogLine struct {
	Tool       string `json:"tool"`
	Server     string `json:"server"`
	Status     string `json:"status"`
	ApprovedBy string `json:"approvedBy"`
	Rule       string `json:"rule"`
	Basis      []struct {
		Hint       string `json:"hint"`
		Decided    bool   `json:"decided"`
		Rule       string `json:"rule"`
		Overridden bool   `json:"overridden"`
	} `json:"basis"`
	Host *struct{ Name string } `json:"host"`
}

// basisRule is the rule the log's basis names on hint, and whether the
// verdict turned on that hint.
func (l ruleLogLine) basisRule(hint string) (string, bool) {
	for _, b := range l.Basis {
		if b.Hint == hint {
			return b.Rule, b.Decided
		}
	}
	return "", false
}

func rulesLog(t *testing.T, env []string, file string) []ruleLogLine {
	t.Helper()
	r := mcpsh(t, opts{env: env}, "log", file, "--json")
	wantCode(t, r, 0)
	var ls []ruleLogLine
	for _, l := range strings.Split(strings.TrimSpace(r.out), "\n") {
		var e ruleLogLine
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("not NDJSON: %q", l)
		}
		ls = append(ls, e)
	}
	return ls
}

func TestProxyClassRules(t *testing.T) {
	t.Parallel()
	env, _, _ := stateEnv(t)
	for _, v := range []struct{ name, version string }{{"2025-11-25", "2025-11-25"}, {"2026-07-28", ""}} {
		t.Run(v.name, func(t *testing.T) {
			strict, loose := t.TempDir(), t.TempDir()
			cfg := rulesConfig(t, strict, loose)
			logFile := filepath.Join(t.TempDir(), "proxy.jsonl")
			proxy := func(server string) *exec.Cmd {
				cmd := command(t, mcpshBin, "proxy", "--config", cfg, "-s", server, "--log", logFile)
				cmd.Env = testEnv(t, env...)
				return cmd
			}

			// strict: the host's user would say yes to anything.
			user := &answeringHost{answers: []string{"accept", "decline", "accept", "accept"}}
			cs, stderr := goHost(t, proxy("strict"), v.version, &mcp.ClientOptions{ElicitationHandler: user.elicit})
			res, text := hostCall(t, cs, "wipe")
			if !res.IsError || !contains2(text, `denied by rule "is:destructive"`, "nothing was sent") {
				t.Errorf("strict wipe: %q", text)
			}
			if q := user.questions(); len(q) != 0 {
				t.Errorf("a call a deny rule refuses was put to the host's user: %q", q)
			}
			if n := fixture.CountIn(strict, "executions", "wipe"); n != 0 {
				t.Errorf("the denied wipe reached the server %d times", n)
			}
			// web is read-only: only the global confirm rule makes it ask.
			res, text = hostCall(t, cs, "web")
			q := user.questions()
			if res.IsError || text != "ran web" || len(q) != 1 || !strings.Contains(q[0], `rule "is:open-world"`) {
				t.Errorf("strict web, accepted: %q, asked %q", text, q)
			}
			res, text = hostCall(t, cs, "web")
			if q := user.questions(); !res.IsError || len(q) != 1 || !contains2(text, "declined", "nothing was sent") {
				t.Errorf("strict web, declined: %q, asked %q", text, q)
			}
			if n := fixture.CountIn(strict, "executions", "web"); n != 1 {
				t.Errorf("web reached the server %d times, want 1 (the accepted call only)", n)
			}
			// read is neither: it passes unasked.
			if res, text := hostCall(t, cs, "read"); res.IsError || text != "ran read" || len(user.questions()) != 0 {
				t.Errorf("strict read: %q", text)
			}
			cs.Close()

			// loose: the same global rule, no deny: its destructive call is
			// asked, not denied.
			cs, _ = goHost(t, proxy("loose"), v.version, &mcp.ClientOptions{ElicitationHandler: user.elicit})
			res, text = hostCall(t, cs, "wipe")
			if q := user.questions(); res.IsError || text != "ran wipe" || len(q) != 1 || !strings.Contains(q[0], "Tool: wipe: destructive") {
				t.Errorf("loose wipe: %q, asked %q", text, q)
			}
			if n := fixture.CountIn(loose, "executions", "wipe"); n != 1 {
				t.Errorf("loose wipe reached the server %d times, want 1", n)
			}
			cs.Close()
			if strings.Contains(stderr.String(), "panic") {
				t.Fatalf("stderr:\n%s", stderr.String())
			}

			ls := rulesLog(t, env, logFile)
			var got []string
			for _, l := range ls {
				got = append(got, l.Server+" "+l.Tool+" "+l.Status+" "+l.ApprovedBy+" "+l.Rule)
			}
			want := []string{
				"strict wipe refused  is:destructive",
				"strict web ok host is:open-world",
				"strict web refused  is:open-world",
				"strict read ok policy ",
				"loose wipe ok host ",
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("logged (server tool status approvedBy rule):\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			// The basis names the rule on the hint it matched.
			if r, decided := ls[0].basisRule("destructiveHint"); r != "is:destructive" || !decided {
				t.Errorf("the denied wipe's basis: destructiveHint rule %q decided %v", r, decided)
			}
			if r, decided := ls[1].basisRule("openWorldHint"); r != "is:open-world" || !decided {
				t.Errorf("web's basis: openWorldHint rule %q decided %v", r, decided)
			}
			for _, l := range ls {
				if l.Host == nil || l.Host.Name != "e2e-host" {
					t.Errorf("%s %s logged without the host", l.Server, l.Tool)
				}
			}
		})
	}
}

// The entry proxy config --write puts in a host's file starts mcpsh proxy
// --as HOST:NAME -- COMMAND: the global rules written for that host's
// server (server:cursor:notes, or server:notes for every host's) reach it,
// and the host's user, who would say yes, is never asked.
func TestProxyAsTargetGetsTheHostServersGlobalRules(t *testing.T) {
	t.Parallel()
	env, _, _ := stateEnv(t)
	for _, rule := range []string{"server:cursor:notes is:destructive", "server:notes is:destructive"} {
		t.Run(rule, func(t *testing.T) {
			state := t.TempDir()
			cfg := filepath.Join(t.TempDir(), "config.json")
			body, _ := json.Marshal(map[string]any{"policy": map[string]any{"deny": []string{rule}}})
			if err := os.WriteFile(cfg, body, 0o600); err != nil {
				t.Fatal(err)
			}
			user := &answeringHost{}
			cs, _ := goHost(t, proxyCmd(t, env, state, "proxy", "--config", cfg, "--no-log", "--as", "cursor:notes"), "2025-11-25",
				&mcp.ClientOptions{ElicitationHandler: user.elicit})
			defer cs.Close()
			res, text := hostCall(t, cs, "wipe")
			if !res.IsError || !contains2(text, `denied by rule "`+rule+`"`, "nothing was sent") {
				t.Errorf("wipe: %q", text)
			}
			if q := user.questions(); len(q) != 0 {
				t.Errorf("a call a deny rule refuses was put to the host's user: %q", q)
			}
			if n := fixture.CountIn(state, "executions", "wipe"); n != 0 {
				t.Errorf("the denied wipe reached the server %d times", n)
			}
		})
	}
}

// The allow rule a refusal suggests for a host's server (which has no
// entry in mcpsh's config), pasted into mcpsh's config as it says, lets
// that call run.
func TestProxySuggestedAllowRuleServesTheHostsServer(t *testing.T) {
	t.Parallel()
	env, _, _ := stateEnv(t)
	state := t.TempDir()
	cfg := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(cfg, []byte(`{}`), 0o600); err != nil {
		t.Fatal(err)
	}
	proxy := func() *mcp.ClientSession {
		cs, _ := goHost(t, proxyCmd(t, env, state, "proxy", "--config", cfg, "--no-log", "--as", "cursor:notes"), "2025-11-25", nil)
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	res, text := hostCall(t, proxy(), "wipe")
	const lead = `("policy": {"allow": `
	i := strings.Index(text, lead)
	if !res.IsError || i < 0 || !strings.Contains(text, "} at its top level)") {
		t.Fatalf("wipe: %q", text)
	}
	var rules []string
	if err := json.NewDecoder(strings.NewReader(text[i+len(lead):])).Decode(&rules); err != nil || len(rules) != 1 || rules[0] != "server:cursor:notes wipe" {
		t.Fatalf("the suggested rules %q (%v) in %q", rules, err, text)
	}
	body, _ := json.Marshal(map[string]any{"policy": map[string]any{"allow": rules}})
	if err := os.WriteFile(cfg, body, 0o600); err != nil {
		t.Fatal(err)
	}
	if res, text := hostCall(t, proxy(), "wipe"); res.IsError || text != "ran wipe" || fixture.CountIn(state, "executions", "wipe") != 1 {
		t.Fatalf("wipe with the suggested rule: %q", text)
	}
}
