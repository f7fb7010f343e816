package e2e

import (
	"bufio"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
)

// neverProbed are the probe scenario's tools that must never run: not
// read-only (purge_items, tidy_tags), contradictory hints (scan_fix), listed
// only once peek_counter has run (ghost_wipe), and re-declared destructive
// by then (count_items).
var neverProbed = []string{"purge_items", "scan_fix", "tidy_tags", "ghost_wipe", "count_items"}

type probeFinding struct {
	Server, Tool, Rule, Severity, Message string
}

func probeJSON(t *testing.T, r result) map[string][]probeFinding {
	t.Helper()
	var fs []probeFinding
	if err := json.Unmarshal([]byte(r.out), &fs); err != nil {
		t.Fatalf("audit --json: %v\n%s", err, r.out)
	}
	by := map[string][]probeFinding{}
	for _, f := range fs {
		by[f.Tool+"/"+f.Rule] = append(by[f.Tool+"/"+f.Rule], f)
	}
	return by
}

// checkProbeFindings: the behaviour the probe scenario plants is found, over
// whatever transport.
func checkProbeFindings(t *testing.T, by map[string][]probeFinding) {
	t.Helper()
	for key, want := range map[string]string{
		"peek_counter/read-only-changed-state": "the server sent notifications/tools/list_changed before the answer: running it changed the server's tool list",
		"peek_feed/read-only-changed-state":    "the server sent notifications/resources/updated for feed://news before the answer",
		"get_report/output-schema-mismatch":    "structuredContent.total does not match the output schema",
		"lookup_item/invalid-example":          `input example 2 ({"id":0}) breaks the input schema`,
	} {
		if len(by[key]) != 1 || !strings.Contains(by[key][0].Message, want) || by[key][0].Severity != "error" {
			t.Errorf("%s: %+v, want one error saying %q", key, by[key], want)
		}
	}
	for key := range by {
		if strings.HasPrefix(key, "list_items/") {
			t.Errorf("list_items behaves, yet: %+v", by[key])
		}
	}
}

// checkNeverRan: what must never be called was not, and lookup_item's
// invalid example never reached the server.
func checkNeverRan(t *testing.T, state string) {
	t.Helper()
	for _, tool := range neverProbed {
		if n := fixture.CountIn(state, "executions", tool); n != 0 {
			t.Errorf("%s ran %d times: the probe calls only read-only tools", tool, n)
		}
	}
	if n := fixture.CountIn(state, "calls", `lookup_item {"id":0}`); n != 0 {
		t.Errorf("lookup_item's invalid example was sent %d times", n)
	}
	for _, tool := range []string{"peek_counter", "peek_feed", "lookup_item", "get_report", "list_items"} {
		if n := fixture.CountIn(state, "executions", tool); n != 1 {
			t.Errorf("%s ran %d times, want once", tool, n)
		}
	}
}

func TestAuditProbeFindsAReadOnlyToolThatChangesState(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	log := filepath.Join(t.TempDir(), "log.jsonl")
	r := mcpsh(t, opts{}, append([]string{"audit", "--probe", "--json", "--log", log}, fixtureCmd("probe", state)...)...)
	wantCode(t, r, 5)
	checkProbeFindings(t, probeJSON(t, r))
	checkNeverRan(t, state)
	contains(t, "stderr", r.errOut, "mcpsh: probing: 6 calls to read-only tools", "mcpsh: audit found")

	// The probe's calls went through the normal call path: each is in the
	// session log, count_items as refused once the server made it destructive.
	f, err := os.Open(log)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	status := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var e struct{ Tool, Status, HintsChanged string }
		json.Unmarshal(sc.Bytes(), &e)
		status[e.Tool] += e.Status
	}
	for tool, want := range map[string]string{"peek_counter": "ok", "peek_feed": "ok", "lookup_item": "ok", "get_report": "ok", "list_items": "ok", "count_items": "refused"} {
		if status[tool] != want {
			t.Errorf("session log: %s %q, want %q (all: %v)", tool, status[tool], want, status)
		}
	}

	// The text report says what the probe did and did not do.
	r = mcpsh(t, opts{}, append([]string{"audit", "--probe", "--no-log", "--fail-on", "none"}, fixtureCmd("probe", t.TempDir())...)...)
	wantCode(t, r, 0)
	contains(t, "text report", r.out, "Probe: 5 calls to 5 read-only tools · 3 findings", "purge_items: not called: a destructive tool",
		"lookup_item example 2: not sent", "count_items: not called: the server re-declared it during the probe")
}

