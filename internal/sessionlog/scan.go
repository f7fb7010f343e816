package sessionlog

import (
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"os"
	"strconv"
	"strings"
	"time"
)

// SessionRead is what Scan found in one session log.
type SessionRead struct {
	Session
	// Entries are the entries that passed the filter, in the order written.
	Entries []Entry
	// Total counts every entry the file holds.
	Total int
	// Warnings are about lines that are not entries ("line 4 is cut short").
	Warnings []string
	// Err is why the file could not be read; Scan goes on with the next one.
	Err error
}

// Scan reads sessions in the order given (Sessions gives newest first) and
// yields what each holds that passes f. It reads one file at a time, so
// memory follows the largest session, not the folder. With f.Since set, a
// session that started before it is opened only when its file was written
// since: an entry is written after its call started, so a file last changed
// before f.Since holds nothing in the window, however long the session ran.
// A session pruned while Scan runs is skipped.
func Scan(sessions []Session, f Filter) iter.Seq[SessionRead] {
	return func(yield func(SessionRead) bool) {
		for _, s := range sessions {
			if !f.Since.IsZero() && s.Start.Before(f.Since) {
				fi, err := os.Stat(s.Path)
				if errors.Is(err, fs.ErrNotExist) || (err == nil && fi.ModTime().Before(f.Since)) {
					continue
				}
			}
			entries, warnings, err := ReadFile(s.Path)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			r := SessionRead{Session: s, Total: len(entries), Warnings: warnings, Err: err}
			for _, e := range entries {
				if f.Match(e) {
					r.Entries = append(r.Entries, e)
				}
			}
			if !yield(r) {
				return
			}
		}
	}
}

// ParseSince reads --since: a Go duration back from now, with d for days
// ("2h", "30m", "7d", "1d12h"), or an RFC 3339 time ("2026-11-22T06:00:00Z").
func ParseSince(s string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	d, err := ParseAge(s)
	if err != nil {
		return time.Time{}, fmt.Errorf("--since %q: want a duration such as 2h, 30m or 7d, or a time such as 2026-11-22T06:00:00Z", s)
	}
	return now.Add(-d), nil
}

// ParseAge reads a Go duration that may start with a number of days: "30d",
// "1d12h", "90m". It must be more than zero.
func ParseAge(s string) (time.Duration, error) {
	var total time.Duration
	rest := s
	if i := strings.IndexByte(s, 'd'); i >= 0 {
		if !isNumber(s[:i]) {
			return 0, fmt.Errorf("%q is not a duration", s)
		}
		days, _ := strconv.ParseFloat(s[:i], 64)
		if days > 100*365 {
			return 0, fmt.Errorf("%q is too long", s)
		}
		total = time.Duration(days * 24 * float64(time.Hour))
		rest = s[i+1:]
	}
	if rest != "" {
		d, err := time.ParseDuration(rest)
		if err != nil || d < 0 {
			return 0, fmt.Errorf("%q is not a duration", s)
		}
		total += d
	}
	if total <= 0 {
		return 0, fmt.Errorf("%q is not more than zero", s)
	}
	return total, nil
}

// isNumber reports a plain decimal number such as "7" or "1.5".
func isNumber(s string) bool {
	dot := false
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9':
		case r == '.' && !dot && i > 0:
			dot = true
		default:
			return false
		}
	}
	return s != "" && s[len(s)-1] != '.'
}
