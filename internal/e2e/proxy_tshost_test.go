package e2e

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
)

// mcpsh proxy with the TypeScript SDK's Client as its host (the SDK Claude
// Code, Cursor and VS Code are built on): .ci/ts-server/host.js, installed
// next to the TypeScript test server, runs a scripted scenario and prints
// one JSON line per step.

// tsHostJS is host.js as .ci/install-ts-server bundled it (host.bundle.mjs,
// tsBundle). Under CI a missing node, SDK or bundle fails the test, rather
// than pass without checking anything.
func tsHostJS(t *testing.T) string {
	t.Helper()
	return tsBundle(t, "host")
}

// tsEvent is one line host.js prints.
type tsEvent struct {
	Op              string          `json:"op"`
	ProtocolVersion string          `json:"protocolVersion"`
	ServerInfo      json.RawMessage `json:"serverInfo"`
	Capabilities    json.RawMessage `json:"capabilities"`
	Instructions    json.RawMessage `json:"instructions"`
	Tools           json.RawMessage `json:"tools"`
	Pages           int             `json:"pages"`
	Name            string          `json:"name"`
	Result          *struct {
		IsError bool `json:"isError"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	} `json:"result"`
	Cancelled bool `json:"cancelled"`
	Error     *struct {
		Code    *int   `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Message         string          `json:"message"`
	RequestedSchema json.RawMessage `json:"requestedSchema"`
	Action          string          `json:"action"`
}

func (e tsEvent) text() string {
	if e.Result == nil {
		return ""
	}
	var b strings.Builder
	for _, c := range e.Result.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// tsHost runs host.js with args (its options and steps, then --stdio
// COMMAND... or --url URL) to the end and returns what it printed, in
// order. It fails the test unless host.js connected and ran every step.
func tsHost(t *testing.T, env []string, args ...string) []tsEvent {
	t.Helper()
	cmd := command(t, "node", append([]string{tsHostJS(t)}, args...)...)
	cmd.Env = testEnv(t, env...)
	var stdout bytes.Buffer
	stderr := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("host.js %q: %v\nstdout:\n%s\nstderr:\n%s", args, err, stdout.String(), stderr.String())
		}
	case <-time.After(90 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("host.js %q hung\nstdout:\n%s\nstderr:\n%s", args, stdout.String(), stderr.String())
	}
	var evs []tsEvent
	for _, l := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var e tsEvent
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("host.js printed a line that is not JSON: %q\nstderr:\n%s", l, stderr.String())
		}
		evs = append(evs, e)
	}
	if len(evs) < 2 || evs[0].Op != "connect" || evs[0].Error != nil || evs[len(evs)-1].Op != "done" {
		t.Fatalf("host.js did not run to the end:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	}
	return evs[1 : len(evs)-1]
}

// tsOnly returns the events of op, in order.
func tsOnly(evs []tsEvent, op string) []tsEvent {
	var out []tsEvent
	for _, e := range evs {
		if e.Op == op {
			out = append(out, e)
		}
	}
	return out
}

// tsConnect is host.js's first line: what the server said at initialize.
func tsConnect(t *testing.T, args ...string) tsEvent {
	t.Helper()
	cmd := command(t, "node", append([]string{tsHostJS(t)}, args...)...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("host.js %q: %v", args, err)
	}
	var e tsEvent
	line, _, _ := strings.Cut(string(out), "\n")
	if json.Unmarshal([]byte(line), &e) != nil || e.Op != "connect" {
		t.Fatalf("host.js %q: first line %q", args, line)
	}
	return e
}

// The TypeScript SDK's Client sees the server's tools through mcpsh proxy
// exactly as it sees them from the server itself: every page, names,
// titles, annotations, schemas, icons and _meta, as the SDK parsed them;
// serverInfo, capabilities and instructions too.
func TestProxyTSHostListingIsTheUpstreams(t *testing.T) {
	t.Parallel()
	env, _, _ := stateEnv(t)
	direct := tsHost(t, env, append([]string{"list", "--stdio"}, fixtureCmd("proxy", t.TempDir())[1:]...)...)
	proxied := tsHost(t, env, append([]string{"list", "--stdio", mcpshBin}, proxyCmd(t, env, t.TempDir(), "proxy", "--no-log").Args[1:]...)...)
	d, p := tsOnly(direct, "list"), tsOnly(proxied, "list")
	if len(d) != 1 || len(p) != 1 || d[0].Error != nil || p[0].Error != nil {
		t.Fatalf("listing: direct %+v, proxied %+v", d, p)
	}
	// What the comparison covers: the SDK keeps these of the fixture's
	// listing (it drops keys its schema does not know, on both paths).
	contains(t, "the TS client's listing", string(d[0].Tools), `"title":"Read"`, `"destructiveHint":true`, `"openWorldHint":true`,
		`"_meta":{"vendor.example/k":{"deep":[null,true]}}`, `"icons":[{"src":"data:image/png;base64,AAAA"`,
		`"inputSchema":{"type":"object","properties":{"n":{"type":"integer"}}}`, `"name":"sample"`)
	if d[0].Pages != 2 || p[0].Pages != 2 {
		t.Errorf("pages: direct %d, proxied %d, want 2 each", d[0].Pages, p[0].Pages)
	}
	if !bytes.Equal(d[0].Tools, p[0].Tools) {
		t.Errorf("the TS client's tools through the proxy differ from the server's:\ndirect:  %s\nproxied: %s", d[0].Tools, p[0].Tools)
	}

	dc := tsConnect(t, append([]string{"--stdio"}, fixtureCmd("proxy", t.TempDir())[1:]...)...)
	pc := tsConnect(t, append([]string{"--stdio", mcpshBin}, proxyCmd(t, env, t.TempDir(), "proxy", "--no-log").Args[1:]...)...)
	for _, f := range []struct {
		what   string
		d, p   json.RawMessage
		expect string
	}{
		{"serverInfo", dc.ServerInfo, pc.ServerInfo, `{"name":"mcpsh-fixture","title":"Fixture","version":"7"}`},
		{"capabilities", dc.Capabilities, pc.Capabilities, `"tools":{"listChanged":true}`},
		{"instructions", dc.Instructions, pc.Instructions, `"use read first"`},
	} {
		if !bytes.Equal(f.d, f.p) || !strings.Contains(string(f.d), f.expect) {
			t.Errorf("%s: direct %s, proxied %s", f.what, f.d, f.p)
		}
	}
	if pc.ProtocolVersion != "2025-11-25" {
		t.Errorf("the TS host negotiated %q with the proxy", pc.ProtocolVersion)
	}
}

// With the TypeScript SDK's Client as the host, declaring no elicitation:
// a read-only call passes; a destructive one is refused, with nobody to
// ask, and never reaches the server; each is logged naming the TS host.
func TestProxyTSHostCallsAreDecidedAndLogged(t *testing.T) {
	t.Parallel()
	env, _, _ := stateEnv(t)
	fx := t.TempDir()
	logFile := filepath.Join(t.TempDir(), "proxy.jsonl")
	evs := tsHost(t, env, append([]string{"--name", "ts-e2e-host", "--version", "3.1.4", "call:read", "call:wipe", "--stdio", mcpshBin},
		proxyCmd(t, env, fx, "proxy", "--log", logFile).Args[1:]...)...)
	calls := tsOnly(evs, "call")
	if len(calls) != 2 || len(tsOnly(evs, "elicitation")) != 0 {
		t.Fatalf("events: %+v", evs)
	}
	if r := calls[0]; r.Result == nil || r.Result.IsError || r.text() != "ran read" || fixture.CountIn(fx, "executions", "read") != 1 {
		t.Errorf("read: %+v %q, executions %d", r.Error, r.text(), fixture.CountIn(fx, "executions", "read"))
	}
	if r := calls[1]; r.Result == nil || !r.Result.IsError || !contains2(r.text(), "mcpsh refused wipe", "nothing was sent", "How a person can allow it") {
		t.Errorf("wipe: %+v %q", r.Error, r.text())
	}
	if n := fixture.CountIn(fx, "executions", "wipe"); n != 0 {
		t.Errorf("the refused wipe reached the server %d times", n)
	}

	r := mcpsh(t, opts{env: env}, "log", logFile, "--host", "ts-e2e-*", "--json")
	wantCode(t, r, 0)
	ls := proxyLog(t, r.out)
	if len(ls) != 2 || ls[0].Tool != "read" || ls[0].ApprovedBy != "policy" || ls[0].Status != "ok" || ls[1].Tool != "wipe" || ls[1].Status != "refused" {
		t.Fatalf("log --host ts-e2e-*: %s", r.out)
	}
	for _, l := range ls {
		if !l.Proxy || l.Host == nil || l.Host.Name != "ts-e2e-host" || l.Host.Version != "3.1.4" || l.Host.Protocol != "2025-11-25" {
			t.Errorf("%s logged with host %+v, proxy %v", l.Tool, l.Host, l.Proxy)
		}
	}
}

// The TypeScript SDK's Client declares elicitation: mcpsh asks its user
// with a form before a destructive call. accept runs the call, decline
// refuses it, and the declined call never reaches the server.
func TestProxyTSHostElicitationAcceptAndDecline(t *testing.T) {
	t.Parallel()
	env, _, _ := stateEnv(t)
	fx := t.TempDir()
	logFile := filepath.Join(t.TempDir(), "proxy.jsonl")
	evs := tsHost(t, env, append([]string{"--name", "ts-e2e-host", "--version", "3.1.4", "--elicit", "accept,decline", "call:wipe", "call:wipe", "--stdio", mcpshBin},
		proxyCmd(t, env, fx, "proxy", "--log", logFile).Args[1:]...)...)
	// In order: asked, ran; asked, refused.
	var ops []string
	for _, e := range evs {
		ops = append(ops, e.Op+":"+e.Action)
	}
	if strings.Join(ops, " ") != "elicitation:accept call: elicitation:decline call:" {
		t.Fatalf("events: %v", ops)
	}
	for _, q := range tsOnly(evs, "elicitation") {
		if !strings.HasPrefix(q.Message, `mcpsh asks before a call by ts-e2e-host 3.1.4 to server "`) || !strings.Contains(q.Message, "Tool: wipe: destructive") ||
			!strings.Contains(string(q.RequestedSchema), `"enum":["run","refuse"]`) {
			t.Errorf("the host was asked %q with %s", q.Message, q.RequestedSchema)
		}
	}
	calls := tsOnly(evs, "call")
	if r := calls[0]; r.Result == nil || r.Result.IsError || r.text() != "ran wipe" {
		t.Errorf("wipe, accepted: %+v %q", r.Error, r.text())
	}
	if r := calls[1]; r.Result == nil || !r.Result.IsError || !contains2(r.text(), "nothing was sent", "declined") {
		t.Errorf("wipe, declined: %+v %q", r.Error, r.text())
	}
	if n := fixture.CountIn(fx, "executions", "wipe"); n != 1 {
		t.Errorf("wipe reached the server %d times, want 1 (the accepted call only)", n)
	}
	r := mcpsh(t, opts{env: env}, "log", logFile, "--json")
	ls := proxyLog(t, r.out)
	if len(ls) != 2 || ls[0].ApprovedBy != "host" || ls[0].Status != "ok" || ls[1].Status != "refused" || ls[1].ApprovedBy != "" ||
		ls[0].Host == nil || ls[0].Host.Name != "ts-e2e-host" {
		t.Fatalf("logged: %s", r.out)
	}
}

// The TypeScript SDK's Client cancels a call in flight (once the server
// has it): mcpsh cancels it upstream, never retries it, and logs it
// cancelled.
func TestProxyTSHostCancels(t *testing.T) {
	t.Parallel()
	env, _, _ := stateEnv(t)
	fx := t.TempDir()
	logFile := filepath.Join(t.TempDir(), "proxy.jsonl")
	evs := tsHost(t, env, append([]string{"cancel:slow:" + filepath.Join(fx, "executions") + ":slow", "call:read", "--stdio", mcpshBin},
		proxyCmd(t, env, fx, "proxy", "--log", logFile).Args[1:]...)...)
	calls := tsOnly(evs, "call")
	if len(calls) != 2 || !calls[0].Cancelled || calls[0].Error == nil {
		t.Fatalf("slow: %+v", calls)
	}
	// The session goes on after the cancellation.
	if calls[1].text() != "ran read" {
		t.Errorf("read after the cancellation: %+v %q", calls[1].Error, calls[1].text())
	}
	// The proxy passes the cancellation on as the host's next call goes
	// through: wait for the server's record of it.
	for deadline := time.Now().Add(30 * time.Second); len(fixture.Lines(fx, "cancelled")) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the server was never told of the cancellation")
		}
	}
	if n := fixture.CountIn(fx, "executions", "slow"); n != 1 {
		t.Errorf("slow reached the server %d times, want 1", n)
	}
	// The two calls end concurrently (the cancelled one once the
	// cancellation has gone upstream), so either may be logged first.
	r := mcpsh(t, opts{env: env}, "log", logFile, "--json")
	status := map[string]string{}
	for _, l := range proxyLog(t, r.out) {
		status[l.Tool] += l.Status
	}
	if len(status) != 2 || status["slow"] != "cancelled" || status["read"] != "ok" {
		t.Fatalf("logged: %s", r.out)
	}
}

