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

// The demo beyond tools, through the built binary: its notes as resources
// with a template, subscriptions, prompts, completions, a tool that asks the
// user (elicitation) and one that asks the client's model (sampling).

func TestDemoNotesAreResources(t *testing.T) {
	t.Parallel()
	r := mcpsh(t, opts{}, "resources", "--demo", "--json", noLog)
	wantCode(t, r, 0)
	var l struct {
		Resources []struct{ URI, Title, MIMEType string }
		Templates []struct{ URITemplate string }
	}
	if err := json.Unmarshal([]byte(r.out), &l); err != nil {
		t.Fatal(err, r.out)
	}
	if len(l.Resources) != 3 || l.Resources[1].URI != "note://2" || l.Resources[1].Title != "Shopping list" ||
		l.Resources[1].MIMEType != "text/markdown" || len(l.Templates) != 1 || l.Templates[0].URITemplate != "note://{id}" {
		t.Fatalf("listing: %+v", l)
	}

	r = mcpsh(t, opts{}, "read", "--demo", noLog, "note://2")
	wantCode(t, r, 0)
	if r.out != "# Shopping list\n\n*tags: home*\n\nCoffee beans, oat milk, rice\n" {
		t.Errorf("note://2 read %q", r.out)
	}
	r = mcpsh(t, opts{}, "read", "--demo", noLog, "note://{id}", "id=3")
	wantCode(t, r, 0)
	contains(t, "the template, expanded", r.out, "# Release checklist")
	r = mcpsh(t, opts{}, "read", "--demo", noLog, "note://9")
	wantCode(t, r, 1)
	contains(t, "a note there is not", r.errOut, "note://9", "not found")
}

func TestDemoPromptsAndCompletions(t *testing.T) {
	t.Parallel()
	r := mcpsh(t, opts{}, "prompts", "--demo", noLog)
	wantCode(t, r, 0)
	contains(t, "prompts", r.out, "summarize_note\tSummarize a note\tid*,style", "triage_notes\tTriage notes\ttag")

	r = mcpsh(t, opts{}, "prompt", "--demo", noLog, "summarize_note", "id=2", "style=bullets")
	wantCode(t, r, 0)
	contains(t, "summarize_note", r.out, "[resource note://2, text/markdown]", "# Shopping list", "as a bulleted list")
	r = mcpsh(t, opts{}, "prompt", "--demo", noLog, "summarize_note", "id=2", "style=haiku")
	wantCode(t, r, 1)
	contains(t, "a style the prompt has not", r.errOut, `argument style: "haiku" is not one of brief, detailed, bullets`)
	r = mcpsh(t, opts{}, "prompt", "--demo", noLog, "triage_notes", "tag=work")
	wantCode(t, r, 0)
	contains(t, "triage_notes", r.out, `notes tagged "work"`, "#3 Release checklist")

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"note://{id}", "id", ""}, "1\n2\n3\n"},
		{[]string{"summarize_note", "id", "3"}, "3\n"},
		{[]string{"summarize_note", "style", "b"}, "brief\nbullets\n"},
		{[]string{"triage_notes", "tag", ""}, "demo\nhome\nwork\n"},
	} {
		r := mcpsh(t, opts{}, append([]string{"complete", "--demo", noLog}, c.args...)...)
		wantCode(t, r, 0)
		if r.out != c.want {
			t.Errorf("complete %q: %q, want %q", c.args, r.out, c.want)
		}
	}
}

func TestDemoRenameNoteAsksByElicitation(t *testing.T) {
	t.Parallel()
	answers := filepath.Join(t.TempDir(), "answers.json")
	os.WriteFile(answers, []byte(`{"title":"Groceries"}`), 0o600)

	// Destructive: refused in batch without --yes, before anything is asked.
	r := mcpsh(t, opts{}, "call", "--demo", noLog, "rename_note", "id=2", "--elicit", "@"+answers)
	wantCode(t, r, 4)
	if strings.Contains(r.errOut, "asked for input") {
		t.Errorf("a refused call asked for input:\n%s", r.errOut)
	}
	// Without --elicit mcpsh offers no elicitation, and the tool says what it needs.
	r = mcpsh(t, opts{}, "call", "--demo", noLog, "--yes", "rename_note", "id=2")
	wantCode(t, r, 3)
	contains(t, "no elicitation", r.out+r.errOut, "rename_note needs a title: pass title, or call it from a client that offers elicitation")

	// Both ways a server asks: in rounds (2026-07-28, the default) and
	// during the call (2025-11-25). The rename then shows in the same session.
	for _, protocol := range []string{"auto", "2025-11-25"} {
		r = mcpsh(t, opts{stdin: "rename_note id=2\nget_note id=2\n"}, "run", "--demo", noLog, "--yes", "--protocol", protocol, "--elicit", "@"+answers)
		wantCode(t, r, 0)
		contains(t, protocol, r.out, `Renamed note #2 from "Shopping list" to "Groceries".`, "#2 Groceries")
		contains(t, protocol, r.errOut, `demo asked for input: "Rename note #2, now titled \"Shopping list\": what should its new title be?"; accepted with the answers file`)
	}
	// The form's default is the title it has: accepting it changes nothing.
	r = mcpsh(t, opts{}, "call", "--demo", noLog, "--yes", "rename_note", "id=2", "--elicit", "defaults")
	wantCode(t, r, 0)
	contains(t, "defaults", r.out, `Note #2 is already titled "Shopping list"; nothing changed.`)
}

