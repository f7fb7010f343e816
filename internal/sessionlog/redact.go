package sessionlog

import (
	"fmt"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/redact"
)

// ArgsMode says how much of a call's arguments the log keeps.
type ArgsMode string

const (
	ArgsFull   ArgsMode = "full"   // as sent
	ArgsRedact ArgsMode = "redact" // values of secret-looking keys, and secrets inside strings, replaced (the default)
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
const Redacted = redact.Marker

// Apply is args as the log keeps them in mode m: as sent, redacted, or nil.
func (m ArgsMode) Apply(args map[string]any) any {
	switch m {
	case ArgsFull:
		return args
	case ArgsNone:
		return nil
	}
	if args == nil {
		return nil
	}
	return redactValue(args)
}

// redactValue replaces the whole value of a secret-looking key, whatever its
// type, and the secrets inside every string: a token is as often part of a
// command line, a URL or a note as a value of its own.
func redactValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			if redact.Name(k) && val != nil {
				out[k] = Redacted
				continue
			}
			out[k] = redactValue(val)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = redactValue(val)
		}
		return out
	case string:
		return redact.Text(x)
	}
	return v
}

// redactMessages runs redact.Text over the free text of an outcome, in
// every --log-args mode: how the server is reached, and the errors. The client
// hands them over redacted already, with the configured secrets it knows
// (redact.Known); this is defence in depth for what it cannot know but that
// looks like a secret (a token echoed in a server's error, a --url typed with
// ?api_key=), because the log keeps it on disk and `mcpsh log` shows it in
// full. The attempts are copied, not changed: they are the caller's.
func redactMessages(o *client.Outcome) {
	o.Via = redact.Text(o.Via)
	o.Error = redact.Text(o.Error)
	if o.Attempts != nil {
		attempts := make([]client.Attempt, len(o.Attempts))
		for i, a := range o.Attempts {
			a.Error = redact.Text(a.Error)
			attempts[i] = a
		}
		o.Attempts = attempts
	}
}
