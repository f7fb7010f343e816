package sessionlog

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestArgsModes(t *testing.T) {
	args := map[string]any{"token": "t", "q": "x"}
	if got := ArgsFull.Apply(args); !cmp.Equal(got, any(args)) {
		t.Errorf("full: %v", got)
	}
	if got := ArgsNone.Apply(args); got != nil {
		t.Errorf("none: %v", got)
	}
	if _, err := ParseArgsMode("some"); err == nil {
		t.Error("ParseArgsMode(some) succeeded")
	}
}

func TestRedaction(t *testing.T) {
	tests := []struct {
		key  string
		val  any
		want any
	}{
		{"author", "Ada", "Ada"},
		{"auth", "x", Redacted},
		{"GITHUB_TOKEN", "x", Redacted},
		{"clientSecret", "x", Redacted},
		{"password", nil, nil},
		{"max_tokens", 100.0, 100.0},
		{"query", "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123", Redacted},
		{"query", "ghp_" + strings.Repeat("a1", 18), Redacted},
		{"query", "AKIA" + "IOSFODNN7EXAMPLE", Redacted},
		{"header", "Bearer abcdef123456", "Bearer " + Redacted},
		{"note", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig", Redacted},
		{"url", "postgres://app:hunter2@db:5432/x", "postgres://app:" + Redacted + "@db:5432/x"},
		{"pem", "-----BEGIN RSA PRIVATE KEY-----\nMII", Redacted},
		{"list", []any{"ok", "sk-" + strings.Repeat("z9", 15)}, []any{"ok", Redacted}},
		{"text", "just some words about tokens", "just some words about tokens"},
		{"count", 3.0, 3.0},
	}
	for _, tt := range tests {
		got := redactValue(map[string]any{tt.key: tt.val}).(map[string]any)[tt.key]
		if !cmp.Equal(got, tt.want) {
			t.Errorf("%s=%v redacted to %v, want %v", tt.key, tt.val, got, tt.want)
		}
	}
}

// TestRedactionInsideStrings checks that a secret inside a longer value goes and
// the rest of the value stays: the old redaction only replaced values that were
// a token from end to end.
func TestRedactionInsideStrings(t *testing.T) {
	tests := []struct{ key, val, want string }{
		{"cmd", "curl -H 'Authorization: Bearer abcdef123456789' https://x", "curl -H 'Authorization: Bearer [redacted]' https://x"},
		{"note", "my key is sk-proj-abcdefghijklmnop1234 ok", "my key is [redacted] ok"},
		{"dsn", "postgres://u:hunter2@db/x?sslmode=disable", "postgres://u:[redacted]@db/x?sslmode=disable"},
		{"cmd", "mysql --password=hunter2 db", "mysql --password=[redacted] db"},
		{"env", "export SECRET: s3cr3t-value", "export SECRET: [redacted]"},
		{"hook", "https://h/cb?token=abc&page=2", "https://h/cb?token=[redacted]&page=2"},
		{"body", `{"user":"ada","password":"p@ss"}`, `{"user":"ada","password":"[redacted]"}`},
		{"path", "/home/u/notes/task-1234", "/home/u/notes/task-1234"},
	}
	for _, tt := range tests {
		got := redactValue(map[string]any{"nested": []any{map[string]any{tt.key: tt.val}}})
		want := map[string]any{"nested": []any{map[string]any{tt.key: tt.want}}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s=%q (-want +got):\n%s", tt.key, tt.val, diff)
		}
	}
}