// host.js over streamable HTTP (--url, the mode mcpsh proxy --listen is
// driven in) sees what it sees over stdio, and sends the headers it is
// given.
func TestTSHostOverStreamableHTTP(t *testing.T) {
	t.Parallel()
	env, _, _ := stateEnv(t)
	fx := t.TempDir()
	url := fixtureHTTP(t, "proxy", fx)
	overHTTP := tsHost(t, env, "list", "call:read", "--url", url, "--header", "Authorization: Bearer ts-host-token")
	overStdio := tsHost(t, env, append([]string{"list", "--stdio"}, fixtureCmd("proxy", t.TempDir())[1:]...)...)
	h, s := tsOnly(overHTTP, "list"), tsOnly(overStdio, "list")
	if len(h) != 1 || len(s) != 1 || !bytes.Equal(h[0].Tools, s[0].Tools) || h[0].Pages != 2 {
		t.Fatalf("listing over HTTP %+v, over stdio %+v", h, s)
	}
	if c := tsOnly(overHTTP, "call"); len(c) != 1 || c[0].text() != "ran read" {
		t.Errorf("read over HTTP: %+v", c)
	}
	if hs := strings.Join(fixture.Lines(fx, "headers"), " "); !strings.Contains(hs, "ts-host-token") {
		t.Errorf("the header did not reach the server: %q", hs)
	}
}
