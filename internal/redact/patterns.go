package redact

import (
	"regexp"
	"strings"
	"sync"
)

// The patterns are compiled on first use: every mcpsh process links this
// package, few redact anything, and compiling them all took about a quarter
// of a millisecond of each start-up.
var (
	// pemBlock runs to the END line, or to the end of the text when it was cut off.
	pemBlock = lazy(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?s:.*?)(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)`)

	urlSpan = lazy(`\b[A-Za-z][A-Za-z0-9+.-]*://[^\s"'<>` + "`" + `]+`)

	// authHeader keeps the scheme (Bearer, Basic, …) and takes the credential.
	authHeader = lazy(`(?i)\b(?:proxy-)?authorization["']?[ \t]*[:=][ \t]*["']?` +
		`(?:(?:bearer|basic|token|digest|negotiate|bot)[ \t]+)?([^\s"',;]+)`)

	// cookieHeader takes the whole value: every cookie in it may be a session.
	cookieHeader = lazy(`(?i)\b(?:set-)?cookie["']?[ \t]*:[ \t]*["']?([^\r\n"']+)`)

	// bearer is a credential after the word, outside an Authorization header
	// ("curl -H 'Bearer …'", "use Basic dXNl…"); looksRandom keeps prose out.
	bearer = lazy(`(?i)\b(?:bearer|basic)[ \t]+([A-Za-z0-9._~+/-]{8,}=*)`)

	// tokenFormat matches the formats providers give their keys, which are
	// distinctive enough to find anywhere. tokenHints are their literal starts.
	tokenFormat = lazy(`\b(?:` + strings.Join([]string{
		`sk-[A-Za-z0-9_-]{16,}`,                                      // OpenAI, Anthropic
		`(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}`,                   // Stripe
		`gh[pousr]_[A-Za-z0-9]{20,}`,                                 // GitHub
		`github_pat_[A-Za-z0-9_]{22,}`,                               // GitHub fine-grained
		`xox[abprs]-[A-Za-z0-9-]{10,}`,                               // Slack
		`(?:AKIA|ASIA)[0-9A-Z]{16}\b`,                                // AWS access key ID
		`AIza[0-9A-Za-z_-]{30,}`,                                     // Google API key
		`glpat-[A-Za-z0-9_-]{20,}`,                                   // GitLab
		`eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*`, // JWT
	}, "|") + `)`)
	tokenHints = []string{"sk-", "sk_", "rk_", "gh", "github_pat_", "xox", "AKIA", "ASIA", "AIza", "glpat-", "eyJ"}
)

// lazy compiles expr once, when first asked for.
func lazy(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
