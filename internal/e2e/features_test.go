package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The features beyond tools, in batch mode, against the TypeScript SDK test
// server (stdio and HTTP; its contract is at the top of .ci/ts-server/server.js)
// and the npm reference server-everything.

// tsTargets are the TypeScript server over stdio and over HTTP.
func tsTargets(t *testing.T) map[string][]string {
	return map[string][]string{
		"stdio": append([]string{"--"}, tsServer(t)...),
		"http":  {"--url", tsServerHTTP(t)},
	}
}

// at puts a target's flags where cobra wants them: "--url U" anywhere, "-- CMD" last.
func at(target []string, args ...string) []string {
	if target[0] == "--" {
		return append(args, target...)
	}
	return append(append([]string{}, target...), args...)
}

func TestResourcesListAndRead(t *testing.T) {
	t.Parallel()
	for name, target := range tsTargets(t) {
		t.Run(name, func(t *testing.T) {
			r := mcpsh(t, opts{}, at(target, "resources", "--json", noLog)...)
			wantCode(t, r, 0)
			var l struct {
				Resources []struct{ URI, MIMEType string }
				Templates []struct{ URITemplate string }
			}
			if err := json.Unmarshal([]byte(r.out), &l); err != nil {
				t.Fatal(err, r.out)
			}
			// The server pages its listing two at a time: all five must come.
			if len(l.Resources) != 5 || len(l.Templates) != 2 || l.Templates[0].URITemplate != "notes://{folder}/{name}" {
				t.Fatalf("listing: %+v", l)
			}

			r = mcpsh(t, opts{}, at(target, "read", noLog, "info://readme.md")...)
			wantCode(t, r, 0)
			contains(t, "markdown", r.out, "# mcpsh-ts-server")

			png := filepath.Join(t.TempDir(), "pixel.png")
			r = mcpsh(t, opts{}, at(target, "read", noLog, "info://pixel.png", "--out", png)...)
			wantCode(t, r, 0)
			if b, _ := os.ReadFile(png); len(b) != 70 || string(b[1:4]) != "PNG" {
				t.Errorf("the blob written is %d bytes: %q", len(b), b[:min(len(b), 8)])
			}
			r = mcpsh(t, opts{}, at(target, "read", noLog, "info://pixel.png")...) // piped: the bytes
			if len(r.out) != 70 {
				t.Errorf("piped blob: %d bytes", len(r.out))
			}

			r = mcpsh(t, opts{}, at(target, "read", noLog, "notes://{folder}/{name}", "folder=work", "name=todo")...)
			wantCode(t, r, 0)
			contains(t, "note", r.out, "Ship the client.")
			r = mcpsh(t, opts{}, at(target, "read", noLog, "notes://{folder}/{name}", "folder=work")...)
			wantCode(t, r, 2)
			contains(t, "missing variable", r.errOut, "needs name=VALUE")
		})
	}
}