func TestDemoSuggestTitleWithoutSamplingSaysSo(t *testing.T) {
	t.Parallel()
	r := mcpsh(t, opts{}, "call", "--demo", noLog, "suggest_title", "id=2")
	wantCode(t, r, 3)
	contains(t, "no sampling in batch", r.out+r.errOut, "suggest_title asks the client's model, and this client does not offer sampling; nothing was asked")
}

// A subscriber hears the note it reads change under another client's call.
func TestDemoReadFollowHearsTheNoteChange(t *testing.T) {
	t.Parallel()
	for _, protocol := range []string{"auto", "2025-11-25"} {
		t.Run(protocol, func(t *testing.T) {
			url := serveHTTP(t)
			cmd := command(t, mcpshBin, "read", noLog, "--url", url, "--protocol", protocol, "note://2", "--follow")
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
			lines := make(chan string, 100)
			go func() {
				sc := bufio.NewScanner(out)
				for sc.Scan() {
					lines <- sc.Text()
				}
				close(lines)
			}()
			// upTo reads the printed lines until one is want.
			upTo := func(want string) {
				t.Helper()
				deadline := time.After(patience)
				for {
					select {
					case l, ok := <-lines:
						if !ok {
							t.Fatalf("read --follow ended before printing %q\n%s", want, errOut.String())
						}
						if l == want {
							return
						}
					case <-deadline:
						t.Fatalf("read --follow never printed %q\n%s", want, errOut.String())
					}
				}
			}
			upTo("*tags: home*")
			r := mcpsh(t, opts{}, "call", noLog, "--url", url, "tag_note", "id=2", "tag=errands")
			wantCode(t, r, 0)
			upTo("*tags: home, errands*")
			r = mcpsh(t, opts{}, "call", noLog, "--url", url, "--yes", "rename_note", "id=2", "title=Groceries")
			wantCode(t, r, 0)
			upTo("# Groceries")

			cmd.Process.Signal(syscall.SIGINT)
			done := make(chan error, 1)
			go func() {
				for range lines {
				}
				done <- cmd.Wait()
			}()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Fatalf("read --follow did not stop on Ctrl-C\n%s", errOut.String())
			}
			if code := cmd.ProcessState.ExitCode(); code != 130 {
				t.Errorf("exit %d after Ctrl-C, want 130\n%s", code, errOut.String())
			}
			contains(t, "stderr", errOut.String(), "note://2 changed at")
		})
	}
}

// The whole demo in a terminal of 80×24: its resources and template, a
// prompt whose argument the server completes, a tool that asks the user and
// one that asks for a completion a person writes.
func TestTUIDemoShowsEverythingAt80x24(t *testing.T) {
	t.Parallel()
	x := newTmux(t)
	shell := fmt.Sprintf("HOME=%s TERM=xterm-256color %s --demo --no-log; sleep 30", t.TempDir(), mcpshBin)
	x.run("new-session", "-d", "-s", "t", "-x", "80", "-y", "24", shell)
	x.waitFor(" Tools 17 ", " Resources 4 ", " Prompts 2 ")

	x.keys("r")
	x.waitFor("Resources (3)", "Welcome to mcpsh  note://1", "Shopping list  note://2", "Templates (1)", "Note by id  note://{id}")
	x.keys("j", "Enter")
	x.waitFor("note://2", "Coffee beans, oat milk, rice")
	x.keys("Escape")

	x.keys("p")
	x.waitFor("Prompts (2)", "Summarize a note", "Triage notes")
	x.keys("Enter")
	x.waitFor("▸ id*", "the server suggests values as you type")
	x.keys("2", "Tab", "b")
	x.waitFor("brief", "bullets") // the server's suggestions for style
	x.run("send-keys", "-t", "t", "-l", "ullets")
	x.keys("C-r")
	x.waitFor("Summarize note #2 (bullets)", "[embedded resource] note://2", "as a bulleted list")
	x.keys("Escape")

	x.keys("t", "/")
	x.run("send-keys", "-t", "t", "-l", "rename")
	x.keys("Enter", "Enter")
	x.waitFor("▸ id*")
	x.keys("3", "C-r")
	x.waitFor("Run a destructive tool?", "rename_note")
	x.keys("y")
	x.waitFor("demo asks for input", `Rename note #3, now titled "Release checklist"`, "New title*")
	x.keys("C-u")
	x.run("send-keys", "-t", "t", "-l", "Ship it")
	x.keys("C-s")
	x.waitFor(`Renamed note #3 from "Release checklist" to "Ship it".`)
	x.keys("Escape", "Escape", "Escape")
	x.keys("r")
	x.waitFor("Ship it  note://3") // the list followed the rename

	x.keys("t", "/")
	x.run("send-keys", "-t", "t", "-l", "suggest")
	x.keys("Enter", "Enter")
	x.waitFor("▸ id*")
	x.keys("2", "C-r")
	x.waitFor("demo asks for a completion", "you write it; mcpsh calls no model", "# Shopping list")
	x.run("send-keys", "-t", "t", "-l", "Weekly shop")
	x.keys("C-s")
	x.waitFor("Suggested title for note #2, from human (mcpsh): Weekly shop")
}
