package config

import (
	"fmt"
	"strings"
)

// expand replaces the variable references in s: ${VAR}, VS Code's ${env:VAR}, and
// ${VAR:-default}, which gives default when VAR is unset or empty, as in the
// shell. Nothing else is special: "$$" and a lone "$" stay as written, and so
// does a "${" that never closes. The error says which reference could not be
// expanded; it is a problem of the one server that uses it, not of the file.
func expand(s string, getenv func(string) (string, bool)) (string, error) {
	return expandEach(s, getenv, nil)
}

// expandEach is expand that also hands each reference's variable name and the
// value it gave to seen, which may be nil: what decides whether a value is
// secret is the variable it came from.
func expandEach(s string, getenv func(string) (string, bool), seen func(name, value string)) (string, error) {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i+2:], '}')
		if j < 0 {
			break
		}
		name, v, err := lookup(s[i+2:i+2+j], getenv)
		if err != nil {
			return "", err
		}
		if seen != nil {
			seen(name, v)
		}
		b.WriteString(s[:i])
		b.WriteString(v)
		s = s[i+2+j+1:]
	}
	b.WriteString(s)
	return b.String(), nil
}

// lookup returns the variable name and the value of one reference, given
// without its "${" and "}".
func lookup(ref string, getenv func(string) (string, bool)) (name, value string, err error) {
	name, def, hasDef := strings.Cut(ref, ":-")
	name = strings.TrimPrefix(name, "env:")
	switch {
	case name == "":
		return "", "", fmt.Errorf("${%s} names no variable", ref)
	case strings.HasPrefix(name, "input:"):
		return "", "", fmt.Errorf("${%s} asks VS Code to prompt for a value, which mcpsh does not do; use an environment variable instead", ref)
	case strings.HasPrefix(name, "workspaceFolder") || strings.Contains(name, ":"):
		return "", "", fmt.Errorf("${%s} is a VS Code variable, which mcpsh does not expand; use an environment variable instead", ref)
	}
	v, ok := getenv(name)
	switch {
	case hasDef && v == "":
		return name, def, nil
	case !ok:
		return "", "", fmt.Errorf("${%s} is not set", ref)
	}
	return name, v, nil
}

// noEnv is the getenv used when none is given: nothing is set.
func noEnv(string) (string, bool) { return "", false }