func TestReadFollowPrintsEachUpdate(t *testing.T) {
	t.Parallel()
	url := tsServerHTTP(t)
	cmd := command(t, mcpshBin, "read", noLog, "--url", url, "mem://counter", "--follow")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errOut strings.Builder
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(out)
	next := func() string {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("read --follow ended: %v", lines.Err())
		}
		return lines.Text()
	}
	if l := next(); l != "count: 0" {
		t.Fatalf("first read %q", l)
	}
	for i := 1; i <= 2; i++ {
		r := mcpsh(t, opts{}, "call", noLog, "--url", url, "touch_counter")
		wantCode(t, r, 0)
		if l, want := next(), fmt.Sprintf("count: %d", i); l != want {
			t.Fatalf("after touch %d: %q, want %q", i, l, want)
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan struct{})
	go func() {
		for lines.Scan() {
		}
		cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("read --follow did not stop on Ctrl-C\n%s", errOut.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Errorf("exit %d after Ctrl-C, want 130\n%s", code, errOut.String())
	}
	contains(t, "stderr", errOut.String(), "mem://counter changed at")
}

func TestPromptsAndCompletions(t *testing.T) {
	t.Parallel()
	for name, target := range tsTargets(t) {
		t.Run(name, func(t *testing.T) {
			r := mcpsh(t, opts{}, at(target, "prompts", noLog)...)
			wantCode(t, r, 0)
			contains(t, "prompts", r.out, "greet\tGreeting\tname*,style", "review_note", "show_pixel")

			r = mcpsh(t, opts{}, at(target, "prompt", noLog, "greet", "name=Ada", "style=formal")...)
			wantCode(t, r, 0)
			contains(t, "greet", r.out, "[user]", "Ada")
			r = mcpsh(t, opts{}, at(target, "prompt", noLog, "greet")...)
			wantCode(t, r, 2)
			contains(t, "missing argument", r.errOut, `argument "name": required but missing`)
			r = mcpsh(t, opts{}, at(target, "prompt", noLog, "show_pixel")...)
			wantCode(t, r, 0)
			contains(t, "image", r.out, "[image image/png")
			r = mcpsh(t, opts{}, at(target, "prompt", noLog, "review_note", "folder=work", "name=todo", "--json")...)
			wantCode(t, r, 0)
			contains(t, "embedded resource", r.out, `"type": "resource"`, "notes://work/todo")

			r = mcpsh(t, opts{}, at(target, "complete", noLog, "greet", "name", "A")...)
			wantCode(t, r, 0)
			if r.out != "Ada\nAlan\n" {
				t.Errorf("completions of A: %q", r.out)
			}
			r = mcpsh(t, opts{}, at(target, "complete", noLog, "notes://{folder}/{name}", "name", "", "--context", "folder=work")...)
			wantCode(t, r, 0)
			if r.out != "ideas\ntodo\n" {
				t.Errorf("completions of a note name in work: %q", r.out)
			}
		})
	}
}

func TestInfoPingAndServerLog(t *testing.T) {
	t.Parallel()
	target := append([]string{"--"}, tsServer(t)...)
	r := mcpsh(t, opts{}, at(target, "info", noLog, "--json")...)
	wantCode(t, r, 0)
	var info struct {
		Name, Protocol, Instructions string
		Capabilities                 struct{ Resources, ResourcesSubscribe, Prompts, Completions, Logging bool }
	}
	json.Unmarshal([]byte(r.out), &info)
	if info.Name != "mcpsh-ts-server" || info.Protocol == "" || !strings.Contains(info.Instructions, "Read info://about first") ||
		!info.Capabilities.ResourcesSubscribe || !info.Capabilities.Completions {
		t.Errorf("info: %+v", info)
	}
	r = mcpsh(t, opts{}, at(target, "info", noLog, "--protocol", "2025-06-18", "--json")...)
	wantCode(t, r, 0)
	contains(t, "pinned protocol", r.out, `"protocol": "2025-06-18"`)
	r = mcpsh(t, opts{}, at(target, "info", noLog, "--protocol", "1999-01-01")...)
	wantCode(t, r, 2)
	contains(t, "unknown protocol", r.errOut, `unknown protocol version "1999-01-01"`)

	r = mcpsh(t, opts{}, at(target, "ping", noLog, "--count", "3")...)
	wantCode(t, r, 0)
	if strings.Count(r.out, "pong from") != 3 || !strings.Contains(r.errOut, "avg") {
		t.Errorf("ping:\n%s%s", r.out, r.errOut)
	}

	r = mcpsh(t, opts{}, at(target, "call", noLog, "log_levels", "--server-log", "error")...)
	wantCode(t, r, 0)
	contains(t, "server log", r.errOut, "mcpsh: server log: error [ts-server]: error message")
	if strings.Contains(r.errOut, "warning message") {
		t.Errorf("a warning came through --server-log error:\n%s", r.errOut)
	}
}

func TestElicitationAndRootsInBatch(t *testing.T) {
	t.Parallel()
	target := append([]string{"--"}, tsServer(t)...)
	// Without --elicit mcpsh offers no elicitation: the server is told so by
	// the capabilities, and its tool says it.
	r := mcpsh(t, opts{}, at(target, "call", noLog, "ask_form")...)
	wantCode(t, r, 3)
	contains(t, "undeclared", r.out+r.errOut, "did not declare elicitation")

	answers := filepath.Join(t.TempDir(), "answers.json")
	os.WriteFile(answers, []byte(`{"email":"ada@example.com","age":36,"unasked":"x"}`), 0o600)
	r = mcpsh(t, opts{}, at(target, "call", noLog, "ask_form", "--elicit", "@"+answers)...)
	wantCode(t, r, 0)
	contains(t, "accepted", r.out, `"action":"accept"`, `"email":"ada@example.com"`, `"age":36`, `"color":"green"`)
	if strings.Contains(r.out, "unasked") {
		t.Errorf("a field the form did not ask for was sent: %s", r.out)
	}
	// Defaults cannot fill the required email: declined, with the reason.
	r = mcpsh(t, opts{}, at(target, "call", noLog, "ask_form", "--elicit", "defaults")...)
	wantCode(t, r, 0)
	contains(t, "declined", r.out, `"action":"decline"`)
	contains(t, "why", r.errOut, "no value for the required field email")
	// An answer that breaks the form is not sent.
	os.WriteFile(answers, []byte(`{"email":"ada@example.com","age":360}`), 0o600)
	r = mcpsh(t, opts{}, at(target, "call", noLog, "ask_form", "--elicit", "@"+answers)...)
	contains(t, "declined", r.out, `"action":"decline"`)
	contains(t, "why", r.errOut, `argument "age": maximum`)

	dir := t.TempDir()
	r = mcpsh(t, opts{}, at(target, "call", noLog, "list_roots", "--root", dir)...)
	wantCode(t, r, 0)
	contains(t, "roots", r.out, `"uri":"file://`+filepath.ToSlash(dir)+`"`)
	r = mcpsh(t, opts{}, at(target, "call", noLog, "list_roots", "--root", filepath.Join(dir, "nope"))...)
	wantCode(t, r, 2)
}

func TestEverythingServerBeyondTools(t *testing.T) {
	t.Parallel()
	srv := []string{"--", npmBin(t, "mcp-server-everything")}
	r := mcpsh(t, opts{}, at(srv, "resources", "--json", noLog)...)
	wantCode(t, r, 0)
	contains(t, "templates", r.out, "demo://resource/dynamic/text/{resourceId}")
	r = mcpsh(t, opts{}, at(srv, "read", noLog, "demo://resource/dynamic/text/{resourceId}", "resourceId=2")...)
	wantCode(t, r, 0)
	if strings.TrimSpace(r.out) == "" {
		t.Error("the dynamic text resource read empty")
	}
	r = mcpsh(t, opts{}, at(srv, "prompt", noLog, "args-prompt", "city=Lisbon")...)
	wantCode(t, r, 0)
	contains(t, "prompt", r.out, "[user]", "Lisbon")
	r = mcpsh(t, opts{}, at(srv, "complete", noLog, "completable-prompt", "department", "E")...)
	wantCode(t, r, 0)
	contains(t, "completion", r.out, "Engineering")
	r = mcpsh(t, opts{}, at(srv, "call", noLog, "get-roots-list", "--root", t.TempDir())...)
	wantCode(t, r, 0)
	contains(t, "roots", r.out, "file://")
	r = mcpsh(t, opts{}, at(srv, "info", noLog, "--json")...)
	wantCode(t, r, 0)
	contains(t, "info", r.out, `"protocol"`, `"instructions"`)

	// Its elicitation form (every kind of field): the answers file fills
	// the required name, the form's defaults the rest.
	answers := filepath.Join(t.TempDir(), "answers.json")
	os.WriteFile(answers, []byte(`{"name":"Ada"}`), 0o600)
	r = mcpsh(t, opts{}, at(srv, "call", noLog, "trigger-elicitation-request", "--elicit", "@"+answers)...)
	wantCode(t, r, 0)
	contains(t, "elicitation", r.out, `"action": "accept"`, `"name": "Ada"`, `"integer": 42`)
	r = mcpsh(t, opts{}, at(srv, "call", noLog, "trigger-elicitation-request", "--elicit", "defaults")...)
	wantCode(t, r, 0)
	contains(t, "declined", r.out, `"action": "decline"`)
}

// A server that needs the user to visit a page first (-32042) says where,
// with the host plain, and the call is not retried.
func TestURLElicitationRequiredNamesThePage(t *testing.T) {
	t.Parallel()
	target := append([]string{"--"}, tsServer(t)...)
	r := mcpsh(t, opts{}, at(target, "call", noLog, "needs_visit")...)
	wantCode(t, r, 1)
	contains(t, "the page", r.errOut, "visit https://example.com/authorize (host example.com", "Authorize first", "call it again")
	if strings.Contains(r.errOut, "retrying") {
		t.Errorf("a call that needs a visit was retried:\n%s", r.errOut)
	}
}
