package client

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/policy"
)

// The four formats a form may ask for are held to, in the one check every
// answer goes through; tool arguments are not (a format there annotates).
func TestFormAnswersAreHeldToTheirFormats(t *testing.T) {
	t.Parallel()
	schema := json.RawMessage(`{"type":"object","properties":{
		"email":{"type":"string","format":"email"},"day":{"type":"string","format":"date"},
		"at":{"type":"string","format":"date-time"},"site":{"type":"string","format":"uri"},
		"mails":{"type":"array","items":{"type":"string","format":"email"}},
		"host":{"type":"string","format":"hostname"},"any":{"type":["string","integer"],"format":"date"}}}`)
	r := &ElicitRequest{Mode: "form", Schema: schema}
	for _, tt := range []struct {
		field string
		value any
		ok    bool
	}{
		{"email", "ada@example.com", true},
		{"email", "ada.lovelace+mcp@sub.example.org", true},
		{"email", "bad-email", false},
		{"email", "Ada <ada@example.com>", false},
		{"email", "ada@", false},
		{"email", "", false},
		{"day", "2026-07-28", true},
		{"day", "2024-02-29", true},
		{"day", "yesterday", false},
		{"day", "2026-02-30", false},
		{"day", "2026-7-28", false},
		{"day", "2026-07-28T00:00:00Z", false},
		{"at", "2026-07-28T09:30:00Z", true},
		{"at", "2026-07-28T09:30:00.25+02:00", true},
		{"at", "2026-07-28t09:30:00z", true},
		{"at", "2026-07-28 09:30:00", false},
		{"at", "2026-07-28T09:30:00", false},
		{"at", "tomorrow at noon", false},
		{"site", "https://example.com/page?q=1", true},
		{"site", "mailto:ada@example.com", true},
		{"site", "urn:isbn:0451450523", true},
		{"site", "example.com/page", false},
		{"site", "https://exa mple.com", false},
		{"site", "yesterday", false},
		{"mails", []any{"ada@example.com", "bob@example.com"}, true},
		{"mails", []any{"ada@example.com", "nobody"}, false},
		{"host", "not a hostname", true}, // not one of the spec's four: not asserted
		{"any", 7.0, true},               // not a string: the format says nothing of it
	} {
		err := r.Validate(map[string]any{tt.field: tt.value})
		if tt.ok != (err == nil) {
			t.Errorf("%s = %v: %v, want ok %v", tt.field, tt.value, err, tt.ok)
			continue
		}
		var ae *ArgError
		if err != nil && (!errors.As(err, &ae) || !strings.HasPrefix(ae.Arg, tt.field) || !strings.Contains(ae.Rule, "(format ")) {
			t.Errorf("%s = %v: %v names neither the field nor the format", tt.field, tt.value, err)
		}
	}
	err := r.Validate(map[string]any{"email": "bad-email"})
	if want := `argument "email": "bad-email" is not an email address, such as name@example.com (format "email")`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("message %v, want it to contain %s", err, want)
	}
	// A tool's arguments are the server's to judge against its formats.
	tool := &Tool{Name: "t", InputSchema: schema}
	if err := tool.Validate(map[string]any{"email": "bad-email", "day": "yesterday"}); err != nil {
		t.Errorf("a tool's format was asserted: %v", err)
	}
}

// A server's form in every format: an answer that breaks a format is
// declined, not sent, whoever gave it (a person in the TUI and a file in
// batch both answer through Options.Elicit, and the session checks the
// answer before it goes back).
func TestFormAnswerOutsideItsFormatIsDeclined(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		content map[string]any
		want    string
	}{
		{map[string]any{"email": "bad-email"}, "decline "},
		{map[string]any{"email": "ada@example.com", "day": "yesterday"}, "decline "},
		{map[string]any{"email": "ada@example.com", "at": "now"}, "decline "},
		{map[string]any{"email": "ada@example.com", "site": "home page"}, "decline "},
		{map[string]any{"email": "ada@example.com", "day": "2026-07-28", "at": "2026-07-28T09:30:00Z", "site": "https://example.com"},
			`accept {"at":"2026-07-28T09:30:00Z","day":"2026-07-28","email":"ada@example.com","site":"https://example.com"}`},
	} {
		target, state := fixtureTarget(t, "elicit-formats")
		var warnings []string
		s := connectFixture(t, target, &Options{
			Elicit: func(context.Context, *ElicitRequest) (*ElicitResponse, error) {
				return &ElicitResponse{Action: ElicitAccept, Content: tt.content}, nil
			},
			OnWarning: func(w string) { warnings = append(warnings, w) },
		})
		o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "ask_contact"), Mode: policy.Batch})
		if o.Status != StatusOK {
			t.Fatalf("%v: %s %s", tt.content, o.Status, o.Error)
		}
		if got := fixture.Lines(state, "answers"); strings.Join(got, " ") != strings.TrimSpace(tt.want) {
			t.Errorf("%v: the server got %q, want %q", tt.content, got, tt.want)
		}
		if strings.HasPrefix(tt.want, "decline") && !strings.Contains(strings.Join(warnings, "\n"), "(format ") {
			t.Errorf("%v: warnings %q do not say which format", tt.content, warnings)
		}
	}
}