func TestAuditProbeOverHTTP(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	for _, flags := range [][]string{nil, {"-sse"}} {
		u := fixtureHTTP(t, "probe", state, flags...)
		r := mcpsh(t, opts{}, "audit", "--probe", "--json", noLog, "--url", u)
		wantCode(t, r, 5)
		checkProbeFindings(t, probeJSON(t, r))
		checkNeverRan(t, state)
		os.Remove(filepath.Join(state, "executions"))
		os.Remove(filepath.Join(state, "calls"))
	}
}

func TestAuditProbeRefusesAnUntrustedServerAndSendsNothing(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	r := mcpsh(t, opts{}, append([]string{"audit", "--probe", "--untrusted", noLog}, fixtureCmd("probe", state)...)...)
	wantCode(t, r, 2)
	contains(t, "stderr", r.errOut, "is untrusted", "nothing was sent")
	if b, err := os.ReadFile(filepath.Join(state, "sessions")); err == nil {
		t.Errorf("the server was started for a probe that was refused: %q", b)
	}

	cfg := filepath.Join(t.TempDir(), "config.json")
	writeConfig(t, cfg, map[string]any{"probe": map[string]any{"command": fixtureBin, "args": []string{"-scenario", "probe", "-state", state}, "trust": "untrusted"}})
	r = mcpsh(t, opts{}, "audit", "--probe", noLog, "--config", cfg, "-s", "probe")
	wantCode(t, r, 2)
	if _, err := os.Stat(filepath.Join(state, "sessions")); err == nil {
		t.Error("the server was started for a probe that was refused")
	}
	r = mcpsh(t, opts{}, "audit", "--probe-timeout", "5s", noLog, "--config", cfg, "-s", "probe")
	wantCode(t, r, 2)
	contains(t, "stderr", r.errOut, "--probe-timeout needs --probe")
}

// The exit status tells a CI gate "findings" (5) from "could not run" (1),
// and "could not run" wins.
func TestAuditExitCodesForAGate(t *testing.T) {
	t.Parallel()
	// Could not connect: 1.
	r := mcpsh(t, opts{}, "audit", "--json", "--", "sh", "-c", "echo no >&2; exit 3")
	wantCode(t, r, 1)
	// Findings, but below --fail-on: 0.
	r = mcpsh(t, opts{}, append([]string{"audit", "--probe", noLog, "--fail-on", "none"}, fixtureCmd("probe", t.TempDir())...)...)
	wantCode(t, r, 0)
	// A probe call failed (explode answers with a JSON-RPC error): the audit
	// is incomplete, 1, though it also has findings.
	state := t.TempDir()
	r = mcpsh(t, opts{}, append([]string{"audit", "--probe", noLog, "--json"}, fixtureCmd("hostile", state)...)...)
	wantCode(t, r, 1)
	contains(t, "stderr", r.errOut, "mcpsh: could not probe explode", "the audit is incomplete", "mcpsh: audit found")
	if bad := hostileBytes(r.errOut); bad != "" {
		t.Errorf("stderr carries a control from the server near %q", bad)
	}
	if bad := hostileBytes(r.out); bad != "" {
		t.Errorf("JSON carries a raw control near %q", bad)
	}
	var fs []probeFinding
	if json.Unmarshal([]byte(r.out), &fs) != nil || len(fs) == 0 {
		t.Errorf("the findings are still printed: %s", r.out)
	}
	for _, f := range fs {
		if f.Tool == "explode" && (f.Rule == "read-only-changed-state" || f.Rule == "output-schema-mismatch" || f.Rule == "example-tool-error") {
			t.Errorf("a call that failed became a finding about the tool: %+v", f)
		}
	}
	if fixture.CountIn(state, "executions", "wipe\u202e") != 0 || fixture.CountIn(state, "executions", "bad_hint") != 0 {
		t.Error("the probe called a tool that is not read-only")
	}
}

