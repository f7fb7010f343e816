package e2e

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// The TypeScript SDK test server (.ci/ts-server, installed by
// .ci/install-ts-server). What each of its tools, resources, templates and
// prompts does and returns is written at the top of .ci/ts-server/server.js.

// tsServerDir is where .ci/install-ts-server put the server: $MCPSH_TS_SERVER_DIR,
// else $MCPSH_CACHE/ts-server, else <repo>/.cache/ts-server. Under CI a missing
// server (or node) fails the test: a skipped check would pass without checking
// anything.
func tsServerDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("MCPSH_TS_SERVER_DIR")
	if dir == "" {
		cache := os.Getenv("MCPSH_CACHE")
		if cache == "" {
			cache = filepath.Join(repoRoot, ".cache")
		}
		dir = filepath.Join(cache, "ts-server")
	}
	missing := ""
	if _, err := exec.LookPath("node"); err != nil {
		missing = "node is not on PATH (the TypeScript SDK test server needs Node.js >= 20)"
	} else if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		missing = "the TypeScript SDK test server is not installed at " + dir
	}
	tsMissing(t, missing, ".ci/install-ts-server", "$MCPSH_TS_SERVER_DIR", "ts-server")
	return dir
}

// tsBundle is the bundle .ci/install-ts-server built of one of .ci/ts-server's
// entry points (name: "server" or "host"): the tests start NAME.bundle.mjs,
// not NAME.js, because one file loads in half the CPU of the SDK's hundreds
// of modules (the bundle runs the same source on the same pinned SDK).
func tsBundle(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(tsServerDir(t), name+".bundle.mjs")
	missing := ""
	if _, err := os.Stat(p); err != nil {
		missing = p + " is missing"
	}
	tsMissing(t, missing, ".ci/install-ts-server", "$MCPSH_TS_SERVER_DIR", "ts-server")
	return p
}

// tsMissing fails the test under CI, and skips it otherwise, when missing
// says what of a TypeScript test server is missing, naming the script that
// installs it.
func tsMissing(t *testing.T, missing, script, env, folder string) {
	t.Helper()
	if missing == "" {
		return
	}
	missing += " (run " + script + " CACHE: it installs into " + env + ", else CACHE/" + folder + ")"
	if os.Getenv("CI") == "true" {
		t.Fatal(missing)
	}
	t.Skip(missing)
}

// tsServer returns the argv that starts the TypeScript SDK test server on
// stdio, for use after mcpsh's "--".
func tsServer(t *testing.T) []string {
	t.Helper()
	return []string{"node", tsBundle(t, "server")}
}

// tsServerHTTP starts the TypeScript SDK test server in streamable HTTP mode
// on a free port of 127.0.0.1 and returns its URL (http://127.0.0.1:PORT/mcp).
// The server is killed when the test ends. Its state (notes, counter, the
// list toggles) is shared by every session of this one server.
func tsServerHTTP(t *testing.T) string {
	t.Helper()
	return listeningServer(t, "the TypeScript SDK test server", command(t, "node", tsBundle(t, "server"), "--http", "--port", "0"))
}

// listeningServer starts cmd, a server that prints "listening URL" on stdout
// once it listens on 127.0.0.1, and returns the URL; it kills the server
// when the test ends.
func listeningServer(t *testing.T, what string, cmd *exec.Cmd) string {
	t.Helper()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer // read only after Wait
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	found := make(chan string, 1)
	go func() {
		lines := bufio.NewScanner(stdout)
		for lines.Scan() {
			if m := regexp.MustCompile(`^listening (http://127\.0\.0\.1:\d+/mcp)$`).FindStringSubmatch(lines.Text()); m != nil {
				found <- m[1]
				return
			}
		}
	}()
	go func() { cmd.Wait(); close(exited) }()
	stop := func() {
		cmd.Process.Kill()
		<-exited
	}
	t.Cleanup(stop)
	select {
	case u := <-found:
		return u
	case <-exited:
		t.Fatalf("%s ended before it listened (%v)\nstderr:\n%s", what, cmd.ProcessState, stderr.String())
	case <-time.After(patience):
		stop()
		t.Fatalf("%s did not say where it listens within 20s\nstderr:\n%s", what, stderr.String())
	}
	return ""
}

// TestTSServerStarts checks that the TypeScript SDK test server runs over
// stdio and streamable HTTP, and that mcpsh reads its tools' annotations.
func TestTSServerStarts(t *testing.T) {
	t.Parallel()
	targets := map[string][]string{
		"stdio": append([]string{"--"}, tsServer(t)...),
		"http":  {"--url", tsServerHTTP(t)},
	}
	// class, idempotent, openWorld, title, number of input examples
	want := map[string][5]any{
		"echo":         {"read-only", true, false, "Echo", 2},
		"weather":      {"read-only", true, true, "Weather (fake)", 1},
		"add_note":     {"write", false, false, "Add a note", 1},
		"mark_read":    {"write", true, false, "Mark a note read", 1},
		"post_message": {"write", false, true, "Post a message (fake)", 0},
		"delete_note":  {"destructive", true, false, "Delete a note", 1},
		"pop_note":     {"destructive", false, false, "Remove the newest note", 0},
		"no_hints":     {"destructive", false, true, "no_hints", 0},
		"shifty":       {"read-only", true, false, "Shifty", 0},
		"change_tools": {"write", false, false, "Change the tool list", 0},
		"ask_form":     {"read-only", true, false, "Ask for a form", 0},
		"sample":       {"read-only", true, true, "Ask the client's model", 1},
	}
	for name, target := range targets {
		t.Run(name, func(t *testing.T) {
			r := mcpsh(t, opts{}, append([]string{"tools", "--json"}, target...)...)
			wantCode(t, r, 0)
			by := toolsByName(t, r.out)
			if len(by) != 23 {
				t.Errorf("%d tools, want 23", len(by))
			}
			if by["bonus"] != nil {
				t.Error("bonus is listed before change_tools")
			}
			for tool, w := range want {
				got := by[tool]
				if got == nil {
					t.Errorf("%s is missing", tool)
					continue
				}
				examples, _ := got["inputExamples"].([]any)
				if got["class"] != w[0] || got["idempotent"] != w[1] || got["openWorld"] != w[2] || got["title"] != w[3] || len(examples) != w[4] {
					t.Errorf("%s: class %v idempotent %v openWorld %v title %q, %d examples; want %v",
						tool, got["class"], got["idempotent"], got["openWorld"], got["title"], len(examples), w)
				}
			}
			if d, _ := by["no_hints"]["declared"].(map[string]any); len(d) != 0 {
				t.Errorf("no_hints declares %v, want nothing", d)
			}
			if by["conflicted"]["conflict"] != true || by["conflicted"]["class"] != "destructive" {
				t.Errorf("conflicted: %v, want a conflict read as destructive", by["conflicted"])
			}
			r = mcpsh(t, opts{}, append([]string{"call", "add", "a=2", "b=3"}, target...)...)
			wantCode(t, r, 0)
			contains(t, "add", r.out, "2 + 3 = 5")
		})
	}
}
