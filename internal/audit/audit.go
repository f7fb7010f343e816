// Package audit checks a server's tool annotations the way a careful reviewer
// would: what is missing, what contradicts itself, what a tool's name says that
// its hints do not, and what each host will do with the tool because of it.
// Findings are data (tool, rule, severity, message); rendering is report.go.
package audit

import (
	"sort"

	"github.com/mcpsh/mcpsh/client"
)

// Severity ranks a finding. Name heuristics are never errors: a tool whose
// hints are explicit and consistent gets at most a warning from them.
type Severity string

const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Info    Severity = "info"
)

// Rank orders severities: error 3, warning 2, info 1, anything else 0.
func (s Severity) Rank() int {
	switch s {
	case Error:
		return 3
	case Warning:
		return 2
	case Info:
		return 1
	}
	return 0
}

// Finding is one problem with one tool.
type Finding struct {
	Tool     string   `json:"tool"`
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	// Message says what is wrong, what clients will do because of it, and the fix.
	Message string `json:"message"`
}

// Rule is one check, by its stable ID.
type Rule struct {
	ID       string
	Severity Severity
	Summary  string
	check    func(*client.Tool) []string // messages, one finding each
}

// Check runs every rule on every tool. Findings come in tool order, then in
// the order of Rules.
func Check(tools []*client.Tool) []Finding {
	c := NewChecker(tools)
	var out []Finding
	for _, t := range tools {
		out = append(out, c.Tool(t)...)
	}
	return out
}

// Checker audits tools one at a time, for a view that shows only the tool at
// hand: the rules that compare tools with each other are prepared once.
type Checker struct {
	dups map[string][]string // tool name → its duplicate-title messages
}

// NewChecker prepares a checker for the tools of one listing.
func NewChecker(tools []*client.Tool) *Checker {
	return &Checker{dups: duplicateTitles(tools)}
}

// Tool runs every rule on one tool.
func (c *Checker) Tool(t *client.Tool) []Finding {
	var out []Finding
	for _, r := range Rules {
		var msgs []string
		if r.ID == RuleDuplicateTitle {
			msgs = c.dups[t.Name]
		} else {
			msgs = r.check(t)
		}
		for _, m := range msgs {
			out = append(out, Finding{Tool: t.Name, Rule: r.ID, Severity: r.Severity, Message: m})
		}
	}
	return out
}

// ForTool picks one tool's findings.
func ForTool(findings []Finding, tool string) []Finding {
	var out []Finding
	for _, f := range findings {
		if f.Tool == tool {
			out = append(out, f)
		}
	}
	return out
}

// Count tallies findings by severity.
func Count(findings []Finding) map[Severity]int {
	c := map[Severity]int{}
	for _, f := range findings {
		c[f.Severity]++
	}
	return c
}

// AtOrAbove reports whether any finding is at least as severe as s.
func AtOrAbove(findings []Finding, s Severity) bool {
	for _, f := range findings {
		if f.Severity.Rank() >= s.Rank() {
			return true
		}
	}
	return false
}

func duplicateTitles(tools []*client.Tool) map[string][]string {
	byTitle := map[string][]string{}
	for _, t := range tools {
		byTitle[t.Title] = append(byTitle[t.Title], t.Name)
	}
	out := map[string][]string{}
	for title, names := range byTitle {
		if len(names) < 2 {
			continue
		}
		sort.Strings(names)
		for _, n := range names {
			var others []string
			for _, o := range names {
				if o != n {
					others = append(others, o)
				}
			}
			out[n] = []string{dupMessage(title, others)}
		}
	}
	return out
}
