package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/sessionlog"
	"github.com/mcpsh/mcpsh/policy"
)

func entry(tool string, status client.Status, args string) sessionlog.Entry {
	e := sessionlog.Entry{Outcome: client.Outcome{
		Time: time.Date(2026, 11, 22, 6, 14, 17, 0, time.UTC), Server: "demo", Via: "in-process",
		Tool: tool, Status: status,
	}}
	if args != "" {
		e.Args = json.RawMessage(args)
	}
	return e
}

func asScript(t *testing.T, session string, entries ...sessionlog.Entry) string {
	t.Helper()
	var b strings.Builder
	if err := writeAsScript(&b, session, entries); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestAsScript(t *testing.T) {
	t.Parallel()
	refused := entry("pop_note", client.StatusRefused, `{}`)
	refused.Reason = "destructive: needs confirmation (--yes)"
	failed := entry("flaky_sync", client.StatusFailed, `{}`)
	failed.Error = "server error\nsecond line"
	approved := entry("delete_note", client.StatusOK, `{"id":1}`)
	approved.ApprovedBy = policy.ByCaller
	s := asScript(t, "20261122T061417.123Z-4242",
		entry("list_notes", client.StatusOK, `{}`),
		entry("add_note", client.StatusOK, `{"title":"Buy <milk> & eggs","tags":["home"],"n":12345678901234567890}`),
		approved,
		entry("get_note", client.StatusToolError, `{"id":999}`),
		refused, failed,
		entry("slow_count", client.StatusCancelled, `{"n":3}`),
		entry("expect", client.StatusOK, `null`),
		entry("login", client.StatusOK, `{"user":"ada","password":"[redacted]","header":"Bearer [redacted]"}`),
		entry("send_message", client.StatusOK, ``),
	)
	for _, want := range []string{
		"# A run script made by `mcpsh log --as-script` from session 20261122T061417.123Z-4242.\n# server: demo (in-process)\n# 10 calls, 2026-11-22T06:14:17Z to 2026-11-22T06:14:17Z\n",
		"# To fill in: <FILL> marks 3 values the log redacted or did not keep.",
		"\nlist_notes\n  expect status ok\n",
		"\nadd_note {\"n\":12345678901234567890,\"tags\":[\"home\"],\"title\":\"Buy <milk> & eggs\"}\n  expect status ok\n",
		"\n# approved by --yes when logged: replaying it needs --yes unless policy now lets it run\ndelete_note {\"id\":1}\n  expect status ok\n",
		"\nget_note {\"id\":999}\n  expect status tool_error\n",
		"\n# refused when logged: destructive: needs confirmation (--yes)\npop_note\n  expect status refused\n",
		"\n# failed when logged: server error second line\nflaky_sync\n  expect status failed\n",
		"\n# cancelled when logged (interrupted), so no status is expected; it may have run in part\nslow_count {\"n\":3}\n\n",
		"\n'expect'\n  expect status ok\n",
		"\n# fill in: \"header\", \"password\" (redacted in the log)\nlogin {\"header\":\"Bearer <FILL>\",\"password\":\"<FILL>\",\"user\":\"ada\"}\n",
		"\n# fill in: the arguments (the log kept none); delete <FILL> if the call takes none\nsend_message <FILL>\n  expect status ok\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the script lacks %q:\n%s", want, s)
		}
	}
	// The script reads back: the calls in order, their expectations, and an
	// error for each placeholder, by line.
	lines, errs := parseScript("s.mcpsh", strings.NewReader(s))
	var tools []string
	for _, l := range lines {
		st := "-"
		for _, e := range l.Expects {
			st = string(e.Status)
		}
		tools = append(tools, l.Tool+" "+st)
	}
	want := []string{"list_notes ok", "add_note ok", "delete_note ok", "get_note tool_error", "pop_note refused",
		"flaky_sync failed", "slow_count -", "expect ok", "login ok", "send_message ok"}
	if diff := cmp.Diff(want, tools); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if len(errs) != 3 {
		t.Errorf("errors: %v", errs)
	}
	for _, e := range errs {
		l := e.(*scriptError).line
		if !strings.Contains(strings.Split(s, "\n")[l-1], fillMark) {
			t.Errorf("%v names a line without %s", e, fillMark)
		}
	}
}

