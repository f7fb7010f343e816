package e2e

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
)

// Servers of protocol 2026-07-28 that answer in rounds (SEP-2322), against
// the built binary: internal/testing/fixture's "rounds" scenarios. Each test here
// failed on mcpsh before the defence it names (the issue note says how).

// logEntries reads a session log's entries by tool.
func logEntries(t *testing.T, path string) map[string]map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]map[string]any{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var e map[string]any
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("session log line %q: %v", sc.Text(), err)
		}
		out[e["tool"].(string)] = e
	}
	return out
}

// Item 5: flip's first round re-declares it destructive and asks for roots
// (quiet_flip's too, without a notice). Under --read-only, and inside audit
// --probe, round 2 must not reach the server, and the log says which round
// was not sent and why.
func TestRoundNotSentUnderReadOnlyOrInTheProbe(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	log := filepath.Join(t.TempDir(), "log.jsonl")
	r := mcpsh(t, opts{}, append([]string{"call", "--read-only", "--log", log, "flip"}, fixtureCmd("rounds-flip", state)...)...)
	if got := fixture.Lines(state, "rounds"); !slices.Equal(got, []string{"flip", "1"}) {
		t.Fatalf("rounds that reached the server: %q; round 2 went out under --read-only\nstderr:\n%s", got, r.errOut)
	}
	wantCode(t, r, 1)
	contains(t, "stderr", r.errOut, "round 2 not sent", "only read-only calls are allowed", "readOnlyHint true → false", "round 1 had reached the server")
	e := logEntries(t, log)["flip"]
	if e["status"] != "failed" || e["roundNotSent"] != 2.0 || e["rounds"] != 1.0 || e["class"] != "destructive" || e["hintsChanged"] == nil {
		t.Errorf("session log entry: %v", e)
	}

	state = t.TempDir()
	log = filepath.Join(t.TempDir(), "log.jsonl")
	r = mcpsh(t, opts{}, append([]string{"audit", "--probe", "--json", "--log", log}, fixtureCmd("rounds-flip", state)...)...)
	for _, tool := range []string{"flip", "quiet_flip"} {
		if fixture.CountIn(state, "rounds", tool+" 1") != 1 || fixture.CountIn(state, "rounds", tool+" 2") != 0 {
			t.Fatalf("rounds that reached the server: %q; the probe sent round 2 of %s, now destructive\nstderr:\n%s", fixture.Lines(state, "rounds"), tool, r.errOut)
		}
		if e := logEntries(t, log)[tool]; e["status"] != "failed" || e["roundNotSent"] != 2.0 {
			t.Errorf("session log entry: %v", e)
		}
	}
}

// Item 8: --elicit @FILE answers a round's requests one per request, in the
// order the server listed them.
func TestElicitFileAnswersInTheOrderAsked(t *testing.T) {
	t.Parallel()
	answers := filepath.Join(t.TempDir(), "answers.json")
	if err := os.WriteFile(answers, []byte(`[{"answer":"a1"},{"answer":"a2"},{"answer":"a3"},{"answer":"a4"},{"answer":"a5"},{"answer":"a6"}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	r := mcpsh(t, opts{}, append([]string{"call", noLog, "ask_two", "--elicit", "@" + answers}, fixtureCmd("rounds", state)...)...)
	wantCode(t, r, 0)
	var want []string
	for i, k := range []string{"zulu", "alpha", "mike", "bravo", "yankee", "charlie"} {
		want = append(want, "ask_two", k+"=accept:a"+string(rune('1'+i)))
	}
	if got := fixture.Lines(state, "answers"); !slices.Equal(got, want) {
		t.Errorf("answers at the server:\n got %q\nwant %q", got, want)
	}
}

// Items 13, 18 and 19: a server that asks for input for ever, asks for what
// no client knows, or refuses a capability mcpsh did not declare is answered
// once, with no restart and no retry, though every tool is read-only.
func TestRoundsThatCannotFinishFailOnce(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	r := mcpsh(t, opts{}, append([]string{"call", noLog, "forever", "--elicit", "defaults"}, fixtureCmd("rounds", state)...)...)
	wantCode(t, r, 1)
	contains(t, "stderr", r.errOut, "still asked for more input after 10 rounds")
	if n := fixture.CountIn(state, "executions", "forever"); n != 10 {
		t.Errorf("forever reached the server %d times, want 10", n)
	}

	who := filepath.Join(t.TempDir(), "who.json")
	if err := os.WriteFile(who, []byte(`{"answer":"Ada"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	state = t.TempDir()
	r = mcpsh(t, opts{}, append([]string{"call", noLog, "stranger", "--elicit", "@" + who}, fixtureCmd("rounds", state)...)...)
	wantCode(t, r, 0)
	contains(t, "stdout", r.out, "who=accept:Ada beamed=false")
	contains(t, "stderr", r.errOut, "(x/teleport) is a request mcpsh does not know; declined")

	for tool, want := range map[string]string{
		"bad_shape":  "inputRequests is an array, not an object",
		"needs_caps": "missing client capability (-32021)",
	} {
		state = t.TempDir()
		r = mcpsh(t, opts{}, append([]string{"call", noLog, tool}, fixtureCmd("rounds", state)...)...)
		wantCode(t, r, 1)
		contains(t, "stderr", r.errOut, want)
		if n := fixture.CountIn(state, "executions", tool); n != 1 {
			t.Errorf("%s reached the server %d times, want 1\nstderr:\n%s", tool, n, r.errOut)
		}
	}
}
