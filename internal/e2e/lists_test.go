package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
)

// A server that pages without end, a megabyte a page: the listing stops at
// mcpsh's budget with an error naming the server and the list. No tool of
// a tool listing cut short is shown (calls are decided on it); the
// resources listed before the stop are, and the exit status says it failed.
func TestHostileEndlessListingsStopWithAClearError(t *testing.T) {
	t.Parallel()
	// Each listing spends the whole 64 MiB: they run side by side. Reading
	// 64 MiB can outlast the default --connect-timeout (which bounds the
	// tool listing) on a busy machine, so the listings get minutes.
	t.Run("tools", func(t *testing.T) {
		t.Parallel()
		state := t.TempDir()
		r := mcpsh(t, opts{}, append([]string{"tools", noLog, "--json", "--connect-timeout", "5m"}, fixtureCmd("endless-tools", state)...)...)
		wantCode(t, r, 1)
		contains(t, "stderr", r.errOut, "listing tools of "+fixtureBin+" stopped at mcpsh's limit of 64 MiB for one listing", "none of this listing is used")
		if r.out != "" {
			t.Errorf("a tool listing cut short was shown:\n%.300s", r.out)
		}
		if n := len(fixture.Lines(state, "tool-pages")); n < 60 || n > 70 {
			t.Errorf("the server served %d pages of a megabyte for a 64 MiB budget", n)
		}
	})
	t.Run("resources", func(t *testing.T) {
		t.Parallel()
		r := mcpsh(t, opts{}, append([]string{"resources", "--json", "--connect-timeout", "5m"}, fixtureCmd("endless-lists", t.TempDir())...)...)
		wantCode(t, r, 1)
		contains(t, "stderr", r.errOut, "listing resources of "+fixtureBin+" stopped at mcpsh's limit of 64 MiB for one listing")
		var j struct {
			Resources []struct {
				URI string `json:"uri"`
			} `json:"resources"`
			Templates []json.RawMessage `json:"templates"`
		}
		if err := json.Unmarshal([]byte(r.out), &j); err != nil || len(j.Resources) < 1000 || len(j.Templates) != 1 {
			t.Errorf("the resources listed before the stop: %d, templates %d (%v)", len(j.Resources), len(j.Templates), err)
		}
	})
}

// A prompt with a content block of a type no spec has is printed, with a
// placeholder for that block.
func TestHostilePromptWithAnUnknownBlockIsPrinted(t *testing.T) {
	t.Parallel()
	r := mcpsh(t, opts{}, append([]string{"prompt", noLog, "greet", "who=Ada"}, fixtureCmd("odd-shapes", t.TempDir())...)...)
	wantCode(t, r, 0)
	contains(t, "stdout", r.out, "hello", `[content of type "hologram" that mcpsh does not know`, "[image image/png, 3 B]")
}

// --elicit @FILE answers a form in every format: a value that breaks its
// field's format is declined, saying which field and format; valid ones
// are sent.
func TestElicitAnswersFromAFileAreHeldToTheirFormats(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	state := t.TempDir()
	answers := filepath.Join(dir, "answers.json")
	for _, c := range []struct{ answers, sent, stderr string }{
		{`{"email":"bad-email"}`, "decline", `argument "email": "bad-email" is not an email address`},
		{`{"email":"ada@example.com","day":"yesterday"}`, "decline", `argument "day": "yesterday" is not a date as YYYY-MM-DD`},
		{`{"email":"ada@example.com","day":"2026-07-28","at":"2026-07-28T09:30:00Z","site":"https://example.com"}`, "accept", "accepted with the answers file"},
	} {
		if err := os.WriteFile(answers, []byte(c.answers), 0o600); err != nil {
			t.Fatal(err)
		}
		r := mcpsh(t, opts{}, append([]string{"call", noLog, "ask_contact", "--elicit", "@" + answers}, fixtureCmd("elicit-formats", state)...)...)
		wantCode(t, r, 0)
		contains(t, "stderr", r.errOut, c.stderr)
		got := fixture.Lines(state, "answers")
		if len(got) == 0 || !strings.HasPrefix(strings.Join(got, " "), c.sent) {
			t.Errorf("%s: the server got %q, want %s", c.answers, got, c.sent)
		}
		os.Remove(filepath.Join(state, "answers"))
	}
}
