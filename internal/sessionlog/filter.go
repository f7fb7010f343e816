package sessionlog

import (
	"fmt"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/policy"
)

// Filter selects entries for `mcpsh log`. The zero Filter selects every entry.
type Filter struct {
	OpenWorld bool      // only calls flagged open-world
	Tool      string    // glob on the tool name, as in policy rules
	Server    string    // glob on the server's name (its label)
	Host      string    // glob on the name of the agent's host a proxy made the call for
	Status    string    // exact status
	Since     time.Time // only calls made at or after it; zero for no bound
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
	if f.Server != "" && !policy.MatchGlob(f.Server, e.Server) {
		return false
	}
	if f.Host != "" && (e.Host == nil || !policy.MatchGlob(f.Host, e.Host.Name)) {
		return false
	}
	if !f.Since.IsZero() && e.Time.Before(f.Since) {
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

// ValidServer checks a --server glob.
func ValidServer(glob string) error {
	if err := policy.ValidatePattern(glob); err != nil {
		return fmt.Errorf("--server: %v", err)
	}
	return nil
}

// ValidHost checks a --host glob.
func ValidHost(glob string) error {
	if err := policy.ValidatePattern(glob); err != nil {
		return fmt.Errorf("--host: %v", err)
	}
	return nil
}
