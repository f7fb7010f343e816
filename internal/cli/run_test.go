package cli

import (
	"encoding/json"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpsh/mcpsh/internal/iostreams"
	"github.com/mcpsh/mcpsh/internal/testing/fixture"
)

func TestRunScript(t *testing.T) {
	t.Parallel()
	script := `# a demo script
list_notes

add_note {"title": "Buy milk", "tags": ["home"]}
add_note title="Call Sam" content='about the "plan"'
get_note id=5
`
	r, srv := run(t, env{stdin: script}, "run", "--demo")
	wantCode(t, r, ExitOK)
	contains(t, "stdout", r.out, "[line 2] List notes", "[line 4] Add a note", "Added note #4: Buy milk", "Added note #5: Call Sam", "[line 6]")
	contains(t, "stderr", r.errOut, "4 calls: 4 ok")
	if srv.Executions("add_note") != 2 {
		t.Errorf("add_note ran %d times", srv.Executions("add_note"))
	}
}

func TestRunChecksEveryLineBeforeSending(t *testing.T) {
	t.Parallel()
	script := "add_note title=ok\nget_note id=zz\nnope\nadd_note title=\"open\nadd_note\n"
	r, srv := run(t, env{stdin: script}, "run", "--demo")
	wantCode(t, r, ExitUsage)
	contains(t, "stderr", r.errOut,
		`<stdin>:2: get_note: argument "id": "zz" is not an integer`,
		`<stdin>:3: demo has no tool "nope"`,
		`<stdin>:4: unterminated " quote`,
		`<stdin>:5: add_note: argument "title": required but missing`,
		"4 errors in the script; nothing was sent")
	if srv.Executions("add_note") != 0 {
		t.Fatal("a script with mistakes sent a call")
	}
}

func TestRunJSONLines(t *testing.T) {
	t.Parallel()
	r, _ := run(t, env{stdin: "list_notes\npop_note\nget_note id=999\n"}, "run", "--demo", "--json")
	wantCode(t, r, ExitRefused) // refused outranks a tool error
	ls := lines(r.out)
	if len(ls) != 3 {
		t.Fatalf("%d lines, want 3:\n%s", len(ls), r.out)
	}
	want := []struct {
		line   float64
		status string
	}{{1, "ok"}, {2, "refused"}, {3, "tool_error"}}
	for i, l := range ls {
		var o map[string]any
		if err := json.Unmarshal([]byte(l), &o); err != nil {
			t.Fatalf("line %d is not JSON: %v", i+1, err)
		}
		if o["line"] != want[i].line || o["status"] != want[i].status {
			t.Errorf("record %d: line %v status %v, want %v %v", i, o["line"], o["status"], want[i].line, want[i].status)
		}
	}
}

func TestRunExitCodePrecedence(t *testing.T) {
	t.Parallel()
	tests := []struct {
		script string
		code   int
	}{
		// flaky_sync fails twice before it works: with one attempt it fails.
		{"list_notes\n", ExitOK},
		{"get_note id=999\n", ExitToolError},
		{"get_note id=999\npop_note\n", ExitRefused},
		{"pop_note\nflaky_sync\nget_note id=999\n", ExitFailure},
	}
	for _, tt := range tests {
		r, _ := run(t, env{stdin: tt.script}, "run", "--demo", "--retries", "1")
		if r.code != tt.code {
			t.Errorf("script %q: exit %d, want %d\n%s", tt.script, r.code, tt.code, r.errOut)
		}
	}
}

func TestRunFailFast(t *testing.T) {
	t.Parallel()
	r, srv := run(t, env{stdin: "get_note id=999\nadd_note title=never\n"}, "run", "--demo", "--fail-fast")
	wantCode(t, r, ExitToolError)
	contains(t, "stderr", r.errOut, "stopped at line 1 (--fail-fast): 1 call not run")
	if srv.Executions("add_note") != 0 {
		t.Fatal("--fail-fast ran the next line")
	}
	r, srv = run(t, env{stdin: "get_note id=999\nadd_note title=runs\n"}, "run", "--demo")
	if srv.Executions("add_note") != 1 {
		t.Fatal("without --fail-fast the script should go on")
	}
}