func TestAuditProbeAllServers(t *testing.T) {
	t.Parallel()
	good, untrusted := t.TempDir(), t.TempDir()
	cfg := filepath.Join(t.TempDir(), "config.json")
	writeConfig(t, cfg, map[string]any{
		"good":      map[string]any{"command": fixtureBin, "args": []string{"-scenario", "probe", "-state", good}},
		"untrusted": map[string]any{"command": fixtureBin, "args": []string{"-scenario", "probe", "-state", untrusted}, "trust": "untrusted"},
	})
	r := mcpsh(t, opts{}, "audit", "--all", "--probe", "--json", noLog, "--config", cfg)
	wantCode(t, r, 5)
	by := probeJSON(t, r)
	for _, f := range by["peek_counter/read-only-changed-state"] {
		if f.Server != "good" {
			t.Errorf("a state change on %s: only good was probed", f.Server)
		}
	}
	if len(by["peek_counter/read-only-changed-state"]) != 1 {
		t.Errorf("peek_counter: %+v", by["peek_counter/read-only-changed-state"])
	}
	contains(t, "stderr", r.errOut, "untrusted: not probed: the server is untrusted", "good: probing: 6 calls")
	checkNeverRan(t, good)
	if calls := fixture.Lines(untrusted, "executions"); len(calls) != 0 {
		t.Errorf("the untrusted server got calls: %q", calls)
	}

	// A server that cannot be reached outranks findings: 1.
	writeConfig(t, cfg, map[string]any{
		"good":   map[string]any{"command": fixtureBin, "args": []string{"-scenario", "probe", "-state", t.TempDir()}},
		"broken": map[string]any{"command": "sh", "args": []string{"-c", "exit 3"}},
	})
	r = mcpsh(t, opts{}, "audit", "--all", "--probe", "--format", "sarif", noLog, "--config", cfg)
	wantCode(t, r, 1)
	log := sarifLog(t, r.out)
	run := log.Runs[0]
	if run.Invocations[0].ExecutionSuccessful || !strings.Contains(run.Invocations[0].ToolExecutionNotifications[0].Message.Text, "broken: could not audit") {
		t.Errorf("invocation: %+v", run.Invocations)
	}
	servers := map[string]bool{}
	for _, res := range run.Results {
		servers[res.Properties["server"]] = true
		if loc := res.Locations[0]; loc.PhysicalLocation == nil || loc.PhysicalLocation.ArtifactLocation.URI != fileURL(cfg) {
			t.Errorf("%s: a server from a config file points at it: %+v", res.RuleID, loc)
		}
	}
	if !servers["good"] || len(servers) != 1 {
		t.Errorf("results name the servers %v", servers)
	}
}

// sarifLogOut is what the tests read of a SARIF log.
type sarifLogOut struct {
	Schema  string `json:"$schema"`
	Version string
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name  string
				Rules []struct {
					ID               string
					ShortDescription struct{ Text string }
					HelpURI          string
				}
			}
		}
		Invocations []struct {
			ExecutionSuccessful        bool
			ToolExecutionNotifications []struct {
				Level   string
				Message struct{ Text string }
			}
		}
		Results []struct {
			RuleID    string
			RuleIndex *int
			Level     string
			Message   struct{ Text string }
			Locations []struct {
				PhysicalLocation *struct{ ArtifactLocation struct{ URI string } }
				LogicalLocations []struct{ Name, FullyQualifiedName, Kind string }
			}
			Properties map[string]string
		}
	}
}

