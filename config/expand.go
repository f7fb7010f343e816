package config

import (
	"fmt"
	"strings"
)

// forms are the variable references a file's host expands. mcpsh's own file
// takes ${VAR}, VS Code's ${env:VAR} and ${VAR:-default}; another host's file
// is read with that host's own forms (hosts.go), so a server starts as its
// host would start it.
type forms struct {
	braced    bool // ${VAR}
	defaults  bool // ${VAR:-default}
	envPrefix bool // ${env:VAR}
	bare      bool // $VAR (Gemini CLI)
	// prefixed: the host resolves ${word:...} forms of its own (VS Code's
	// ${config:x}, Windsurf's ${file:x}), which mcpsh cannot; elsewhere such
	// a reference is passed on as written.
	prefixed bool
	// predefined are the host's own variables, such as ${workspaceFolder}
	// and ${userHome}, with the values they have here; nil for mcpsh's file.
	predefined map[string]string
	// host names the host in messages; "" for mcpsh's own file.
	host Host
}

// mcpshForms are the references mcpsh's own file may use.
var mcpshForms = &forms{braced: true, defaults: true, envPrefix: true}

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
	return mcpshForms.expand(s, getenv, seen)
}

// expand is expandEach for the references f takes. A reference of a form the
// host does not take stays as written, as the host would leave it.
func (f *forms) expand(s string, getenv func(string) (string, bool), seen func(name, value string)) (string, error) {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '$')
		if i < 0 {
			break
		}
		ref, n, braced := reference(s[i:], f.bare)
		if n == 0 {
			b.WriteString(s[:i+1])
			s = s[i+1:]
			continue
		}
		var name, v string
		var err error
		if f == mcpshForms {
			name, v, err = lookup(ref, getenv)
		} else {
			var ok bool
			name, v, ok, err = f.lookup(ref, braced, getenv)
			if !ok && err == nil {
				b.WriteString(s[:i+n]) // not a form this host expands
				s = s[i+n:]
				continue
			}
		}
		if err != nil {
			return "", err
		}
		if seen != nil && name != "" {
			seen(name, v)
		}
		b.WriteString(s[:i])
		b.WriteString(v)
		s = s[i+n:]
	}
	b.WriteString(s)
	return b.String(), nil
}

// reference reads the reference s starts with ("$" first): ${...}, or with
// bare, $NAME. It returns what is between the braces (or the name), the
// length of the whole, and whether it was braced; n is 0 when s starts no
// reference.
func reference(s string, bare bool) (ref string, n int, braced bool) {
	if strings.HasPrefix(s, "${") {
		j := strings.IndexByte(s[2:], '}')
		if j < 0 {
			return "", 0, false
		}
		return s[2 : 2+j], 2 + j + 1, true
	}
	if !bare {
		return "", 0, false
	}
	j := 1
	for j < len(s) && (s[j] == '_' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= 'a' && s[j] <= 'z' || j > 1 && s[j] >= '0' && s[j] <= '9') {
		j++
	}
	if j == 1 {
		return "", 0, false
	}
	return s[1:j], j, false
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

// lookup is lookup for another host's file. ok is false, with no error, for
// a reference the host does not expand either: it passes it on as written.
// name is "" for the host's own variables, which are never secret. A
// variable that is not set is a problem of the server here, where some
// hosts would pass an empty value: a server started without its token fails
// later and less clearly.
func (f *forms) lookup(ref string, braced bool, getenv func(string) (string, bool)) (name, value string, ok bool, err error) {
	show := "$" + ref
	if braced {
		show = "${" + ref + "}"
	}
	if !braced { // $NAME, where the host takes it
		v, set := getenv(ref)
		if !set {
			return "", "", false, fmt.Errorf("%s is not set", show)
		}
		return ref, v, true, nil
	}
	if v, known := f.predefined[ref]; known {
		return "", v, true, nil
	}
	prefix, rest, hasPrefix := strings.Cut(ref, ":")
	switch {
	case hasPrefix && prefix == "env" && f.envPrefix:
		name = rest
	case hasPrefix && prefix == "input":
		return "", "", false, fmt.Errorf("%s asks %s to prompt for a value, which mcpsh does not do; set the value in mcpsh's own config, or use ${env:NAME}", show, f.host)
	case hasPrefix && f.prefixed && !strings.HasPrefix(rest, "-") && isWord(prefix):
		return "", "", false, fmt.Errorf("%s is a %s variable, which mcpsh does not expand", show, f.host)
	case f.predefined != nil && isHostVariable(ref):
		return "", "", false, fmt.Errorf("%s is a %s variable that has no value here", show, f.host)
	case f.braced:
		var def string
		var hasDef bool
		name, def, hasDef = strings.Cut(ref, ":-")
		if hasDef && !f.defaults {
			return "", "", false, nil
		}
		if hasDef {
			if v, _ := getenv(name); v != "" {
				return name, v, true, nil
			}
			return name, def, true, nil
		}
	default:
		return "", "", false, nil
	}
	if name == "" || !isName(name) {
		return "", "", false, nil
	}
	v, set := getenv(name)
	if !set {
		return "", "", false, fmt.Errorf("%s is not set", show)
	}
	return name, v, true, nil
}

// isHostVariable reports a name VS Code and Cursor define themselves, for a
// file whose folder is not known (${workspaceFolder} in a user's file with
// no project).
func isHostVariable(ref string) bool {
	switch ref {
	case "workspaceFolder", "workspaceFolderBasename", "userHome", "pathSeparator", "/", "cwd":
		return true
	}
	return false
}

// isName reports an environment variable's name.
func isName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

// isWord reports a prefix such as "config" or "command" in ${config:x}.
func isWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return s != ""
}

// noEnv is the getenv used when none is given: nothing is set.
func noEnv(string) (string, bool) { return "", false }
