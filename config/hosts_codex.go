package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/pelletier/go-toml/v2"

	"github.com/mcpsh/mcpsh/policy"
)

// Codex keeps its servers in TOML ($CODEX_HOME/config.toml, ~/.codex by
// default), one [mcp_servers.NAME] table each (docs/config.md, "MCP
// integration"): command, args, env (a table), cwd for a stdio server; url,
// http_headers, env_http_headers (header → variable) and
// bearer_token_env_var for a streamable HTTP one; enabled = false keeps a
// server without starting it; tool_timeout_sec bounds a call. Codex expands
// no ${VAR}: a value is used as written. Codex passes its servers only a
// short list of variables plus env and env_vars; mcpsh passes its whole
// environment, as it does to every server, so env_vars needs nothing more.

// codexServers reads the servers of Codex's config.toml. Each table is
// turned into the JSON object mcpsh's parser reads, so a bad value gets the
// same messages as anywhere else.
func (hp *hostParser) codexServers(data []byte) ([]*Server, error) {
	var doc struct {
		Servers map[string]map[string]any `toml:"mcp_servers"`
	}
	if err := toml.Unmarshal(data, &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			return nil, &Error{File: hp.file, Line: line, Col: col, Msg: de.Error()}
		}
		return nil, &Error{File: hp.file, Msg: err.Error(), Err: err}
	}
	names := make([]string, 0, len(doc.Servers))
	for n := range doc.Servers {
		names = append(names, n)
	}
	slices.Sort(names)
	var out []*Server
	for _, name := range names {
		if name == "" {
			continue
		}
		key := "mcp_servers." + name
		obj, held, timeout, problem, err := hp.codexEntry(key, doc.Servers[name])
		var s *Server
		if err == nil {
			raw, merr := json.Marshal(obj)
			if merr != nil {
				err = hp.parser.errf(key, "%v", merr)
			} else {
				s, err = hp.server(key, name, raw)
			}
		}
		if err != nil {
			s = &Server{Name: name, Key: key, Err: err, Trust: policy.Trusted}
		}
		if s.Err == nil && problem != nil {
			s.Err = problem
		}
		s.Timeout = timeout
		s.Origin = hp.origin
		s.Origin.Held = held
		out = append(out, s)
	}
	return out, nil
}

// codexEntry turns one [mcp_servers.NAME] table into mcpsh's JSON shape.
// problem is a fault of this server alone (a token variable not set).
func (hp *hostParser) codexEntry(key string, t map[string]any) (obj map[string]any, held string, timeout time.Duration, problem, err error) {
	obj = map[string]any{}
	headers := map[string]any{}
	for k, v := range t {
		switch k {
		case "command", "args", "env", "cwd", "url":
			obj[k] = v
		case "http_headers":
			m, ok := v.(map[string]any)
			if !ok {
				return nil, "", 0, nil, hp.parser.errf(key+"."+k, "want a table of strings, got %s", tomlKind(v))
			}
			for h, hv := range m {
				headers[h] = hv
			}
		case "env_http_headers":
			m, ok := v.(map[string]any)
			if !ok {
				return nil, "", 0, nil, hp.parser.errf(key+"."+k, "want a table of variable names, got %s", tomlKind(v))
			}
			for h, name := range m {
				n, ok := name.(string)
				if !ok {
					return nil, "", 0, nil, hp.parser.errf(key+"."+k+"."+h, "want a variable's name, got %s", tomlKind(name))
				}
				// Sent only when the variable is set and not empty (docs/config.md).
				if val, _ := hp.getenv(n); val != "" {
					headers[h] = val
				}
			}
		case "bearer_token_env_var":
			n, ok := v.(string)
			if !ok {
				return nil, "", 0, nil, hp.parser.errf(key+"."+k, "want a variable's name, got %s", tomlKind(v))
			}
			if val, _ := hp.getenv(n); val != "" {
				headers["Authorization"] = "Bearer " + val
			} else {
				problem = hp.parser.errf(key+"."+k, "$%s is not set", n)
			}
		case "enabled":
			b, ok := v.(bool)
			if !ok {
				return nil, "", 0, nil, hp.parser.errf(key+"."+k, "want true or false, got %s", tomlKind(v))
			}
			if !b {
				held = "disabled in its file (enabled = false)"
			}
		case "tool_timeout_sec":
			var sec float64
			switch n := v.(type) {
			case int64:
				sec = float64(n)
			case float64:
				sec = n
			default:
				return nil, "", 0, nil, hp.parser.errf(key+"."+k, "want a number of seconds, got %s", tomlKind(v))
			}
			if sec < 0 || sec > 24*3600 {
				return nil, "", 0, nil, hp.parser.errf(key+"."+k, "%v is not a usable number of seconds", v)
			}
			timeout = time.Duration(sec * float64(time.Second))
		}
	}
	if len(headers) > 0 {
		obj["headers"] = headers
	}
	return obj, held, timeout, problem, nil
}

// tomlKind names a decoded TOML value's type, for messages.
func tomlKind(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int64, float64:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	case time.Time, toml.LocalDate, toml.LocalDateTime, toml.LocalTime:
		return "a date"
	}
	return fmt.Sprintf("%T", v)
}
