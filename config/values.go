package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"
)

// str reads the server's string field name; "" when it is absent.
func (e *entry) str(name string) (string, error) {
	raw, ok := e.fields[name]
	if !ok {
		return "", nil
	}
	return e.p.str(e.sub(name), raw)
}

// required reads a string field the server cannot do without.
func (e *entry) required(name string) (string, error) {
	if _, ok := e.fields[name]; !ok {
		return "", e.p.errf(e.sub(name), "missing (required for %s servers)", e.srv.Transport)
	}
	s, err := e.str(name)
	if err == nil && s == "" {
		err = e.p.errf(e.sub(name), "is empty")
	}
	return s, err
}

// strMap reads an object of strings, such as env or headers, expanding each value.
// It returns nil when the field is absent or empty. expanded, when not nil, is
// given each name with its value once that value expanded.
func (e *entry) strMap(name string, expanded func(name, value string)) (map[string]string, error) {
	raw, ok := e.fields[name]
	if !ok {
		return nil, nil
	}
	key := e.sub(name)
	ms, err := e.p.object(key, raw, nil)
	if err != nil || len(ms) == 0 {
		return nil, err
	}
	out := make(map[string]string, len(ms))
	for _, m := range ms {
		k := join(key, m.name)
		s, err := e.p.str(k, m.value)
		if err != nil {
			return nil, err
		}
		v, ok := e.expand(k, s)
		out[m.name] = v
		if ok && expanded != nil {
			expanded(m.name, v)
		}
	}
	return out, nil
}

// duration reads a Go duration string such as "30s", or a number of seconds;
// 0 when the field is absent.
func (e *entry) duration(name string) (time.Duration, error) {
	raw, ok := e.fields[name]
	if !ok {
		return 0, nil
	}
	key := e.sub(name)
	switch kind(raw) {
	case "a string":
		s, err := e.p.str(key, raw)
		if err != nil {
			return 0, err
		}
		d, err := time.ParseDuration(s)
		switch {
		case err != nil:
			return 0, e.p.errf(key, `%q is not a duration (want one such as "30s" or "1m30s", or a number of seconds)`, s)
		case d < 0:
			return 0, e.p.errf(key, "%q is negative", s)
		}
		return d, nil
	case "a number":
		text := string(bytes.TrimSpace(raw))
		sec, err := strconv.ParseFloat(text, 64)
		if err != nil || sec < 0 || sec >= math.MaxInt64/float64(time.Second) {
			return 0, e.p.errf(key, "%s is not a usable number of seconds", text)
		}
		return time.Duration(sec * float64(time.Second)), nil
	}
	return 0, e.p.errf(key, `want a duration such as "30s" or a number of seconds, got %s`, kind(raw))
}

// count reads a non-negative integer; 0 when the field is absent.
func (e *entry) count(name string) (int, error) {
	raw, ok := e.fields[name]
	if !ok {
		return 0, nil
	}
	text := string(bytes.TrimSpace(raw))
	if kind(raw) == "a number" {
		if n, err := strconv.Atoi(text); err == nil && n >= 0 {
			return n, nil
		}
		return 0, e.p.errf(e.sub(name), "want a non-negative integer, got %s", text)
	}
	return 0, e.p.errf(e.sub(name), "want a non-negative integer, got %s", kind(raw))
}

// str decodes the JSON string raw, found at key.
func (p *parser) str(key string, raw json.RawMessage) (string, error) {
	if k := kind(raw); k != "a string" {
		return "", p.errf(key, "want a string, got %s", k)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", p.errf(key, "%v", err)
	}
	return s, nil
}

// strs decodes the JSON array of strings raw, found at key; nil when it is empty.
func (p *parser) strs(key string, raw json.RawMessage) ([]string, error) {
	if k := kind(raw); k != "an array" {
		return nil, p.errf(key, "want an array of strings, got %s", k)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, p.errf(key, "%v", err)
	}
	var out []string
	for i, item := range items {
		s, err := p.str(fmt.Sprintf("%s[%d]", key, i), item)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}
