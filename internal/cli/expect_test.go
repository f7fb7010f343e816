package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/testing/fixture"
)

func TestParseExpectations(t *testing.T) {
	t.Parallel()
	script := `get_note id=1
  expect status ok
  expect text "Buy \"milk\"\n"
	expect json .note.tags[0] == "home"
  expect json . == {"a": [1, 2.5e3, null, true]}
  expect json .["a key"][12].x_1 == -0.5
'expect' x=1
  expect status tool_error
`
	lines, errs := parseScript("s.mcpsh", strings.NewReader(script))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if len(lines) != 2 || lines[1].Tool != "expect" || lines[1].N != 7 {
		t.Fatalf("calls %+v", lines)
	}
	var got []string
	for _, e := range lines[0].Expects {
		got = append(got, sprintf("%d %s", e.Line, e))
	}
	want := []string{
		"2 status ok",
		`3 text "Buy \"milk\"\n"`,
		`4 json .note.tags[0] == "home"`,
		`5 json . == {"a":[1,2.5e3,null,true]}`,
		`6 json .["a key"][12].x_1 == -0.5`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("expectations (-want +got):\n%s", diff)
	}
	if e := lines[1].Expects; len(e) != 1 || e[0].Status != client.StatusToolError {
		t.Errorf("the expectation of the tool named expect: %+v", e)
	}
}

func TestParseExpectationMistakes(t *testing.T) {
	t.Parallel()
	tests := []struct{ line, want string }{
		{"expect", "want status, text, json or digest after expect"},
		{"expect stauts ok", `expect: "stauts": want status, text, json or digest`},
		{"expect status fine", `status "fine": want ok, tool_error, refused or failed`},
		{"expect status cancelled", "status cancelled cannot be expected"},
		{"expect text Buy milk", "want the text as a JSON string in double quotes"},
		{`expect text "Buy`, "is not whole JSON"},
		{`expect text "a" "b"`, `has more after its end: "\"b\""`},
		{"expect json", "json: want a path, == and a JSON value"},
		{"expect json note == 1", `path "note == 1": a path starts with "."`},
		{"expect json .note", "json: want a path, == and a JSON value"},
		{"expect json .note =", "json: want a path, == and a JSON value"},
		{"expect json .note ==", "no value after =="},
		{"expect json .note == home", "the value is not JSON"},
		{"expect json .note == 1 2", "has more after its end"},
		{"expect json .a..b == 1", `at "..b == 1": after "." comes a key`},
		{"expect json .a[x] == 1", `want ["key"] or [N]`},
		{"expect json .a[-1] == 1", `want ["key"] or [N]`},
		{"expect json .a[1 == 1", `want "]"`},
		{`expect json .["a == 1`, `the key's " is not closed`},
		{`expect json .["\q"] == 1`, "the key is not a JSON string"},
		{"expect json .a[99999999999999999999] == 1", "the index is too large"},
		{"expect json .0 == 1", `after "." comes a key`},
	}
	for _, tt := range tests {
		_, errs := parseScript("s.mcpsh", strings.NewReader("list_notes\n"+tt.line+"\n"))
		if len(errs) != 1 {
			t.Errorf("%q: %d errors %v, want 1", tt.line, len(errs), errs)
			continue
		}
		if msg := errs[0].Error(); !strings.HasPrefix(msg, "s.mcpsh:2: ") || !strings.Contains(msg, tt.want) {
			t.Errorf("%q: error %q, want s.mcpsh:2: ... %q", tt.line, msg, tt.want)
		}
	}
}

func TestParseExpectationPlacement(t *testing.T) {
	t.Parallel()
	script := "# a comment first\nexpect status ok\nlist_notes\n  expect status ok\n\n  # comments between are fine\n  expect status refused\nget_note 'id=1\n  expect status ok\n  expect nonsense\n"
	lines, errs := parseScript("s.mcpsh", strings.NewReader(script))
	var msgs []string
	for _, e := range errs {
		msgs = append(msgs, e.Error())
	}
	want := []string{
		"s.mcpsh:2: expect before any call: an expectation follows the call it checks (a tool named expect is called as 'expect')",
		"s.mcpsh:7: expect: the call on line 3 already expects status ok (line 4)",
		"s.mcpsh:8: unterminated ' quote",
		`s.mcpsh:10: expect: "nonsense": want status, text, json or digest (a tool named expect is called as 'expect')`,
	}
	if diff := cmp.Diff(want, msgs); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
	// The expectation after a broken call must not land on the call before it.
	if len(lines) != 1 || len(lines[0].Expects) != 1 {
		t.Errorf("calls %+v", lines)
	}
}

func TestPathRoundTrip(t *testing.T) {
	t.Parallel()
	for _, p := range []string{".", ".a", ".a.b_2[0][3]", `.["a b"].c`, `.[0]`, `.["é\"]\\"]`, `.["\u001b[31m"]`, `.a["0"]`} {
		path, end, err := parsePath(p)
		if err != nil || end != len(p) {
			t.Errorf("%s: %v, ended at %d", p, err, end)
			continue
		}
		if path.String() != p {
			t.Errorf("%s reads back as %s", p, path.String())
		}
	}
}

