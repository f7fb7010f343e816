package sessionlog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"

	"github.com/mcpsh/mcpsh/client"
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
			if jerr := json.Unmarshal(line, &e); jerr != nil {
				if !complete {
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
	Tool      string // glob on the tool name
	Status    string // exact status
}

// Match reports whether e passes the filter.
func (f Filter) Match(e Entry) bool {
	if f.OpenWorld && !e.OpenWorld {
		return false
	}
	if f.Tool != "" {
		if ok, err := path.Match(f.Tool, e.Tool); !ok || err != nil {
			return false
		}
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
	if _, err := path.Match(glob, ""); err != nil {
		return fmt.Errorf("--tool %q: %v", glob, err)
	}
	return nil
}
