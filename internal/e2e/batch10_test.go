package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// threeServers writes a config with mcpsh's demo, the TypeScript test server,
// and one that dies at start.
func threeServers(t *testing.T) string {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "config.json")
	ts := tsServer(t)
	body, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"demo":   map[string]any{"command": mcpshBin, "args": []string{"serve-demo"}},
		"ts":     map[string]any{"command": ts[0], "args": ts[1:]},
		"broken": map[string]any{"command": "sh", "args": []string{"-c", "echo cannot start >&2; exit 3"}},
	}})
	os.WriteFile(cfg, body, 0o600)
	return cfg
}

func TestToolsAndAuditCoverEveryConfiguredServer(t *testing.T) {
	t.Parallel()
	cfg := threeServers(t)
	r := mcpsh(t, opts{}, "tools", "--all", "--json", "--config", cfg)
	wantCode(t, r, 1) // broken cannot be reached
	var tools []struct{ Server, Name string }
	if err := json.Unmarshal([]byte(r.out), &tools); err != nil {
		t.Fatal(err, r.out)
	}
	per := map[string]int{}
	for _, tl := range tools {
		per[tl.Server]++
	}
	if per["demo"] != 17 || per["ts"] != 23 || per["broken"] != 0 {
		t.Errorf("tools per server: %v", per)
	}
	contains(t, "stderr", r.errOut, "mcpsh: broken: connecting to broken", "cannot start")

	r = mcpsh(t, opts{}, "tools", "--all", "--config", cfg) // piped: server first on each line
	contains(t, "lines", r.out, "demo\tget_note\tread-only", "ts\tadd\tread-only")

	r = mcpsh(t, opts{}, "audit", "--all", "--json", "--fail-on", "none", "--config", cfg)
	wantCode(t, r, 1)
	var findings []struct{ Server, Tool, Rule string }
	json.Unmarshal([]byte(r.out), &findings)
	servers := map[string]bool{}
	for _, f := range findings {
		servers[f.Server] = true
	}
	if !servers["demo"] || !servers["ts"] {
		t.Errorf("findings name the servers %v", servers)
	}
	r = mcpsh(t, opts{}, "tools", "--all", "--demo", "--config", cfg)
	wantCode(t, r, 2)
}

func TestTraceWritesEveryMessage(t *testing.T) {
	t.Parallel()
	trace := filepath.Join(t.TempDir(), "trace.ndjson")
	r := mcpsh(t, opts{}, "call", noLog, "--trace", trace, "--demo", "get_note", "id=1")
	wantCode(t, r, 0)
	f, err := os.Open(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if st, _ := f.Stat(); st.Mode().Perm() != 0o600 {
		t.Errorf("trace mode %v, want 0600", st.Mode().Perm())
	}
	var seen []string
	var latency float64
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var e struct {
			Dir, Kind, Method string
			LatencyMs         float64
			Size              int
			Message           json.RawMessage
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("not a JSON line: %v: %s", err, sc.Text())
		}
		seen = append(seen, fmt.Sprintf("%s %s %s", e.Dir, e.Kind, e.Method))
		if e.Kind == "response" && e.Method == "tools/call" {
			latency = e.LatencyMs
		}
	}
	all := strings.Join(seen, "\n")
	contains(t, "trace", all, "out request tools/list", "in response tools/list", "out request tools/call", "in response tools/call")
	if latency <= 0 {
		t.Errorf("no latency on the tools/call response:\n%s", all)
	}
}

// In a real terminal a batch call that needs confirmation asks, and the
// answer decides.
func TestBatchAsksYesOrNoInATerminal(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ answer, want string }{{"y", "Deleted note #1"}, {"n", "declined by the user"}} {
		x := newTmux(t)
		shell := fmt.Sprintf("HOME=%s %s call --no-log --demo delete_note id=1; echo EXIT=$?; sleep 30", t.TempDir(), mcpshBin)
		x.run("new-session", "-d", "-s", "t", "-x", "80", "-y", "24", shell)
		x.waitFor("Delete a note (delete_note) on demo", "Run it? [y/N]")
		x.keys(c.answer, "Enter")
		x.waitFor(c.want)
		if c.answer == "n" {
			x.waitFor("EXIT=4")
		} else {
			x.waitFor("EXIT=0")
		}
	}
}