func outcomeWith(status client.Status, content, structured string) *client.Outcome {
	o := &client.Outcome{Status: status, Reason: "a reason", Error: "an error"}
	if status == client.StatusOK || status == client.StatusToolError {
		o.Result = &client.Result{Structured: json.RawMessage(structured)}
		if content != "" {
			o.Result.Content = []client.Block{{Type: "text", Text: content}, {Type: "image", MIMEType: "image/png"}, {Type: "text", Text: "second block"}}
		}
	}
	return o
}

func mustExpect(t *testing.T, line string) expectation {
	t.Helper()
	e, err := parseExpect(line)
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	e.Line = 9
	return e
}

func TestCheckExpectations(t *testing.T) {
	t.Parallel()
	sc := `{"note":{"id":1,"tags":["home","work"],"title":"Buy milk","n":1.0,"big":12345678901234567890},"a key":{"x":null}}`
	ok := outcomeWith(client.StatusOK, "Note #1: Buy milk", sc)
	tests := []struct {
		expect string
		o      *client.Outcome
		pass   bool
		fail   string // the failure line, when it fails
	}{
		{"status ok", ok, true, ""},
		{"status tool_error", ok, false, "expected status tool_error, got ok"},
		{"status ok", outcomeWith(client.StatusRefused, "", ""), false, "expected status ok, got refused (a reason)"},
		{"status ok", outcomeWith(client.StatusFailed, "", ""), false, "expected status ok, got failed (an error)"},
		{"status refused", outcomeWith(client.StatusRefused, "", ""), true, ""},
		{`text "Buy milk"`, ok, true, ""},
		{`text "second block"`, ok, true, ""},
		{`text "buy milk"`, ok, false, `expected text "buy milk", got "Note #1: Buy milk\nsecond block"`},
		{`text "x"`, outcomeWith(client.StatusRefused, "", ""), false, `expected text "x", got nothing: the call has no result: it ended refused`},
		{`json .note.tags[0] == "home"`, ok, true, ""},
		{`json .note.tags == ["home", "work"]`, ok, true, ""},
		{`json .note.n == 1`, ok, true, ""},
		{`json .note.id == 1.0`, ok, true, ""},
		{`json .note.big == 12345678901234567890`, ok, true, ""},
		{`json .["a key"].x == null`, ok, true, ""},
		{`json .note == {"title":"Buy milk","id":1,"n":1,"tags":["home","work"],"big":12345678901234567890}`, ok, true, ""},
		{`json .note.tags[1] == "home"`, ok, false, `expected json .note.tags[1] == "home", got "work"`},
		{`json .note.id == "1"`, ok, false, `expected json .note.id == "1", got 1`},
		{`json .note.tags[2] == "x"`, ok, false, `got nothing: .note.tags has 2 items, no [2]`},
		{`json .nope == 1`, ok, false, `got nothing: . has no key "nope"`},
		{`json .note.title.x == 1`, ok, false, `got nothing: .note.title is a string, not an object`},
		{`json .note[0] == 1`, ok, false, `got nothing: .note is an object, not an array`},
		{`json .["a key"].x == false`, ok, false, `got null`},
		{`json .a == 1`, outcomeWith(client.StatusOK, "text only", ""), false, "got nothing: the result has no structuredContent"},
		{`json .a == 1`, outcomeWith(client.StatusFailed, "", ""), false, "got nothing: the call has no result: it ended failed"},
	}
	for _, tt := range tests {
		e := mustExpect(t, tt.expect)
		r := e.check(tt.o)
		if r.OK != tt.pass || r.Line != 9 {
			t.Errorf("%s: ok %v line %d, want %v", tt.expect, r.OK, r.Line, tt.pass)
			continue
		}
		if !tt.pass {
			if msg := e.failure(r, tt.o); !strings.Contains(msg, tt.fail) {
				t.Errorf("%s: failure %q, want %q", tt.expect, msg, tt.fail)
			}
		}
	}
}

// A server's text in a failed expectation reaches the terminal only as
// escapes, and the record keeps it whole.
func TestExpectationFailureIsSafe(t *testing.T) {
	t.Parallel()
	evil := "x\x1b]0;pwned\x07\x1b[2J\u009b31m\u202eline\nnext"
	o := outcomeWith(client.StatusOK, evil, `{"s":"`+fixture.Evil+`"}`)
	for _, line := range []string{`text "nope"`, `json .s == "nope"`, `json . == 1`} {
		e := mustExpect(t, line)
		r := e.check(o)
		msg := e.failure(r, o)
		if r.OK || terminalControl(msg) != "" || strings.Contains(msg, "\n") {
			t.Errorf("%s: %q", line, msg)
		}
	}
	o.Status, o.Result, o.Reason = client.StatusRefused, nil, "refused "+evil
	e := mustExpect(t, "status ok")
	if msg := e.failure(e.check(o), o); terminalControl(msg) != "" || strings.Contains(msg, "\n") {
		t.Errorf("status: %q", msg)
	}
	// The record's got is the text as sent (cut), for --json to escape.
	o = outcomeWith(client.StatusOK, strings.Repeat("é", maxGotText), "")
	r := mustExpect(t, `text "zzz"`).check(o)
	if s := r.Got.(string); len(s) > maxGotText+len("…") || !strings.HasSuffix(s, "…") || !strings.HasPrefix(s, "éé") {
		t.Errorf("got cut to %d bytes: %q", len(s), s[len(s)-10:])
	}
}
