package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeScript puts a script in a temporary folder and returns its path.
func writeScript(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestScriptExpectations(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := writeScript(t, dir, "check.mcpsh", `# notes behave
get_note id=2
  expect status ok
  expect text "Shopping list"
get_note id=999
  expect status tool_error
  expect text "no note with id 999"
search_notes query=milk
  expect json .total == 1
  expect json .matches[0].title == "Buy milk"
pop_note
  expect status refused
add_note title=after
  expect text "Added note #4"
`)
	r := mcpsh(t, opts{}, "run", "--demo", "--no-log", p)
	wantCode(t, r, 1)
	contains(t, "stderr", r.errOut,
		p+`:10: expected json .matches[0].title == "Buy milk", got "Shopping list"`,
		"5 calls: 3 ok, 1 tool error, 1 refused; 1 of 8 expectations failed")
	contains(t, "stdout", r.out, "[line 13] Add a note (add_note) · ok", "Added note #4: after")
	if n := strings.Count(r.errOut, "expected "); n != 1 {
		t.Errorf("%d failures reported, want 1:\n%s", n, r.errOut)
	}

	// --fail-fast stops at the failed expectation: add_note never runs.
	r = mcpsh(t, opts{}, "run", "--demo", "--no-log", "--fail-fast", p)
	wantCode(t, r, 1)
	contains(t, "stderr", r.errOut, "stopped at line 8 (--fail-fast): 2 calls not run", "3 calls: 2 ok, 1 tool error; 1 of 6 expectations failed")
	if strings.Contains(r.out, "[line 13]") || strings.Contains(r.out, "[line 11]") {
		t.Errorf("--fail-fast went on:\n%s", r.out)
	}

	// Fixed, the script passes, tool error and refusal included.
	fixed := writeScript(t, dir, "fixed.mcpsh", strings.Replace(mustRead(t, p), `"Buy milk"`, `"Shopping list"`, 1))
	r = mcpsh(t, opts{}, "run", "--demo", "--no-log", fixed)
	wantCode(t, r, 0)
	contains(t, "stderr", r.errOut, "8 expectations met")

	// --json: each record carries its expectations.
	r = mcpsh(t, opts{}, "run", "--demo", "--no-log", "--json", p)
	wantCode(t, r, 1)
	var rec struct {
		Line         int
		Expectations []struct {
			Line     int
			Kind     string
			Expected any
			Got      any
			OK       bool
		}
	}
	if err := json.Unmarshal([]byte(strings.Split(r.out, "\n")[2]), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Line != 8 || len(rec.Expectations) != 2 || !rec.Expectations[0].OK || rec.Expectations[1].OK ||
		rec.Expectations[1].Got != "Shopping list" || rec.Expectations[1].Expected != "Buy milk" || rec.Expectations[1].Line != 10 {
		t.Errorf("record %+v", rec)
	}
}

func TestScriptMistakesSendNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	logPath := filepath.Join(dir, "log.jsonl")
	p := writeScript(t, dir, "bad.mcpsh", "add_note title=x\n  expect json .a == nope\n  expect status done\nexpect_thing\n")
	r := mcpsh(t, opts{}, "run", "--demo", "--log", logPath, p)
	wantCode(t, r, 2)
	contains(t, "stderr", r.errOut, p+":2: expect: json: the value is not JSON", p+":3: expect: status \"done\"", p+`:4: demo has no tool "expect_thing"`,
		"3 errors in the script; nothing was sent")
	if b, _ := os.ReadFile(logPath); len(b) > 0 {
		t.Errorf("a refused script logged a call: %s", b)
	}
}

func mustRead(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The round trip: a session in the default state folder, turned into a script
// by mcpsh log --as-script --session latest, passes against the same server.
func TestScriptFromSessionLog(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := []string{"XDG_STATE_HOME=" + filepath.Join(dir, "state")}
	session := writeScript(t, dir, "session.mcpsh", "list_notes\nadd_note title=\"Buy milk\" tags=home,errands\n"+
		"tag_note id=4 tag=urgent\nget_note id=4\nget_note id=999\nsearch_notes query=milk\ndelete_note id=1\n")
	r := mcpsh(t, opts{env: env}, "run", "--demo", session)
	wantCode(t, r, 4) // delete_note is refused without --yes
	r = mcpsh(t, opts{env: env}, "log", "--as-script", "--session", "latest")
	wantCode(t, r, 0)
	contains(t, "script", r.out, "# A run script made by `mcpsh log --as-script` from session ", "# server: demo (in-process)",
		"\nadd_note {\"tags\":[\"home\",\"errands\"],\"title\":\"Buy milk\"}\n  expect status ok\n",
		"\nget_note {\"id\":999}\n  expect status tool_error\n",
		"\n# refused when logged: ", "delete_note {\"id\":1}\n  expect status refused\n")
	if strings.Contains(r.out, "<FILL>") {
		t.Errorf("nothing was redacted, yet the script has placeholders:\n%s", r.out)
	}
	replay := writeScript(t, dir, "replay.mcpsh", r.out)
	r = mcpsh(t, opts{env: env}, "run", "--demo", replay)
	wantCode(t, r, 0)
	// A status for each call, and a digest for each of the six results
	// (the default --log-results).
	contains(t, "stderr", r.errOut, "7 calls: 5 ok, 1 tool error, 1 refused; 13 expectations met")

	// Today's policy decides: --yes lets the destructive call run, and the
	// script says it no longer ends as it did.
	r = mcpsh(t, opts{env: env}, "run", "--demo", "--yes", replay)
	wantCode(t, r, 1)
	contains(t, "stderr", r.errOut, "expected status refused, got ok", "1 of 13 expectations failed")
}

// A call approved with --yes replays only with --yes; a redacted argument, or
// arguments the log did not keep, make the script refuse to run until filled.
func TestScriptFromLogFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	logPath := filepath.Join(dir, "calls.jsonl")
	secret := "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123"
	for _, args := range [][]string{
		{"call", "--demo", "add_note", "title=Deploy", "content=token " + secret},
		{"call", "--demo", "delete_note", "id=2", "--yes"},
		{"call", "--demo", "get_note", "id=3"},
	} {
		r := mcpsh(t, opts{}, append(args, "--log", logPath)...)
		wantCode(t, r, 0)
	}
	r := mcpsh(t, opts{}, "log", logPath, "--as-script")
	wantCode(t, r, 0)
	if strings.Contains(r.out, secret) {
		t.Fatal("the script holds the secret")
	}
	contains(t, "script", r.out, `# fill in: "content" (redacted in the log)`, `add_note {"content":"token <FILL>","title":"Deploy"}`,
		"# approved by --yes when logged", "delete_note {\"id\":2}\n  expect status ok\n")
	replay := writeScript(t, dir, "replay.mcpsh", r.out)
	r = mcpsh(t, opts{}, "run", "--demo", "--no-log", "--yes", replay)
	wantCode(t, r, 2)
	contains(t, "stderr", r.errOut, replay+":", `argument "content" is still <FILL>: put the value to send in its place`, "1 error in the script; nothing was sent")
	if strings.Contains(r.out, "[line") {
		t.Fatalf("an unfilled script ran:\n%s", r.out)
	}

	writeScript(t, dir, "replay.mcpsh", strings.ReplaceAll(mustRead(t, replay), "<FILL>", secret))
	r = mcpsh(t, opts{}, "run", "--demo", "--no-log", replay)
	wantCode(t, r, 1)
	// Refused, the call has no result for its digest to match either.
	contains(t, "stderr", r.errOut, ": expected status ok, got refused", ": expected digest sha256:", "got nothing: the call has no result: it ended refused",
		"2 of 6 expectations failed")
	r = mcpsh(t, opts{}, "run", "--demo", "--no-log", "--yes", replay)
	wantCode(t, r, 0)
	contains(t, "stderr", r.errOut, "3 calls: 3 ok; 6 expectations met")

	// --log-args none: the whole argument list is a placeholder.
	none := filepath.Join(dir, "none.jsonl")
	wantCode(t, mcpsh(t, opts{}, "call", "--demo", "get_note", "id=1", "--log", none, "--log-args", "none"), 0)
	r = mcpsh(t, opts{}, "log", none, "--as-script")
	wantCode(t, r, 0)
	contains(t, "script", r.out, "\nget_note <FILL>\n  expect status ok\n")
	replay = writeScript(t, dir, "none.mcpsh", r.out)
	r = mcpsh(t, opts{}, "run", "--demo", "--no-log", replay)
	wantCode(t, r, 2)
	contains(t, "stderr", r.errOut, "the arguments are still <FILL> (the log kept none)")
	writeScript(t, dir, "none.mcpsh", strings.ReplaceAll(mustRead(t, replay), "<FILL>", "id=1"))
	r = mcpsh(t, opts{}, "run", "--demo", "--no-log", replay)
	wantCode(t, r, 0)
}
