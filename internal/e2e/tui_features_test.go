package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// The interactive view against the TypeScript SDK test server: its resources
// view draws a Markdown resource, and a tool's form elicitation is answered
// in a dialog over the running call, which then finishes with that answer.
func TestTUIResourcesAndElicitation(t *testing.T) {
	t.Parallel()
	x := newTmux(t)
	dir := t.TempDir()
	shell := fmt.Sprintf("HOME=%s TERM=xterm-256color %s -- %s; sleep 30", dir, mcpshBin, strings.Join(tsServer(t), " "))
	x.run("new-session", "-d", "-s", "t", "-x", "100", "-y", "30", shell)
	x.waitFor("mcpsh-ts-server 1.0.0", "Read-only (", " Resources 7 ", " Prompts 3 ", "MCP 20")

	// Resources: info://about, info://config.json, info://readme.md, …
	x.keys("r")
	x.waitFor("Resources (5)", "Templates (2)", "notes://{folder}/{name}")
	x.keys("j", "j")
	x.waitFor("text/markdown")
	x.keys("Enter")
	s := x.waitFor("info://readme.md", "A test server for mcpsh.")
	if strings.Contains(s, "**mcpsh**") || strings.Contains(s, "# mcpsh-ts-server") {
		t.Errorf("the Markdown was shown as source:\n%s", s)
	}
	x.keys("Escape", "t")
	x.waitFor("Read-only (")

	// ask_form asks for a form while it runs; accept it with its defaults.
	// Enter runs a tool that takes no arguments at once; where it opens the
	// form instead, ctrl+r runs it from there.
	x.keys("/", "a", "s", "k", "_", "f", "o", "r", "m", "Enter", "Enter")
	if strings.Contains(x.waitForOne("ctrl+r runs it", "asks for input"), "ctrl+r runs it") {
		x.keys("C-r")
	}
	// The dialog names the server as the user gave it (its command here),
	// not by the name it reports.
	if s := x.waitFor("asks for input", "Tell us about you", "ctrl+s accept"); strings.Contains(s, "mcpsh-ts-server asks") {
		t.Errorf("the dialog names the server by the name it reports:\n%s", s)
	}
	x.keys("ada@example.com")
	x.keys("C-s")
	// The tool answers with the JSON of what it got, which the result view
	// indents.
	s = x.waitFor("Ask for a form  ask_form  ok", `"action": "accept"`, `"email": "ada@example.com"`)
	for _, want := range []string{`"age": 30`, `"subscribe": true`, `"color": "green"`, `"nickname": "ada"`} {
		if !strings.Contains(s, want) {
			t.Errorf("the tool's answer lacks %s:\n%s", want, s)
		}
	}
	x.keys("Escape", "q")
}

// waitForOne waits until the screen shows one of texts, and returns the screen.
func (x *tmux) waitForOne(texts ...string) string {
	x.t.Helper()
	deadline := time.Now().Add(patience)
	for {
		s := x.screen()
		for _, want := range texts {
			if strings.Contains(s, want) {
				return s
			}
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("the screen never showed any of %q:\n%s", texts, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