// Names and text a server chose cannot add a line, a comment or a control to
// the script.
func TestAsScriptHostile(t *testing.T) {
	t.Parallel()
	evil := "\x1b]0;pwned\x07\x1b[2J\u009b31m\u202e"
	s := asScript(t, "s\nrm -rf /"+evil,
		entry("list_notes\nadd_note title=injected", client.StatusOK, `{}`),
		entry("# not a comment", client.StatusOK, `{}`),
		entry("it's a name", client.StatusOK, `{}`),
		entry("say"+evil, client.StatusOK, `{}`),
		entry("line\u2028sep", client.StatusOK, `{}`),
		entry("cr\rname", client.StatusOK, `{}`),
		entry("say", client.StatusOK, `{"text":"a\nb\u2028c`+"\\u001b[31m\\u009b\\u202e"+`\u0085d","k\ney":"v"}`),
		entry("bad_status", client.Status("ok\nadd_note title=x"), `{}`),
	)
	s2 := func() sessionlog.Entry {
		e := entry("pop_note", client.StatusRefused, `{}`)
		e.Reason = "no\n  expect status ok\nadd_note title=x" + evil
		e.Server = "other\nadd_note title=y"
		return e
	}()
	s += asScript(t, "x", entry("list_notes", client.StatusOK, `{}`), s2)
	if bad := terminalControl(s); bad != "" {
		t.Errorf("the script carries a control near %q", bad)
	}
	if strings.ContainsAny(s, "\r\u2028\u2029\u0085") {
		t.Errorf("the script holds a line break other than \\n:\n%q", s)
	}
	lines, errs := parseScript("s.mcpsh", strings.NewReader(s))
	if len(errs) > 0 {
		t.Errorf("errors: %v", errs)
	}
	var tools []string
	for _, l := range lines {
		tools = append(tools, l.Tool)
		if l.Tool == "add_note" || len(l.Expects) > 1 {
			t.Errorf("an injected line: %+v", l)
		}
	}
	want := []string{"# not a comment", "it's a name", "say", "bad_status", "list_notes", "pop_note"}
	if diff := cmp.Diff(want, tools); diff != "" {
		t.Errorf("calls (-want +got):\n%s\n%s", diff, s)
	}
	for _, w := range []string{
		`# left out: a call to "list_notes\nadd_note title=injected", a name no script line can hold`,
		`# left out: a call to "say\x1b]0;pwned\a\x1b[2J\u009b31m\u202e"`,
		`# left out: a call to "line\u2028sep"`,
		`# left out: a call to "cr\rname"`,
		"# Left out: 4 calls whose name no script line can hold",
		`say {"k\ney":"v","text":"a\nb\u2028c\u001b[31m\u009b\u202e\u0085d"}`,
		`# the log's status "ok\nadd_note title=x" is not one mcpsh knows`,
		"# server: other add_note title=y",
	} {
		if !strings.Contains(s, w) {
			t.Errorf("the script lacks %q", w)
		}
	}
	// The arguments read back exactly as logged.
	for _, l := range lines {
		if l.Tool == "say" {
			var got map[string]any
			json.Unmarshal([]byte(l.Argv[0]), &got)
			want := map[string]any{"text": "a\nb\u2028c\x1b[31m\u009b\u202e\u0085d", "k\ney": "v"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("arguments (-want +got):\n%s", diff)
			}
		}
	}
}

// A tool whose name only measures differently on a terminal (an Indic
// cluster, an emoji with a skin tone, a soft hyphen) is written as it is,
// and reads back as the same tool: the script calls what the log recorded.
func TestAsScriptKeepsNamesThatOnlyMeasureDifferently(t *testing.T) {
	t.Parallel()
	names := []string{"नमस्ते", "vote_👍🏽", "wipe\u00addisk", "日本語_tool"}
	var es []sessionlog.Entry
	for _, n := range names {
		es = append(es, entry(n, client.StatusOK, `{"a":1}`))
	}
	s := asScript(t, "s", es...)
	if strings.Contains(s, "left out") || strings.Contains(s, "Left out") {
		t.Errorf("a name was left out:\n%s", s)
	}
	lines, errs := parseScript("s.mcpsh", strings.NewReader(s))
	if len(errs) > 0 {
		t.Errorf("errors: %v", errs)
	}
	var tools []string
	for _, l := range lines {
		tools = append(tools, l.Tool)
	}
	if diff := cmp.Diff(names, tools); diff != "" {
		t.Errorf("calls (-want +got):\n%s\n%s", diff, s)
	}
}

