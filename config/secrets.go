package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpsh/mcpsh/internal/redact"
)

// secretVar reports whether a variable's value must stay out of messages: its
// name says so (GITHUB_TOKEN, OPENAI_KEY, DB_PASS), or the value looks like a
// credential whatever the name. ${HOME} and ${PORT} are not: their values
// occur in ordinary messages, which blanking them would mangle.
func secretVar(name, value string) bool {
	return redact.VarName(name) || redact.Text(value) != value
}

// secret adds v, and the secrets inside it, to the server's Secrets: a
// message may hold "Bearer abc…" whole or only the "abc…".
func (e *entry) secret(v string) {
	e.secrets = append(e.secrets, v)
	e.secretsIn(v)
}

// secretsIn adds the secrets redact finds inside v, not v itself: a URL or an
// argument is not secret as a whole, but the password in it is.
func (e *entry) secretsIn(v string) {
	e.secrets = append(e.secrets, redact.Find(v)...)
}

// env sees each env value once expanded.
func (e *entry) env(name, value string) {
	if secretVar(name, value) {
		e.secret(value)
	} else {
		e.secretsIn(value)
	}
}

// args expands the args as written and sets Args and ArgsShown.
func (e *entry) args(written []string) {
	if len(written) == 0 {
		return
	}
	e.srv.Args = make([]string, len(written))
	e.srv.ArgsShown = make([]string, len(written))
	for i, a := range written {
		v, ok := e.expand(fmt.Sprintf("%s[%d]", e.sub("args"), i), a)
		e.srv.Args[i] = v
		valueOfSecretFlag := i > 0 && secretFlag(written[i-1]) && !strings.HasPrefix(a, "-")
		switch {
		case !valueOfSecretFlag:
			e.srv.ArgsShown[i] = redact.Text(a)
		case strings.Contains(a, "${"):
			// The reference is what to show; its value is what to keep out.
			e.srv.ArgsShown[i] = a
		default:
			e.srv.ArgsShown[i] = redact.Marker
		}
		switch {
		case !ok:
		case valueOfSecretFlag:
			e.secret(v)
		default:
			e.secretsIn(v)
		}
	}
}

// secretFlag reports a flag such as --token, --api-key or --key whose value is
// the next argument. Flags are named like variables ("--key" is as likely an
// API key as KEY is), hence VarName. --token=VALUE is one argument, which
// redact.Text handles.
func secretFlag(arg string) bool {
	return strings.HasPrefix(arg, "-") && !strings.Contains(arg, "=") && redact.VarName(strings.TrimLeft(arg, "-"))
}

// tidy sorts secrets and drops duplicates and empty ones.
func tidy(secrets []string) []string {
	slices.Sort(secrets)
	secrets = slices.Compact(secrets)
	if len(secrets) > 0 && secrets[0] == "" {
		secrets = secrets[1:]
	}
	if len(secrets) == 0 {
		return nil
	}
	return secrets
}
