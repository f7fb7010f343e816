package redact

import (
	"strings"
	"testing"
)

// Tokens built at run time, so the repository holds no string a secret scanner
// would flag.
var (
	ghp    = "ghp_" + strings.Repeat("aB3", 12)
	openai = "sk-proj-" + "Ab1Cd2Ef3Gh4Ij5Kl6"
	jwt    = "eyJhbGciOiJIUzI1NiJ9" + ".eyJzdWIiOiIxMjM0In0" + ".dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk"
	aws    = "AKIA" + "IOSFODNN7EXAMPLE"
)

func TestTextRedacts(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"bearer header", "curl -H 'Authorization: Bearer abcdef123456789' https://x", "curl -H 'Authorization: Bearer [redacted]' https://x"},
		{"basic header", "Authorization: Basic dXNlcjpwYXNzd29yZA==", "Authorization: Basic [redacted]"},
		{"header without scheme", `"authorization": "hunter22"`, `"authorization": "[redacted]"`},
		{"proxy header", "Proxy-Authorization: Bearer x1", "Proxy-Authorization: Bearer [redacted]"},
		{"bearer alone", "send Bearer eyJ0eXAi12345 now", "send Bearer [redacted] now"},
		{"cookie", "Cookie: sid=abc; theme=dark", "Cookie: [redacted]"},
		{"openai in a sentence", "my key is " + openai + " ok", "my key is [redacted] ok"},
		{"sk- key of letters", "sk-abcdefghijklmnopqrstuvwx", "[redacted]"},
		{"anthropic", "key sk-ant-api03-" + strings.Repeat("xY9", 8), "key [redacted]"},
		{"stripe secret", "sk_live_" + "51HxYzAbCdEf", "[redacted]"},
		{"stripe restricted", "(rk_test_" + "51HxYzAbCdEf)", "([redacted])"},
		{"github classic", "token " + ghp + ".", "token [redacted]."},
		{"github oauth", "gho_" + strings.Repeat("Zz9", 12), "[redacted]"},
		{"github fine-grained", "github_pat_" + strings.Repeat("11AB", 10), "[redacted]"},
		{"slack", "xoxb-" + "1234567890-abcdefgh", "[redacted]"},
		{"aws", "id=" + aws + ",", "id=[redacted],"},
		{"aws session", "ASIA" + "ABCDEFGHIJKLMNOP", "[redacted]"},
		{"google", "AIza" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q", "[redacted]"},
		{"gitlab", "glpat-" + "abcDEF123ghiJKL456mn", "[redacted]"},
		{"jwt", "jwt: " + jwt + " end", "jwt: [redacted] end"},
		{"pem", "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----\nafter", "key:\n[redacted]\nafter"},
		{"pem cut off", "x -----BEGIN PRIVATE KEY-----\nMIIE", "x [redacted]"},
		{"password=", "host=db password=hunter2 user=app", "host=db password=[redacted] user=app"},
		{"secret:", "secret: s3cr3t", "secret: [redacted]"},
		{"token=", "token=abc&x=1", "token=[redacted]&x=1"},
		{"api_key=", "--api_key=abc123", "--api_key=[redacted]"},
		{"json pair", `{"password":"p@ss word","user":"ada"}`, `{"password":"[redacted]","user":"ada"}`},
		{"json pair spaced", `{"client_secret": "abc"}`, `{"client_secret": "[redacted]"}`},
		{"single quoted", `{'X-Api-Key': 'abc def'}`, `{'X-Api-Key': '[redacted]'}`},
		{"export", `export DB_PASSWORD="a b c"`, `export DB_PASSWORD="[redacted]"`},
		{"pair inside a value", "error: password=hunter2 rejected", "error: password=[redacted] rejected"},
		{"number", `"pin": 1234`, `"pin": [redacted]`},
		{"url userinfo", "dial postgres://u:hunter2@db/x?sslmode=disable failed", "dial postgres://u:[redacted]@db/x?sslmode=disable failed"},
		{"url token user", "fetch https://" + ghp + "@github.com/o/r", "fetch https://[redacted]@github.com/o/r"},
		{"url query", `GET "https://h/api?q=1&api_key=abc"`, `GET "https://h/api?q=1&api_key=[redacted]"`},
		{"two secrets", "a=1 token=x " + aws, "a=1 token=[redacted] [redacted]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Text(tt.in); got != tt.want {
				t.Errorf("Text(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestTextKeeps(t *testing.T) {
	for _, s := range []string{
		"skeleton", "task-1234", "desk-lamp", "sk-learn-tutorial-basics-part", "/home/u/notes",
		"123e4567-e89b-12d3-a456-426614174000",
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"use basic authentication", "the bearer of unwelcome news", "Bearer tokens expire",
		"max_tokens=100", "key=value", "duplicate key: name", "author: Ada", "monkey=banana",
		"AKIA", "eyJ alone", "github.com/mcpsh/mcpsh", "https://example.com/a/b?page=2#top",
		`{"password": null}`, "password=", "token=${GITHUB_TOKEN}", "Authorization: Bearer $TOKEN",
		"password: [redacted]", "npx -y @modelcontextprotocol/server-filesystem /tmp",
		"", "token", "see RFC 6750: Bearer", "${PWD:-/tmp}", "cd $OLDPWD: done",
	} {
		if got := Text(s); got != s {
			t.Errorf("Text(%q) = %q, want it unchanged", s, got)
		}
	}
}

func TestFind(t *testing.T) {
	got := Find("Authorization: Bearer abc123def and https://u:pw%40x@h/ and " + aws)
	want := []string{"abc123def", "pw%40x", "pw@x", aws}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Find = %q, want %q", got, want)
	}
	if got := Find("nothing here"); got != nil {
		t.Errorf("Find(nothing) = %q", got)
	}
}