// sarifLog parses a SARIF log and checks the fields SARIF 2.1.0 and code
// scanning require: version, $schema, runs[].tool.driver.name, and each
// result's ruleId (a rule the driver lists), level and message.text.
func sarifLog(t *testing.T, out string) sarifLogOut {
	t.Helper()
	var raw map[string]any
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	var log sarifLogOut
	json.Unmarshal([]byte(out), &log)
	if log.Version != "2.1.0" || !strings.Contains(log.Schema, "sarif") || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Name != "mcpsh" {
		t.Fatalf("SARIF log: version %q, $schema %q, %d runs\n%s", log.Version, log.Schema, len(log.Runs), out)
	}
	rules := map[string]bool{}
	for _, r := range log.Runs[0].Tool.Driver.Rules {
		if r.ID == "" || r.ShortDescription.Text == "" || !strings.HasPrefix(r.HelpURI, "https://") {
			t.Errorf("rule %+v", r)
		}
		rules[r.ID] = true
	}
	for _, res := range log.Runs[0].Results {
		if !rules[res.RuleID] || res.RuleIndex == nil || res.Message.Text == "" || len(res.Locations) == 0 ||
			(res.Level != "error" && res.Level != "warning" && res.Level != "note") {
			t.Errorf("result %+v", res)
		}
	}
	return log
}

func TestAuditProbeSARIF(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	cfg := filepath.Join(t.TempDir(), "config.json")
	writeConfig(t, cfg, map[string]any{"probe": map[string]any{"command": fixtureBin, "args": []string{"-scenario", "probe", "-state", state}}})
	r := mcpsh(t, opts{}, "audit", "--probe", "--format", "sarif", noLog, "--config", cfg, "-s", "probe")
	wantCode(t, r, 5)
	log := sarifLog(t, r.out)
	run := log.Runs[0]
	if !run.Invocations[0].ExecutionSuccessful {
		t.Errorf("invocation: %+v", run.Invocations)
	}
	found := map[string]string{}
	for _, res := range run.Results {
		l := res.Locations[0].LogicalLocations[0]
		found[l.Name+"/"+res.RuleID] = res.Level
		if l.FullyQualifiedName != "probe/"+l.Name || res.Locations[0].PhysicalLocation.ArtifactLocation.URI != fileURL(cfg) {
			t.Errorf("location %+v", res.Locations[0])
		}
	}
	for _, want := range []string{"peek_counter/read-only-changed-state", "peek_feed/read-only-changed-state", "get_report/output-schema-mismatch", "lookup_item/invalid-example"} {
		if found[want] != "error" {
			t.Errorf("%s: level %q, want error (results: %v)", want, found[want], found)
		}
	}
	checkNeverRan(t, state)

	// Hostile text stays out of the SARIF, and a server that cannot be
	// reached still gets a log that says so.
	r = mcpsh(t, opts{}, append([]string{"audit", "--probe", "--format", "sarif", noLog, "--fail-on", "none"}, fixtureCmd("hostile", t.TempDir())...)...)
	wantCode(t, r, 1)
	if bad := hostileBytes(r.out); bad != "" {
		t.Errorf("SARIF carries a raw control near %q", bad)
	}
	sarifLog(t, r.out)
	r = mcpsh(t, opts{}, "audit", "--format", "sarif", "--", "sh", "-c", "exit 3")
	wantCode(t, r, 1)
	log = sarifLog(t, r.out)
	if inv := log.Runs[0].Invocations[0]; inv.ExecutionSuccessful || len(inv.ToolExecutionNotifications) != 1 {
		t.Errorf("an unreachable server: %+v", inv)
	}
}

func writeConfig(t *testing.T, path string, servers map[string]any) {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"mcpServers": servers})
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func fileURL(path string) string { return (&url.URL{Scheme: "file", Path: path}).String() }
