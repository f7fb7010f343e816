package sessionlog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mcpsh/mcpsh/policy"
)

// Read parses a log. A line that is not a whole entry (the last line of a log
// whose writer was killed mid-write, say) is skipped with a warning, never fatal.
func Read(r io.Reader) ([]Entry, []string, error) {
	var entries []Entry
	var warnings []string
	br := bufio.NewReader(r)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		complete := len(line) > 0 && line[len(line)-1] == '\n'
		if e, warning, ok := parseLine(n, line, complete); ok {
			entries = append(entries, e)
		} else if warning != "" {
			warnings = append(warnings, warning)
		}
		if err == io.EOF {
			return entries, warnings, nil
		}
		if err != nil {
			return entries, warnings, err
		}
	}
}

// legacyByCaller is how logs written before policy.ByCaller named a call
// approved in advance (by the --yes flag).
const legacyByCaller policy.Approver = "--yes"

// parseLine reads line n of a log. ok is false for a blank line (no warning)
// and for one that is not an entry (a warning saying why).
func parseLine(n int, line []byte, complete bool) (e Entry, warning string, ok bool) {
	if len(bytes.TrimSpace(line)) == 0 {
		return e, "", false
	}
	// Without its newline, a line cut inside a string ends early rather
	// than holding a bad character, so cutShort can tell.
	if err := json.Unmarshal(bytes.TrimRight(line, "\r\n"), &e); err != nil {
		if !complete || cutShort(err) {
			return e, fmt.Sprintf("line %d is cut short (mcpsh stopped while writing it?): skipped", n), false
		}
		return e, fmt.Sprintf("line %d is not a log entry: skipped (%v)", n, err), false
	}
	if e.ApprovedBy == legacyByCaller {
		e.ApprovedBy = policy.ByCaller
	}
	return e, "", true
}

// cutShort reports a line that ends before its entry does. A torn line that
// the next writer ended with a newline, so as not to glue its own entry to it,
// is complete as a line but still cut short.
func cutShort(err error) bool {
	var se *json.SyntaxError
	return errors.As(err, &se) && strings.HasPrefix(se.Error(), "unexpected end")
}

// ReadFile reads the log at path. Entries that do not name their session (those
// of a session's own file) are given the file's: its name without .jsonl.
func ReadFile(p string) ([]Entry, []string, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	entries, warnings, err := Read(f)
	id := IDOf(p)
	for i := range entries {
		if entries[i].Session == "" {
			entries[i].Session = id
		}
	}
	return entries, warnings, err
}
