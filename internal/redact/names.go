package redact

import (
	"strings"
	"unicode"
)

// secretEndings: a word, or two adjacent words run together, that ends in one of
// these names a secret (GITHUB_TOKEN, authToken, db-password, x-api-key,
// SESSION_ID). Endings, not substrings, so "tokenizer" and "max_tokens" are not.
var secretEndings = []string{
	"password", "passwords", "passwd", "passphrase", "secret", "secrets", "token",
	"apikey", "accesskey", "privatekey", "secretkey", "signingkey",
	"credential", "credentials", "cookie", "cookies", "authorization", "bearer",
	"sessionid", "sessionkey", "signature",
}

// secretWords are short names that are secrets only as a word of their own:
// "auth" in BASIC_AUTH, not in "author".
var secretWords = map[string]bool{"auth": true, "pass": true, "pwd": true, "cred": true, "creds": true, "jwt": true}

// shellDirs are the shell's own variables for directories, written as the
// shell writes them: "pwd" alone may be a password, "$PWD" never is.
var shellDirs = map[string]bool{"PWD": true, "OLDPWD": true}

// secretWholeNames are too common as words to flag anywhere but alone.
var secretWholeNames = map[string]bool{"pin": true, "otp": true, "ssn": true}

// Name reports whether a field, argument or header name suggests its value is
// secret: password, api_key, clientSecret, X-Auth-Token, auth, pin. Case,
// camelCase and the separators "-", "_" and "." do not matter. It leaves out
// names that are as often innocent, such as "key" (a tool's lookup key) and
// "session" (a tmux session), which URLs and environment variables add back.
func Name(name string) bool {
	if shellDirs[name] {
		return false
	}
	ws := words(name)
	if len(ws) == 1 && secretWholeNames[ws[0]] {
		return true
	}
	for i, w := range ws {
		if secretWords[w] || secretEnding(w) || i > 0 && secretEnding(ws[i-1]+w) {
			return true
		}
	}
	return false
}

// varWords are what environment variables add to Name: OPENAI_KEY, GITHUB_PAT
// and SESSION hold secrets far more often than not.
var varWords = map[string]bool{"key": true, "keys": true, "session": true, "pat": true}

// VarName reports whether an environment variable's name suggests a secret
// value: everything Name flags, and the words KEY, SESSION and PAT.
func VarName(name string) bool {
	return Name(name) || hasWord(name, varWords)
}

// paramWords are what URL query parameters add to Name: ?key= (Google),
// ?code= (OAuth), ?sig= (signed URLs), ?session=.
var paramWords = map[string]bool{"key": true, "code": true, "sig": true, "session": true, "sid": true}

// paramName reports whether a URL query parameter holds a secret.
func paramName(name string) bool {
	return Name(name) || hasWord(name, paramWords)
}

func hasWord(name string, set map[string]bool) bool {
	for _, w := range words(name) {
		if set[w] {
			return true
		}
	}
	return false
}

func secretEnding(w string) bool {
	for _, e := range secretEndings {
		if strings.HasSuffix(w, e) {
			return true
		}
	}
	return false
}

// words splits a name into lower-case words at separators and case changes:
// "X-API-Key" and "xApiKey" both give x, api, key.
func words(name string) []string {
	var out []string
	rs := []rune(name)
	start := -1
	flush := func(end int) {
		if start >= 0 {
			out = append(out, strings.ToLower(string(rs[start:end])))
		}
		start = -1
	}
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush(i)
			continue
		}
		if start >= 0 && unicode.IsUpper(r) {
			prev := rs[i-1]
			// fooBar, or the last capital of an acronym before a word: APIKey.
			if !unicode.IsUpper(prev) || i+1 < len(rs) && unicode.IsLower(rs[i+1]) {
				flush(i)
			}
		}
		if start < 0 {
			start = i
		}
	}
	flush(len(rs))
	return out
}
