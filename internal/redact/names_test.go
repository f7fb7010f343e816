package redact

import (
	"strings"
	"testing"
)

func TestName(t *testing.T) {
	secret := []string{"password", "DB_PASSWORD", "passwd", "api_key", "apiKey", "X-API-Key", "APIKEY", "clientSecret",
		"GITHUB_TOKEN", "authToken", "X-Auth-Token", "auth", "BASIC_AUTH", "pin", "otp", "ssn", "pwd", "db.pass",
		"AWS_SECRET_ACCESS_KEY", "private_key", "session_id", "sessionId", "Cookie", "Authorization", "credentials", "jwt"}
	innocent := []string{"author", "authority", "key", "sort_key", "max_tokens", "tokenizer", "session", "title", "query",
		"passport", "bypass", "pinned", "keyboard", "monkey", "path", "HOME", "code", "PWD", "OLDPWD", ""}
	for _, n := range secret {
		if !Name(n) {
			t.Errorf("Name(%q) = false, want true", n)
		}
	}
	for _, n := range innocent {
		if Name(n) {
			t.Errorf("Name(%q) = true, want false", n)
		}
	}
}

func TestVarName(t *testing.T) {
	for _, n := range []string{"OPENAI_KEY", "SSH_KEYS", "GITHUB_PAT", "TMUX_SESSION", "TOKEN", "MY_SECRET", "DB_PASS", "AUTH", "CRED", "COOKIE"} {
		if !VarName(n) {
			t.Errorf("VarName(%q) = false, want true", n)
		}
	}
	for _, n := range []string{"HOME", "PATH", "KEYBOARD", "AUTHOR", "PATTERN", "LOG_LEVEL", "XDG_CONFIG_HOME"} {
		if VarName(n) {
			t.Errorf("VarName(%q) = true, want false", n)
		}
	}
}

func TestWords(t *testing.T) {
	for in, want := range map[string]string{
		"X-API-Key": "x api key", "xApiKey": "x api key", "APIKey": "api key", "oauth2Token": "oauth2 token",
		"AWS_SECRET_ACCESS_KEY": "aws secret access key", "--db.pass": "db pass", "": "",
	} {
		if got := strings.Join(words(in), " "); got != want {
			t.Errorf("words(%q) = %q, want %q", in, got, want)
		}
	}
}
