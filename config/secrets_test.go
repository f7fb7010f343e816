package config

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/internal/redact"
)

var secretsEnv = envOf(map[string]string{
	"HOME": "/home/u", "PORT": "8080", "LOG_LEVEL": "warn",
	"TRACKER_TOKEN": "trk-0123456789", "MY_PASS": "hunter22", "INNOCENT_NAME": slackToken,
	"GITHUB_TOKEN": ghToken, "DB_HOST": "db.internal",
})

func TestSecrets(t *testing.T) {
	tests := []struct {
		name, server string
		want, not    []string
	}{
		{"every header value", `{"url": "https://h/mcp", "headers": {"Authorization": "Bearer ${TRACKER_TOKEN}", "X-Tenant": "acme-corp"}}`,
			[]string{"Bearer trk-0123456789", "trk-0123456789", "acme-corp"}, nil},
		{"env by name", `{"command": "x", "env": {"OPENAI_API_KEY": "plain-value", "SESSION": "abcdef", "DB_PASSWORD": "hunter2", "LOG_LEVEL": "warn", "HOME": "${HOME}"}}`,
			[]string{"plain-value", "abcdef", "hunter2"}, []string{"warn", "/home/u"}},
		{"env by value", `{"command": "x", "env": {"DATABASE_URL": "postgres://app:pw-12345@${DB_HOST}/x", "NOTE": "use ` + ghToken + ` here"}}`,
			[]string{"postgres://app:pw-12345@db.internal/x", "pw-12345", "use " + ghToken + " here", ghToken}, []string{"db.internal"}},
		{"variables by name or value, not ordinary ones", `{"command": "x", "args": ["--port", "${PORT}", "--dir=${HOME}", "--pw", "${MY_PASS}", "${INNOCENT_NAME}"], "cwd": "${HOME}"}`,
			[]string{"hunter22", slackToken}, []string{"8080", "/home/u"}},
		{"default of a secret variable", `{"command": "x", "args": ["${API_TOKEN:-fallback-token}"]}`,
			[]string{"fallback-token"}, nil},
		{"literal flag values and pairs in args", `{"command": "x", "args": ["--api-key", "lit3ral-key", "--secret=s3cr3t-val"]}`,
			[]string{"lit3ral-key", "s3cr3t-val"}, []string{"--api-key", "--secret=s3cr3t-val"}},
		{"url variables and literals", `{"url": "https://u:pw-67890@h/mcp?token=${GITHUB_TOKEN}&page=${PORT}"}`,
			[]string{"pw-67890", ghToken}, []string{"8080"}},
		{"nothing secret", `{"command": "npx", "args": ["-y", "${HOME}/srv"], "env": {"LOG_LEVEL": "${LOG_LEVEL}"}}`,
			nil, []string{"/home/u", "warn"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse("c.json", []byte(`{"mcpServers": {"s": `+tt.server+`}}`), secretsEnv)
			if err != nil {
				t.Fatal(err)
			}
			s := f.Servers[0]
			if err := s.Validate(); err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !slices.Contains(s.Secrets, w) {
					t.Errorf("Secrets %q lack %q", s.Secrets, w)
				}
			}
			for _, n := range tt.not {
				if slices.Contains(s.Secrets, n) {
					t.Errorf("Secrets %q hold %q", s.Secrets, n)
				}
			}
			if !slices.IsSorted(s.Secrets) || len(slices.Compact(slices.Clone(s.Secrets))) != len(s.Secrets) || slices.Contains(s.Secrets, "") {
				t.Errorf("Secrets %q: want sorted, without duplicates or empty ones", s.Secrets)
			}
			if tt.want == nil && s.Secrets != nil {
				t.Errorf("Secrets = %q, want none", s.Secrets)
			}
		})
	}
}

// TestShownHoldsNoSecret puts the two together: what mcpsh shows of a server
// holds none of its secrets, and redact.Known with Secrets takes the expanded
// values out of a message that quotes them (an error naming the command line).
func TestShownHoldsNoSecret(t *testing.T) {
	text := `{"mcpServers": {
	  "gh": {"command": "npx", "args": ["server-github", "--token", "${GITHUB_TOKEN}", "--pw=${MY_PASS}", "--key", "lit3ral-key"]},
	  "web": {"url": "https://me:${MY_PASS}@h/mcp?access_token=${TRACKER_TOKEN}", "headers": {"X-Api-Key": "${INNOCENT_NAME}"}}
	}}`
	f, err := Parse("c.json", []byte(text), secretsEnv)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range f.Servers {
		shown := strings.Join(append([]string{s.CommandShown, s.URLShown}, s.ArgsShown...), " ")
		expanded := strings.Join(append([]string{s.Command, s.URL}, s.Args...), " ")
		for _, v := range s.Secrets {
			if strings.Contains(shown, v) {
				t.Errorf("%s: shown %q holds the secret %q", s.Name, shown, v)
			}
		}
		msg := redact.Known("exec "+expanded+" failed", s.Secrets)
		for _, v := range []string{ghToken, "hunter22", "lit3ral-key", "trk-0123456789"} {
			if strings.Contains(msg, v) {
				t.Errorf("%s: %q still holds %q (Secrets %q)", s.Name, msg, v, s.Secrets)
			}
		}
	}
}

// TestErrorsQuoteTheURLAsShown checks that a config error about a URL does not
// print a key written into it.
func TestErrorsQuoteTheURLAsShown(t *testing.T) {
	_, err := Parse("c.json", []byte(`{"servers": {"a": {"url": "example.com/mcp?api_key=lit-12345"}}}`), nil)
	want := `c.json: servers.a.url: "example.com/mcp?api_key=[redacted]" is not an absolute http or https URL`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v\nwant    %s", err, want)
	}
	f, err := Parse("c.json", []byte(`{"servers": {"a": {"url": "${HOST}/mcp?token=lit-12345"}}}`), envOf(map[string]string{"HOST": "h"}))
	if err != nil {
		t.Fatal(err)
	}
	want = `c.json: servers.a.url: "${HOST}/mcp?token=[redacted]" does not expand to an absolute http or https URL`
	if err := f.Servers[0].Validate(); err == nil || err.Error() != want {
		t.Errorf("Validate = %v\nwant       %s", err, want)
	}
}