// FuzzAsScript: whatever a log holds, the script has one call per entry whose
// name can be written, with that name and the arguments as logged, and
// nothing a terminal acts on.
func FuzzAsScript(f *testing.F) {
	f.Add("add_note", "Buy milk", "ok", "reason")
	f.Add("expect", "a\nb", "refused", "no\nexpect status ok")
	f.Add("a'b c", "[redacted]", "tool_error", "")
	f.Add("#x", "\x1b[31m", "cancelled", "\u2028")
	f.Add("x\ny", "\u202e", "failed\n", "\x00")
	f.Fuzz(func(t *testing.T, tool, value, status, reason string) {
		args, _ := json.Marshal(map[string]any{"v": value, "tool": tool})
		e := entry(tool, client.Status(status), string(args))
		e.Reason, e.Error, e.Server = reason, reason, reason
		s := asScript(t, reason, e, entry("list_notes", client.StatusOK, `{}`))
		if bad := terminalControl(s); bad != "" {
			t.Fatalf("a control near %q", bad)
		}
		lines, errs := parseScript("f", strings.NewReader(s))
		_, writable := scriptName(tool)
		wantCalls := 1
		if writable {
			wantCalls = 2
		}
		if len(lines) != wantCalls || lines[len(lines)-1].Tool != "list_notes" {
			t.Fatalf("calls %+v from\n%s", lines, s)
		}
		marked := strings.Contains(string(args), sessionlog.Redacted) || strings.Contains(string(args), fillMark)
		if len(errs) > 0 && !marked {
			t.Fatalf("errors %v from\n%s", errs, s)
		}
		if !writable {
			return
		}
		l := lines[0]
		if l.Tool != tool {
			t.Fatalf("tool %q reads back as %q", tool, l.Tool)
		}
		if !marked {
			var got map[string]any
			if err := json.Unmarshal([]byte(l.Argv[0]), &got); err != nil {
				t.Fatal(err)
			}
			var want map[string]any
			json.Unmarshal(args, &want)
			if !cmp.Equal(want, got) {
				t.Fatalf("arguments %v read back as %v", want, got)
			}
		}
		if st, ok := expectedStatus(client.Status(status)); ok && (len(l.Expects) != 1 || string(l.Expects[0].Status) != st) {
			t.Fatalf("status %q: expectations %+v", status, l.Expects)
		}
	})
}

// The round trip in process: a session's log, as a script, passes against the
// same server, and refuses to run while a redacted value is unfilled.
func TestAsScriptRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	logPath := filepath.Join(dir, "session.jsonl")
	script := "list_notes\nadd_note title=\"Buy milk\" tags=home content='key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123'\n" +
		"get_note id=999\npop_note\nsearch_notes query=milk\ndelete_note id=2\n"
	r, _ := run(t, env{stdin: script}, "run", "--demo", "--log", logPath)
	wantCode(t, r, ExitRefused)
	entries, _, err := sessionlog.ReadFile(logPath)
	if err != nil || len(entries) != 6 {
		t.Fatalf("%d entries, %v", len(entries), err)
	}
	replay := filepath.Join(dir, "replay.mcpsh")
	os.WriteFile(replay, []byte(asScript(t, "session", entries...)), 0o600)
	r, srv := run(t, env{}, "run", "--demo", replay)
	wantCode(t, r, ExitUsage)
	contains(t, "stderr", r.errOut, `replay.mcpsh:`, `argument "content" is still <FILL>`, "1 error in the script; nothing was sent")
	if srv.Executions("list_notes") != 0 {
		t.Fatal("an unfilled script sent a call")
	}
	b, _ := os.ReadFile(replay)
	os.WriteFile(replay, []byte(strings.ReplaceAll(string(b), fillMark, "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123")), 0o600)
	r, srv = run(t, env{}, "run", "--demo", replay)
	wantCode(t, r, ExitOK)
	// Six statuses and, from the default --log-results (digest), a digest for
	// each of the four results, the one that quotes a redacted key too.
	contains(t, "stderr", r.errOut, "6 calls: 3 ok, 1 tool error, 2 refused; 10 expectations met")
	if srv.Executions("add_note") != 1 || srv.Executions("pop_note") != 0 {
		t.Error("the replay did not make the same calls")
	}
	// Today's policy decides: with --yes the refusals run, and the script
	// says they no longer end as they did, nor does the search after the
	// note popped.
	r, srv = run(t, env{}, "run", "--demo", "--yes", replay)
	wantCode(t, r, ExitFailure)
	contains(t, "stderr", r.errOut, "expected status refused, got ok", "expected digest sha256:", "3 of 10 expectations failed")
	if srv.Executions("delete_note") != 1 {
		t.Error("--yes did not approve the destructive call")
	}
}