func TestRunFromFile(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "calls.txt")
	os.WriteFile(p, []byte("delete_note id=1\n"), 0o600)
	r, srv := run(t, env{}, "run", "--demo", p, "--yes")
	wantCode(t, r, ExitOK)
	if srv.Executions("delete_note") != 1 {
		t.Fatal("--yes did not approve")
	}
	r, _ = run(t, env{}, "run", "--demo", filepath.Join(t.TempDir(), "missing.txt"))
	wantCode(t, r, ExitUsage)
	r, _ = run(t, env{tty: true}, "run", "--demo")
	wantCode(t, r, ExitUsage)
	contains(t, "stderr", r.errOut, "run needs a script")
}

func TestSplitWords(t *testing.T) {
	t.Parallel()
	got, err := splitWords(`a=1 b="two words" c='it''s' d=\"x\" e="say \"hi\""`)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a=1", "b=two words", "c=its", `d="x"`, `e=say "hi"`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestRunExpectations(t *testing.T) {
	t.Parallel()
	script := `get_note id=2
  expect status ok
  expect text "Shopping list"
  expect text "Buy milk"
search_notes query=milk
  expect json .total == 1
  expect json .matches[0].title == "Release checklist"
  expect json .matches[0].id == 2
add_note title=later
`
	r, srv := run(t, env{stdin: script}, "run", "--demo")
	wantCode(t, r, ExitFailure)
	contains(t, "stderr", r.errOut,
		`mcpsh: <stdin>:4: expected text "Buy milk", got "#2 Shopping list\ntags: home`,
		`mcpsh: <stdin>:7: expected json .matches[0].title == "Release checklist", got "Shopping list"`,
		"3 calls: 3 ok; 2 of 6 expectations failed")
	contains(t, "stdout", r.out, "[line 1] Read a note (get_note) · ok", "· 1 of 3 expectations failed", "· 1 of 3 expectations failed")
	if strings.Contains(r.errOut, ":2:") || strings.Contains(r.errOut, ":6:") || strings.Contains(r.errOut, ":8:") {
		t.Errorf("a met expectation was reported:\n%s", r.errOut)
	}
	if srv.Executions("add_note") != 1 {
		t.Error("a failed expectation stopped the script without --fail-fast")
	}

	r, _ = run(t, env{stdin: "get_note id=2\n  expect text \"Shopping\"\n"}, "run", "--demo")
	wantCode(t, r, ExitOK)
	contains(t, "stderr", r.errOut, "1 call: 1 ok; 1 expectation met")
}

// An expected status that comes is a pass: it does not make the exit 3 or 4,
// and --fail-fast goes on past it.
func TestRunExpectedStatusExit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		script string
		code   int
	}{
		{"get_note id=999\n", ExitToolError},
		{"get_note id=999\n  expect status tool_error\n", ExitOK},
		{"get_note id=999\n  expect status tool_error\n  expect text \"no note with id 999\"\n", ExitOK},
		{"get_note id=999\n  expect text \"no note with id 999\"\n", ExitToolError},
		{"pop_note\n  expect status refused\nget_note id=999\n  expect status tool_error\n", ExitOK},
		{"pop_note\n  expect status refused\nget_note id=999\n", ExitToolError},
		{"pop_note\n  expect status ok\n", ExitFailure},
		{"list_notes\n  expect status tool_error\n", ExitFailure},
		{"flaky_sync\n  expect status failed\n", ExitOK},
	}
	for _, tt := range tests {
		r, _ := run(t, env{stdin: tt.script}, "run", "--demo", "--retries", "1", "--fail-fast")
		if r.code != tt.code {
			t.Errorf("script %q: exit %d, want %d\n%s", tt.script, r.code, tt.code, r.errOut)
		}
	}
	r, srv := run(t, env{stdin: "get_note id=999\n  expect status tool_error\nadd_note title=runs\n"}, "run", "--demo", "--fail-fast")
	wantCode(t, r, ExitOK)
	if srv.Executions("add_note") != 1 {
		t.Error("--fail-fast stopped at an expected tool error")
	}
}

func TestRunExpectationsFailFast(t *testing.T) {
	t.Parallel()
	r, srv := run(t, env{stdin: "list_notes\n  expect text \"nothing like this\"\nadd_note title=never\nadd_note title=never\n"}, "run", "--demo", "--fail-fast")
	wantCode(t, r, ExitFailure)
	contains(t, "stderr", r.errOut, `<stdin>:2: expected text "nothing like this"`, "stopped at line 1 (--fail-fast): 2 calls not run", "1 call: 1 ok; 1 of 1 expectation failed")
	if srv.Executions("add_note") != 0 {
		t.Fatal("--fail-fast ran past a failed expectation")
	}
}

