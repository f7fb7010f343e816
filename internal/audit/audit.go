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
	out := make([]Finding, 0, len(tools))
	for _, t := range tools {
		out = append(out, c.Tool(t)...)
	}
	return out
}

// Checker audits tools one at a time, for a view that shows only the tool at
// hand: the rules that compare tools with each other are prepared once.
// It is not safe for concurrent use.
type Checker struct {
	tools  []*client.Tool
	titles map[string]int32 // display title → how many tools have it
	// groups holds, for titles shared by several tools, their names; built at
	// the first shared title asked about, so a listing with none pays nothing.
	groups map[string]*dupGroup
}

// NewChecker prepares a checker for the tools of one listing. It runs in the
// TUI's Update on every listing, so it only counts titles: one map operation
// a tool.
func NewChecker(tools []*client.Tool) *Checker {
	titles := make(map[string]int32, len(tools))
	for _, t := range tools {
		titles[t.Title]++
	}
	return &Checker{tools: tools, titles: titles}
}

// Tool runs every rule on one tool.
func (c *Checker) Tool(t *client.Tool) []Finding {
	var out []Finding
	for _, r := range Rules {
		var msgs []string
		if r.ID == RuleDuplicateTitle {
			msgs = c.duplicateTitle(t)
		} else {
			msgs = r.check(t)
		}
		for _, m := range msgs {
			out = append(out, Finding{Tool: t.Name, Rule: r.ID, Severity: r.Severity, Message: m})
		}
	}
	return out
}

// ByTool groups findings by tool name in one pass, keeping their order; a
// report asks for every tool's findings, and ForTool per tool is quadratic.
func ByTool(findings []Finding) map[string][]Finding {
	out := map[string][]Finding{}
	for i := 0; i < len(findings); {
		j := i + 1
		for j < len(findings) && findings[j].Tool == findings[i].Tool {
			j++
		}
		// Check's findings come a tool at a time: share the run (capped, so a
		// later run of the same name copies rather than overwrites).
		if prev, ok := out[findings[i].Tool]; ok {
			out[findings[i].Tool] = append(prev, findings[i:j]...)
		} else {
			out[findings[i].Tool] = findings[i:j:j]
		}
		i = j
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

// dupGroup is the names of the tools sharing one title, sorted when first used.
type dupGroup struct {
	names  []string
	sorted bool
}

func (c *Checker) duplicateTitle(t *client.Tool) []string {
	if c.titles[t.Title] < 2 {
		return nil
	}
	if c.groups == nil {
		// One pass for every shared title: asking per title would scan the
		// listing once per group.
		c.groups = map[string]*dupGroup{}
		for _, o := range c.tools {
			if c.titles[o.Title] < 2 {
				continue
			}
			g := c.groups[o.Title]
			if g == nil {
				g = &dupGroup{names: make([]string, 0, c.titles[o.Title])}
				c.groups[o.Title] = g
			}
			g.names = append(g.names, o.Name)
		}
	}
	g := c.groups[t.Title]
	if g == nil {
		return nil // t is not one of the listing's tools
	}
	if !g.sorted {
		sort.Strings(g.names)
		g.sorted = true
	}
	// Others are every name but t's own (a name listed twice is not "another").
	lo := sort.SearchStrings(g.names, t.Name)
	hi := lo
	for hi < len(g.names) && g.names[hi] == t.Name {
		hi++
	}
	n := len(g.names) - (hi - lo)
	if n == 0 {
		return nil
	}
	named := make([]string, 0, dupNamed)
	for _, o := range g.names {
		if len(named) == dupNamed {
			break
		}
		if o != t.Name {
			named = append(named, o)
		}
	}
	return []string{dupMessage(t.Title, named, n)}
}
