package sessionlog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcpsh/mcpsh/client"
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
		if len(bytes.TrimSpace(line)) > 0 {
			var e Entry
			// Without its newline, a line cut inside a string ends early rather
			// than holding a bad character, so cutShort can tell.
			if jerr := json.Unmarshal(bytes.TrimRight(line, "\r\n"), &e); jerr != nil {
				if !complete || cutShort(jerr) {
					warnings = append(warnings, fmt.Sprintf("line %d is cut short (mcpsh stopped while writing it?): skipped", n))
				} else {
					warnings = append(warnings, fmt.Sprintf("line %d is not a log entry: skipped (%v)", n, jerr))
				}
			} else {
				entries = append(entries, e)
			}
		}
		if err == io.EOF {
			return entries, warnings, nil
		}
		if err != nil {
			return entries, warnings, err
		}
	}
}

// cutShort reports a line that ends before its entry does. A torn line that
// the next writer ended with a newline, so as not to glue its own entry to it,
// is complete as a line but still cut short.
func cutShort(err error) bool {
	var se *json.SyntaxError
	return errors.As(err, &se) && strings.HasPrefix(se.Error(), "unexpected end")
}

// ReadFile reads the log at path.
func ReadFile(p string) ([]Entry, []string, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return Read(f)
}

// Latest returns the newest session log in dir.
func Latest(dir string) (string, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return "", err
	}
	if len(names) == 0 {
		return "", fmt.Errorf("no session logs in %s yet: calls made with mcpsh are logged there", dir)
	}
	sort.Strings(names) // names start with the session's start time
	return names[len(names)-1], nil
}

// Filter selects entries for `mcpsh log`.
type Filter struct {
	OpenWorld bool   // only calls flagged open-world
	Tool      string // glob on the tool name, as in policy rules
	Status    string // exact status
}

// Match reports whether e passes the filter.
func (f Filter) Match(e Entry) bool {
	if f.OpenWorld && !e.OpenWorld {
		return false
	}
	// The rules' glob, not path.Match: a star must cross the "/" of "fs/delete_file",
	// and --tool should select what a rule with the same pattern would.
	if f.Tool != "" && !policy.MatchGlob(f.Tool, e.Tool) {
		return false
	}
	return f.Status == "" || string(e.Status) == f.Status
}

// ValidStatus checks a --status value.
func ValidStatus(s string) error {
	switch client.Status(s) {
	case client.StatusOK, client.StatusToolError, client.StatusFailed, client.StatusRefused, client.StatusCancelled:
		return nil
	}
	return fmt.Errorf("--status %q: want one of ok, tool_error, failed, refused, cancelled", s)
}

// ValidTool checks a --tool glob.
func ValidTool(glob string) error {
	if err := policy.ValidatePattern(glob); err != nil {
		return fmt.Errorf("--tool: %v", err)
	}
	return nil
}
