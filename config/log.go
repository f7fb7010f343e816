package config

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"time"
)

// Log is mcpsh's own top-level "log" key: how much of the session log to keep.
//
//	"log": {"maxAge": "30d", "maxSize": "200MB", "results": "digest"}
//
// A zero field is one the file does not set; the session log applies its
// defaults.
type Log struct {
	// MaxAge: sessions last written longer ago are pruned.
	MaxAge time.Duration
	// MaxSize bounds the sessions folder, in bytes.
	MaxSize int64
	// Results is how much of each call's result an entry keeps: one of
	// LogResults, or "" for the default.
	Results string
}

// LogResults are the values "log.results" takes: none, digest (the
// default) or full. config names them itself, since it does not import the
// session log.
var LogResults = []string{"none", "digest", "full"}

// log reads the top-level "log" key from the file's members.
func (p *parser) log(top []member) (Log, error) {
	var l Log
	var raw []byte
	for _, m := range top {
		if m.name != "log" {
			continue
		}
		if raw != nil {
			return l, p.errf("log", "duplicate key")
		}
		raw = m.value
	}
	if raw == nil || kind(raw) == "null" {
		return l, nil
	}
	ms, err := p.object("log", raw, nil)
	if err != nil {
		return l, err
	}
	for _, m := range ms {
		key := join("log", m.name)
		if kind(m.value) == "null" {
			continue
		}
		switch m.name {
		case "maxAge":
			if l.MaxAge, err = p.age(key, m.value); err != nil {
				return l, err
			}
		case "maxSize":
			if l.MaxSize, err = p.size(key, m.value); err != nil {
				return l, err
			}
		case "results":
			if l.Results, err = p.results(key, m.value); err != nil {
				return l, err
			}
		default:
			return l, p.errf(key, "unknown key (want maxAge, maxSize or results)")
		}
	}
	return l, nil
}

// results reads how much of each result the log keeps.
func (p *parser) results(key string, raw []byte) (string, error) {
	if k := kind(raw); k != "a string" {
		return "", p.errf(key, `want "none", "digest" or "full", got %s`, k)
	}
	s, err := p.str(key, raw)
	if err != nil {
		return "", err
	}
	for _, v := range LogResults {
		if s == v {
			return s, nil
		}
	}
	return "", p.errf(key, `%q: want "none", "digest" or "full"`, s)
}

// age reads a duration that may give days: "30d", "1d12h", "36h".
func (p *parser) age(key string, raw []byte) (time.Duration, error) {
	if k := kind(raw); k != "a string" {
		return 0, p.errf(key, `want a duration such as "30d" or "12h", got %s`, k)
	}
	s, err := p.str(key, raw)
	if err != nil {
		return 0, err
	}
	d, ok := parseAge(s)
	if !ok {
		return 0, p.errf(key, `%q is not a duration (want one such as "30d", "12h" or "1d12h")`, s)
	}
	if d <= 0 {
		return 0, p.errf(key, "%q is not more than zero (for a longer history, give a longer time)", s)
	}
	return d, nil
}

func parseAge(s string) (time.Duration, bool) {
	var d time.Duration
	if i := strings.IndexByte(s, 'd'); i >= 0 {
		days, err := strconv.ParseFloat(s[:i], 64)
		if err != nil || days < 0 || days > 100*365 || strings.ContainsAny(s[:i], "eEnNxX+-") {
			return 0, false
		}
		d, s = time.Duration(days*24*float64(time.Hour)), s[i+1:]
		if s == "" {
			return d, true
		}
	}
	rest, err := time.ParseDuration(s)
	if err != nil || rest < 0 {
		return 0, false
	}
	return d + rest, true
}

// sizeUnits are the units a size may give, in powers of 1024 as du and ls -h
// count.
var sizeUnits = map[string]float64{
	"": 1, "B": 1,
	"KB": 1 << 10, "K": 1 << 10, "KIB": 1 << 10,
	"MB": 1 << 20, "M": 1 << 20, "MIB": 1 << 20,
	"GB": 1 << 30, "G": 1 << 30, "GIB": 1 << 30,
	"TB": 1 << 40, "T": 1 << 40, "TIB": 1 << 40,
}

// size reads a number of bytes, or a string such as "200MB" or "1.5GB".
func (p *parser) size(key string, raw []byte) (int64, error) {
	var text string
	switch kind(raw) {
	case "a number":
		text = string(bytes.TrimSpace(raw))
	case "a string":
		s, err := p.str(key, raw)
		if err != nil {
			return 0, err
		}
		text = s
	default:
		return 0, p.errf(key, `want a size such as "200MB", got %s`, kind(raw))
	}
	n, ok := parseSize(text)
	if !ok {
		return 0, p.errf(key, `%q is not a size (want one such as "200MB", "1GB" or a number of bytes)`, text)
	}
	if n <= 0 {
		return 0, p.errf(key, "%q is not more than zero (for a larger history, give a larger size)", text)
	}
	return n, nil
}

func parseSize(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	num, unit := s, ""
	if i >= 0 {
		num, unit = s[:i], strings.ToUpper(strings.TrimSpace(s[i:]))
	}
	mult, ok := sizeUnits[unit]
	if !ok || num == "" {
		return 0, false
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || v*mult >= math.MaxInt64 {
		return 0, false
	}
	return int64(v * mult), true
}
