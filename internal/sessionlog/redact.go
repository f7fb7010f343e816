package sessionlog

import (
	"fmt"
	"regexp"
	"strings"
)

// ArgsMode says how much of a call's arguments the log keeps.
type ArgsMode string

const (
	ArgsFull   ArgsMode = "full"   // as sent
	ArgsRedact ArgsMode = "redact" // secret-looking keys and values replaced (the default)
	ArgsNone   ArgsMode = "none"   // no arguments at all
)

// ParseArgsMode reads --log-args.
func ParseArgsMode(s string) (ArgsMode, error) {
	switch m := ArgsMode(s); m {
	case ArgsFull, ArgsRedact, ArgsNone:
		return m, nil
	}
	return "", fmt.Errorf("--log-args %q: want full, redact or none", s)
}

// Redacted replaces a secret.
const Redacted = "[redacted]"

func (m ArgsMode) apply(args map[string]any) any {
	switch m {
	case ArgsFull:
		return args
	case ArgsNone:
		return nil
	}
	if args == nil {
		return nil
	}
	return redact(args)
}

// secretKeys are fragments of argument names that usually hold secrets,
// matched against the name lowercased with '_' and '-' removed.
var secretKeys = []string{"password", "passwd", "passphrase", "secret", "token", "apikey", "privatekey",
	"accesskey", "credential", "cookie", "authorization", "sessionid", "bearer"}

// exactSecretKeys are names too short to match as fragments ("author" is not "auth").
var exactSecretKeys = map[string]bool{"auth": true, "pin": true, "otp": true, "ssn": true, "pwd": true}

// secretValue matches values that look like credentials whatever their key.
var secretValue = regexp.MustCompile(`^(?:` + strings.Join([]string{
	`sk-[A-Za-z0-9_-]{16,}`,                       // OpenAI, Anthropic
	`(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{16,}`, // Stripe
	`gh[pousr]_[A-Za-z0-9]{30,}`, `github_pat_[A-Za-z0-9_]{30,}`,
	`xox[abprs]-[A-Za-z0-9-]{10,}`, // Slack
	`AKIA[0-9A-Z]{16}`,             // AWS access key
	`AIza[0-9A-Za-z_-]{35}`,        // Google API key
	`glpat-[A-Za-z0-9_-]{20,}`,     // GitLab
	`eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*`, // JWT
	`(?i:bearer|basic)\s+\S{8,}`,
}, "|") + `)$`)

var privateKeyBlock = regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----`)
var urlPassword = regexp.MustCompile(`(://[^/\s:@]+:)[^/\s@]+@`)

func secretKey(name string) bool {
	n := strings.NewReplacer("_", "", "-", "").Replace(strings.ToLower(name))
	if exactSecretKeys[n] {
		return true
	}
	for _, k := range secretKeys {
		if strings.Contains(n, k) {
			return true
		}
	}
	return false
}

func redact(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			if secretKey(k) && val != nil {
				out[k] = Redacted
				continue
			}
			out[k] = redact(val)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = redact(val)
		}
		return out
	case string:
		s := strings.TrimSpace(x)
		if secretValue.MatchString(s) || privateKeyBlock.MatchString(s) {
			return Redacted
		}
		return urlPassword.ReplaceAllString(x, "${1}"+Redacted+"@")
	}
	return v
}
