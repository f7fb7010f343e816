package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/sessionlog"
)

func keptResult(mode sessionlog.ResultsMode, content, structured string) *sessionlog.Result {
	return sessionlog.KeepResult(mode, json.RawMessage(content), json.RawMessage(structured))
}

// Each call gets the strongest expectation what the log kept allows.
func TestAsScriptResultExpectations(t *testing.T) {
	t.Parallel()
	text := `[{"type":"text","text":"1 of 1 matches\n#2 Shopping list"}]`
	sc := `{"total":1,"matches":[{"id":2,"title":"Shopping list"}],"created-at":"2026-10-13"}`
	full := keptResult(sessionlog.ResultsFull, text, sc)
	tests := []struct {
		name string
		r    *sessionlog.Result
		want []string
	}{
		{"none", nil, nil},
		{"digest", keptResult(sessionlog.ResultsDigest, text, sc), []string{
			`  # result: 1 of 1 matches #2 Shopping list`,
			`  expect digest ` + full.Digest}},
		{"full", full, []string{
			`  expect json .["created-at"] == "2026-10-13"`,
			`  expect json .matches == [{"id":2,"title":"Shopping list"}]`,
			`  expect json .total == 1`,
			`  expect text "1 of 1 matches\n#2 Shopping list"`}},
		{"full, text only", keptResult(sessionlog.ResultsFull, `[{"type":"text","text":"Added note #4"}]`, ""), []string{
			`  expect text "Added note #4"`}},
		{"full, a redacted value and an image", keptResult(sessionlog.ResultsFull,
			`[{"type":"text","text":"token sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123 issued for ada"},{"type":"image","data":"AAAA","mimeType":"image/png"}]`,
			`{"user":"ada","password":"hunter2"}`), nil}, // filled below
		{"full, only an image", keptResult(sessionlog.ResultsFull, `[{"type":"image","data":"AAAA","mimeType":"image/png"}]`, ""), nil},
	}
	redacted := tests[4].r
	tests[4].want = []string{
		`  expect json .user == "ada"`,
		`  expect text " issued for ada"`,
		`  # the digest covers what the lines above do not (blocks that are not text, values the log redacted)`,
		`  expect digest ` + redacted.Digest}
	tests[5].want = []string{`  expect digest ` + tests[5].r.Digest}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, resultExpects(tt.r)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
	// Over the cap, a full result keeps its digest and says why.
	big := keptResult(sessionlog.ResultsFull, `[{"type":"text","text":"`+strings.Repeat("x", sessionlog.FullCap)+`"}]`, "")
	got := resultExpects(big)
	if len(got) != 3 || !strings.Contains(got[1], "over the log's cap") || got[2] != "  expect digest "+big.Digest {
		t.Errorf("over the cap: %q", got)
	}
	// Every line the script gets parses, and checks the result it came from.
	o := &client.Outcome{Status: client.StatusOK, Content: json.RawMessage(text), StructuredContent: json.RawMessage(sc),
		Result: &client.Result{Content: []client.Block{{Type: "text", Text: "1 of 1 matches\n#2 Shopping list"}}, Structured: json.RawMessage(sc)}}
	for _, r := range []*sessionlog.Result{full, tests[1].r} {
		for _, line := range resultExpects(r) {
			line = strings.TrimSpace(line)
			if strings.HasPrefix(line, "#") {
				continue
			}
			e, err := parseExpect(strings.TrimPrefix(line, "expect "))
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			if res := e.check(o); !res.OK {
				t.Errorf("%s fails on its own result: %+v", line, res)
			}
		}
	}
}

// With results kept in full, a session replays clean, and a changed answer
// fails on the key that changed.
func TestAsScriptFullRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	logPath := filepath.Join(dir, "session.jsonl")
	r, _ := run(t, env{stdin: "search_notes query=milk\nget_note id=1\n"}, "run", "--demo", "--log", logPath, "--log-results", "full")
	wantCode(t, r, ExitOK)
	entries, _, err := sessionlog.ReadFile(logPath)
	if err != nil || len(entries) != 2 {
		t.Fatalf("%d entries, %v", len(entries), err)
	}
	s := asScript(t, "session", entries...)
	contains(t, "script", s, "  expect json .total == 1\n", `  expect text "#1 Welcome to mcpsh`)
	replay := filepath.Join(dir, "replay.mcpsh")
	os.WriteFile(replay, []byte(s), 0o600)
	r, _ = run(t, env{}, "run", "--demo", replay)
	wantCode(t, r, ExitOK)
	os.WriteFile(replay, []byte(strings.Replace(s, "query\":\"milk\"", "query\":\"release\"", 1)), 0o600)
	r, _ = run(t, env{}, "run", "--demo", replay)
	wantCode(t, r, ExitFailure)
	contains(t, "stderr", r.errOut, "replay.mcpsh:", `expected json .matches == [{"id":2`)
}
