// Package client is mcpsh's side of the MCP conversation: it starts or reaches a
// server, lists its tools exactly as the server declared them, validates
// arguments, and carries calls through policy to the server and into the log.
// The go-sdk and backoff live here and stop here: other packages see only
// client and policy types.
package client

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpsh/mcpsh/internal/redact"
	"github.com/mcpsh/mcpsh/policy"
)

// Kind is how a server is reached.
type Kind string

const (
	KindStdio     Kind = "stdio"
	KindHTTP      Kind = "http"
	KindSSE       Kind = "sse"
	KindInProcess Kind = "in-process"
)

// Target says which server to talk to and how much to believe it.
type Target struct {
	// Name is the configured name, or a short label for ad-hoc targets.
	Name string
	Kind Kind

	// Stdio.
	Command string
	Args    []string
	Env     map[string]string // added to mcpsh's own environment
	Dir     string

	// HTTP and SSE.
	URL     string
	Headers map[string]string

	// InProcess serves the session from a server in this process (the demo, tests).
	InProcess InProcessServer

	// CommandShown, ArgsShown and URLShown are what may be shown of how the
	// server is reached (a config file's ${VAR} references unexpanded, secrets
	// redacted); empty means Command, Args and URL, after redaction.
	CommandShown string
	ArgsShown    []string
	URLShown     string
	// Secrets are values that must never be printed: they are replaced in
	// every message mcpsh makes, the server's stderr included. Header values
	// and the secret parts of URL are added to them.
	Secrets []string
	// live are the credentials a session got for this server rather than
	// was configured with: the OAuth tokens it has held (the current ones
	// and every one before them, as they are renewed mid-session) and the
	// client secrets. Every copy of the Target shares them, so every
	// message Redact makes knows the tokens of now.
	live *liveSecrets

	Trust policy.Trust
	Rules []policy.Rule
	// Roots are the directories the configuration lets this server see;
	// the caller turns them into Options.Roots with any of its own.
	Roots []string
	// Timeout, Retries and RetryMax are per-server defaults; zero means unset.
	Timeout  time.Duration
	Retries  int
	RetryMax time.Duration
}

// Via describes how the server is reached, for messages and the session log.
// Header values are never included, nor secrets in the command or the URL.
func (t Target) Via() string {
	switch t.Kind {
	case KindStdio:
		return "stdio: " + strings.Join(append([]string{t.command()}, t.args()...), " ")
	case KindHTTP:
		return "http: " + t.url()
	case KindSSE:
		return "sse: " + t.url()
	case KindInProcess:
		return "in-process"
	}
	return string(t.Kind)
}

func (t Target) command() string {
	if t.CommandShown != "" {
		return t.CommandShown
	}
	return t.Redact(t.Command)
}

func (t Target) args() []string {
	if len(t.ArgsShown) == len(t.Args) {
		return t.ArgsShown
	}
	out := make([]string, len(t.Args))
	for i, a := range t.Args {
		out[i] = t.Redact(a)
	}
	return out
}

func (t Target) url() string {
	if t.URLShown != "" {
		return t.URLShown
	}
	return redact.URL(t.URL)
}

// Label is the name a person recognises the server by.
func (t Target) Label() string {
	if t.Name != "" {
		return t.Name
	}
	switch t.Kind {
	case KindStdio:
		return t.command()
	case KindHTTP, KindSSE:
		return t.url()
	}
	return string(t.Kind)
}

// Redact takes out of s every secret the target knows of (its Secrets, its
// header values, the secret parts of its URL, and the credentials its
// sessions got: OAuth tokens, current and past, and client secrets) and
// anything that looks like a credential. Every message mcpsh makes that may
// quote the target, its transport or its server passes through it.
func (t Target) Redact(s string) string {
	return redact.Text(t.redactKnown(s))
}

// redactKnown takes out of s only the secrets the target knows of, by
// value, leaving whatever else looks like a credential: text in a format
// (a JSON-RPC message) that a pattern's replacement could break.
func (t Target) redactKnown(s string) string { return redact.Known(s, t.knownSecrets()) }

// knownSecrets are the values redactKnown takes out. A header's value
// counts whole and, after an auth scheme ("Bearer TOKEN"), as its
// credential alone: a server echoing the bare token must not hand it on.
func (t Target) knownSecrets() []string {
	secrets := append(t.live.list(), t.Secrets...)
	for _, v := range t.Secrets {
		secrets = append(secrets, redact.Credentials(v)...)
	}
	for _, v := range t.Headers {
		secrets = append(secrets, v)
		secrets = append(secrets, redact.Credentials(v)...)
	}
	if t.URL != "" {
		secrets = append(secrets, redact.Find(t.URL)...)
	}
	return secrets
}

// liveSecrets is a growing set of credentials, safe for concurrent use.
// Nothing is ever taken out: a token renewed away may still be quoted by a
// server that saw it.
type liveSecrets struct {
	mu   sync.Mutex
	vals []string
}

func (l *liveSecrets) add(vals ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, v := range vals {
		if v != "" && !slices.Contains(l.vals, v) {
			l.vals = append(l.vals, v)
		}
	}
}

// list is a copy of the set; nil for a nil set.
func (l *liveSecrets) list() []string {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.vals)
}

// Validate reports a target that cannot be connected to, before anything starts.
func (t Target) Validate() error {
	switch t.Kind {
	case KindStdio:
		if t.Command == "" {
			return fmt.Errorf("stdio target has no command")
		}
	case KindHTTP, KindSSE:
		if t.URL == "" {
			return fmt.Errorf("%s target has no URL", t.Kind)
		}
	case KindInProcess:
		if t.InProcess == nil {
			return fmt.Errorf("in-process target has no server")
		}
	default:
		return fmt.Errorf("unknown target kind %q", t.Kind)
	}
	return nil
}
