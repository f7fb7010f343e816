package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCallPrintsTheResult(t *testing.T) {
	t.Parallel()
	r, srv := run(t, env{}, "call", "--demo", "get_note", "id=2")
	wantCode(t, r, ExitOK)
	contains(t, "stdout", r.out, "Shopping list")
	if srv.Executions("get_note") != 1 {
		t.Errorf("executions %d", srv.Executions("get_note"))
	}
}

func TestDestructiveCallIsRefusedUnlessYes(t *testing.T) {
	t.Parallel()
	// Piped, or on a terminal with --no-prompt: nobody is asked, and the call
	// is refused.
	for _, c := range []struct {
		tty   bool
		extra []string
	}{{false, nil}, {true, []string{"--no-prompt"}}} {
		r, srv := run(t, env{tty: c.tty}, append([]string{"call", "--demo", "delete_note", "id=1"}, c.extra...)...)
		wantCode(t, r, ExitRefused)
		contains(t, "stderr", r.errOut, "refused delete_note", "--yes")
		if strings.Contains(r.errOut, "[y/N]") {
			t.Errorf("tty=%v: asked although it may not:\n%s", c.tty, r.errOut)
		}
		if srv.Executions("delete_note") != 0 {
			t.Fatalf("tty=%v: a refused call reached the server", c.tty)
		}
		if r.out != "" {
			t.Errorf("stdout %q, want nothing", r.out)
		}
	}
	r, srv := run(t, env{}, "call", "--demo", "delete_note", "id=1", "--yes")
	wantCode(t, r, ExitOK)
	if srv.Executions("delete_note") != 1 {
		t.Fatal("--yes did not run the call")
	}
}

func TestReadOnlyModeRefusesWriters(t *testing.T) {
	t.Parallel()
	r, srv := run(t, env{}, "call", "--demo", "add_note", "title=x", "--read-only")
	wantCode(t, r, ExitRefused)
	contains(t, "stderr", r.errOut, `only read-only calls are allowed, and "add_note" is a write tool (declared non-destructive) (--read-only)`)
	if srv.Executions("add_note") != 0 {
		t.Fatal("sent under --read-only")
	}
	r, _ = run(t, env{}, "call", "--demo", "list_notes", "--read-only")
	wantCode(t, r, ExitOK)
}

func TestUntrustedAsksForEverything(t *testing.T) {
	t.Parallel()
	r, srv := run(t, env{}, "call", "--demo", "--untrusted", "list_notes")
	wantCode(t, r, ExitRefused)
	contains(t, "stderr", r.errOut, "untrusted server")
	if srv.Executions("list_notes") != 0 {
		t.Fatal("sent")
	}
}

func TestCallArgumentErrorsSendNothing(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		msg  string
	}{
		{[]string{"get_note", "id=abc"}, `get_note: argument "id": "abc" is not an integer`},
		{[]string{"add_note"}, `add_note: argument "title": required but missing`},
		{[]string{"add_note", `{"title":`}, "not valid JSON"},
		{[]string{"weather_forecast", "city=Oslo", "units=kelvin"}, `argument "units": enum`},
		{[]string{"weather_forecast", "city=Oslo", "days=9"}, `argument "days": maximum`},
		{[]string{"add_note", "--example", "7"}, "--example 7 is out of range"},
		{[]string{"get_nte"}, "did you mean get_note"},
		{[]string{}, "call needs a TOOL"},
	}
	for _, tt := range tests {
		r, srv := run(t, env{}, append([]string{"call", "--demo"}, tt.args...)...)
		if r.code != ExitUsage || !strings.Contains(r.errOut, tt.msg) {
			t.Errorf("call %q: exit %d, stderr %q; want 2 and %q", tt.args, r.code, r.errOut, tt.msg)
		}
		if srv != nil {
			for _, name := range []string{"get_note", "add_note", "weather_forecast"} {
				if srv.Executions(name) != 0 {
					t.Errorf("call %q reached the server", tt.args)
				}
			}
		}
	}
}

