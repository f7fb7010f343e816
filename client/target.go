// Package client is mcpsh's side of the MCP conversation: it starts or reaches a
// server, lists its tools exactly as the server declared them, validates
// arguments, and carries calls through policy to the server and into the log.
// The go-sdk and backoff live here and stop here: other packages see only
// client and policy types.
package client

import (
	"fmt"
	"strings"
	"time"

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

	Trust policy.Trust
	Rules []policy.Rule
	// Timeout, Retries and RetryMax are per-server defaults; zero means unset.
	Timeout  time.Duration
	Retries  int
	RetryMax time.Duration
}

// Via describes how the server is reached, for messages and the session log.
// Header values are never included: they often carry credentials.
func (t Target) Via() string {
	switch t.Kind {
	case KindStdio:
		return "stdio: " + strings.Join(append([]string{t.Command}, t.Args...), " ")
	case KindHTTP:
		return "http: " + t.URL
	case KindSSE:
		return "sse: " + t.URL
	case KindInProcess:
		return "in-process"
	}
	return string(t.Kind)
}

// Label is the name a person recognises the server by.
func (t Target) Label() string {
	if t.Name != "" {
		return t.Name
	}
	switch t.Kind {
	case KindStdio:
		return t.Command
	case KindHTTP, KindSSE:
		return t.URL
	}
	return string(t.Kind)
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
