package e2e

import (
	"fmt"
	"testing"
)

// Sampling answered by a person, in a real terminal, against the npm
// reference server-everything: its sampling tool appears only because the TUI
// declares sampling, and what the person types is what the server gets back.
func TestTUISamplingAgainstServerEverything(t *testing.T) {
	t.Parallel()
	x := newTmux(t)
	srv := npmBin(t, "mcp-server-everything")
	shell := fmt.Sprintf("HOME=%s TERM=xterm-256color %s --no-log -- %s; sleep 30", t.TempDir(), mcpshBin, srv)
	x.run("new-session", "-d", "-s", "t", "-x", "100", "-y", "30", shell)
	x.waitFor("trigger-sampling-request") // the list keeps names whole, cutting titles
	x.keys("/", "s", "a", "m", "p", "l")
	x.keys("Enter", "Enter")
	x.waitFor("prompt*")
	x.keys("H", "i", "C-r")
	x.waitFor("asks for a completion", "you write it; mcpsh calls no model", "context: Hi")
	x.keys("H", "e", "l", "l", "o", "Space", "h", "u", "m", "a", "n")
	x.keys("C-s")
	x.waitFor(`"model": "human (mcpsh)"`, `"text": "Hello human"`)
}