func TestCallWithExample(t *testing.T) {
	t.Parallel()
	r, _ := run(t, env{}, "call", "--demo", "add_note", "--example", "1", "--json")
	wantCode(t, r, ExitOK)
	var o map[string]any
	if err := json.Unmarshal([]byte(r.out), &o); err != nil {
		t.Fatal(err)
	}
	text := o["content"].([]any)[0].(map[string]any)["text"].(string)
	if !strings.Contains(text, "Buy groceries") {
		t.Errorf("example not used: %q", text)
	}
	// Arguments given beside --example replace the example's values.
	r, _ = run(t, env{}, "call", "--demo", "add_note", "--example", "1", "title=Mine")
	contains(t, "stdout", r.out, "Mine")
}

func TestCallJSONIsOneObject(t *testing.T) {
	t.Parallel()
	r, _ := run(t, env{}, "call", "--demo", "search_notes", "query=list", "--json")
	wantCode(t, r, ExitOK)
	var o map[string]any
	if err := json.Unmarshal([]byte(r.out), &o); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, r.out)
	}
	for _, k := range []string{"tool", "title", "class", "flags", "decision", "reason", "attempts", "status", "durationMs", "content", "structuredContent", "isError"} {
		if _, ok := o[k]; !ok {
			t.Errorf("missing %q", k)
		}
	}
	if o["status"] != "ok" || o["decision"] != "run" {
		t.Errorf("status %v decision %v", o["status"], o["decision"])
	}
	r, _ = run(t, env{}, "call", "--demo", "pop_note", "--json")
	wantCode(t, r, ExitRefused)
	json.Unmarshal([]byte(r.out), &o)
	if o["status"] != "refused" || o["decision"] != "refuse" {
		t.Errorf("refused: %v", o)
	}
}

func TestToolErrorExitsThree(t *testing.T) {
	t.Parallel()
	r, _ := run(t, env{}, "call", "--demo", "get_note", "id=999")
	wantCode(t, r, ExitToolError)
	contains(t, "stderr", r.errOut, "no note with id 999", "returned an error")
	if r.out != "" {
		t.Errorf("stdout %q: a tool error is not data", r.out)
	}
}

func TestEscapeSequencesAreStrippedOnATerminal(t *testing.T) {
	t.Parallel()
	r, _ := run(t, env{tty: true}, "call", "--demo", "echo", "text=\x1b]0;pwned\x07hi \x1b[31mred", "--no-prompt")
	wantCode(t, r, ExitRefused) // echo has no annotations: destructive by default
	r, _ = run(t, env{tty: true}, "call", "--demo", "echo", "text=\x1b]0;pwned\x07hi \x1b[31mred", "--yes")
	wantCode(t, r, ExitOK)
	if strings.Contains(r.out, "\x1b") || !strings.Contains(r.out, "hi red") {
		t.Errorf("terminal output %q", r.out)
	}
	r, _ = run(t, env{}, "call", "--demo", "echo", "text=\x1b[31mred", "--yes")
	if !strings.Contains(r.out, "\x1b[31mred") {
		t.Errorf("piped output must be passed as sent: %q", r.out)
	}
}

// On a terminal, a call that needs confirmation asks [y/N], as gh does: yes
// runs it, anything else (an empty line, the end of input) declines it, and
// a declined call reaches no server.
func TestBatchAsksOnATerminal(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		answer string
		code   int
		runs   int
	}{{"y\n", ExitOK, 1}, {"yes\n", ExitOK, 1}, {"n\n", ExitRefused, 0}, {"\n", ExitRefused, 0}, {"", ExitRefused, 0}} {
		r, srv := run(t, env{tty: true, stdin: c.answer}, "call", "--demo", "delete_note", "id=1")
		wantCode(t, r, c.code)
		contains(t, "stderr", r.errOut, "delete_note", "on demo", "Run it? [y/N]")
		if srv.Executions("delete_note") != c.runs {
			t.Errorf("answer %q: %d executions, want %d", c.answer, srv.Executions("delete_note"), c.runs)
		}
		if c.code == ExitRefused {
			contains(t, "stderr", r.errOut, "declined by the user")
		}
	}
	// A call that needs no confirmation is not asked about.
	r, _ := run(t, env{tty: true}, "call", "--demo", "get_note", "id=1")
	wantCode(t, r, ExitOK)
	if strings.Contains(r.errOut, "[y/N]") {
		t.Errorf("a read-only call asked:\n%s", r.errOut)
	}
}
