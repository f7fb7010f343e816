package overlays

import (
	"charm.land/lipgloss/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/style"
)

// How a call's outcome reads on screen, the same in the result view and the
// session log: its status, its attempts, who approved it.

// MarkOpenWorld marks what may reach outside systems: an open-world tool in
// the list, an open-world call in the session log.
const MarkOpenWorld = "◆"

// The other marks shown beside a tool, in the tool list and its detail.
const (
	MarkIdempotent = "↻"
	MarkImplied    = "~"
	// MarkConflict takes the place of MarkImplied: a tool declared both
	// read-only and destructive, read as destructive.
	MarkConflict = "!"
	// MarkAllowed: the user allowed the tool for this session (a in the
	// confirmation dialog); MarkDenied: a deny rule blocks it.
	MarkAllowed = "✓"
	MarkDenied  = "⊘"
)

// MarkUntrusted marks an untrusted server where there is no room for the
// word (the server bar): not "!", which is a tool's conflicting hints.
const MarkUntrusted = "⚠"

// nameMax caps the name of a rule or an approver.
const nameMax = 120

// StatusWord is how a status reads on screen.
func StatusWord(s client.Status) string {
	switch s {
	case client.StatusToolError:
		return "tool error"
	case "":
		return "unknown"
	}
	return termtext.Line(string(s))
}

// StatusStyle is the style a status is drawn in.
func StatusStyle(s client.Status, st *style.Styles) lipgloss.Style {
	switch s {
	case client.StatusOK:
		return st.OK
	case client.StatusRefused, client.StatusCancelled:
		return st.Warning
	}
	return st.Error
}

// Approver says who or what let the call run; "" when nobody had to.
func Approver(o *client.Outcome) string {
	switch o.ApprovedBy {
	case "":
		return ""
	case policy.ByPolicy:
		return "no confirmation needed"
	case policy.ByRule:
		if o.Rule != "" {
			return "allowed by rule " + termtext.Truncate(termtext.Line(o.Rule), nameMax)
		}
		return "allowed by a rule"
	case policy.ByCaller:
		return "approved by --yes"
	case policy.BySession:
		return "allowed for this session"
	case policy.ByUser:
		return "approved by the user"
	case policy.ByHost:
		return "approved by the host's user"
	case policy.ByConsole:
		return "approved at the console"
	}
	return "approved by " + termtext.Truncate(termtext.Line(string(o.ApprovedBy)), nameMax)
}