func TestRunJSONExpectations(t *testing.T) {
	t.Parallel()
	script := "search_notes query=milk\n  expect status ok\n  expect json .matches[0] == {\"id\": 2}\nlist_notes\n"
	r, _ := run(t, env{stdin: script}, "run", "--demo", "--json")
	wantCode(t, r, ExitFailure)
	ls := lines(r.out)
	if len(ls) != 2 {
		t.Fatalf("%d records:\n%s", len(ls), r.out)
	}
	var rec struct {
		Expectations []map[string]any `json:"expectations"`
	}
	json.Unmarshal([]byte(ls[0]), &rec)
	want := []map[string]any{
		{"line": 2.0, "kind": "status", "expected": "ok", "got": "ok", "ok": true},
		{"line": 3.0, "kind": "json", "path": ".matches[0]", "expected": map[string]any{"id": 2.0},
			"got": map[string]any{"id": 2.0, "title": "Shopping list", "snippet": "Coffee beans, oat milk, rice"}, "ok": false},
	}
	if diff := cmp.Diff(want, rec.Expectations); diff != "" {
		t.Errorf("expectations (-want +got):\n%s", diff)
	}
	if !strings.Contains(ls[1], `"expectations":[]`) {
		t.Errorf("a call without expectations: %s", ls[1])
	}
}

// A script that still holds <FILL> runs nothing, and says which argument on
// which line, once each.
func TestRunRefusesPlaceholders(t *testing.T) {
	t.Parallel()
	script := `add_note {"title": "<FILL>", "tags": ["a", "x <FILL> y"]}
  expect status ok
get_note id=<FILL>
delete_note <FILL>
add_note title=fine
`
	r, srv := run(t, env{stdin: script}, "run", "--demo", "--yes")
	wantCode(t, r, ExitUsage)
	contains(t, "stderr", r.errOut,
		`<stdin>:1: argument "tags" is still <FILL> at .[1]: put the value to send in its place`,
		`<stdin>:1: argument "title" is still <FILL>: put the value to send in its place`,
		`<stdin>:3: argument "id" is still <FILL>`,
		`<stdin>:4: the arguments are still <FILL> (the log kept none)`,
		"4 errors in the script; nothing was sent")
	if strings.Contains(r.errOut, "not an integer") || strings.Contains(r.errOut, "not key=value") {
		t.Errorf("a placeholder was also checked as a value:\n%s", r.errOut)
	}
	if srv.Executions("add_note")+srv.Executions("get_note")+srv.Executions("delete_note") != 0 {
		t.Fatal("a script with placeholders sent a call")
	}
}

// A failed expectation on a hostile server's text shows it as escapes only.
func TestRunExpectationsHostileText(t *testing.T) {
	t.Parallel()
	sc, _ := fixture.Lookup("hostile")
	ts := httptest.NewServer((&fixture.Server{Scenario: sc, StateDir: t.TempDir(), Stderr: io.Discard}).Handler(fixture.HTTPOptions{SSE: true}))
	defer ts.Close()
	script := filepath.Join(t.TempDir(), "calls.mcpsh")
	os.WriteFile(script, []byte("say\n  expect text \"quiet\"\nshout\n  expect status ok\n"), 0o600)
	for _, json := range []bool{false, true} {
		s, _, out, errOut := iostreams.Test()
		s.SetTTY(true, 100)
		args := []string{"--url", ts.URL, "--no-log", "run", script}
		if json {
			args = append(args, "--json")
		}
		if code := mainWith(t, s, args...); code != ExitFailure {
			t.Fatalf("exit %d\n%s", code, errOut)
		}
		contains(t, "stderr", errOut.String(), `calls.mcpsh:2: expected text "quiet", got "hello \u001b[31m\u001b]0;pwned\u0007`, "calls.mcpsh:4: expected status ok, got tool_error")
		if bad := terminalControl(out.String() + errOut.String()); bad != "" {
			t.Errorf("json %v: a control near %q", json, bad)
		}
	}
}
