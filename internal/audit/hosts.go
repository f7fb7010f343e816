package audit

import (
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/policy"
)

// Action is what a host does with a tool.
type Action string

const (
	Runs    Action = "runs"    // runs without asking
	Asks    Action = "asks"    // asks the user before each call
	Hidden  Action = "hidden"  // not offered at all in that mode
	Reviews Action = "reviews" // runs, and puts its results up for review
)

// HostAction is one host's treatment of one tool.
type HostAction struct {
	Host   string `json:"host"`
	Action Action `json:"action"`
	Note   string `json:"note,omitempty"`
}

// Hosts are the hosts previewed, in report order.
var Hosts = []string{"mcpsh", "VS Code", "Claude Code (plan mode)", "Cursor (Ask mode)", "OpenAI Codex"}

// PreviewTool says what each host would do with t, from the behaviours the
// hosts document (see mcp-client-facts.md §1): they act on the spec's literal
// reading, defaults included, and most of them on readOnlyHint alone. mcpsh's
// column comes from policy.Decide, which reads a Conflict the strict way.
func PreviewTool(t *client.Tool, trust policy.Trust) []HostAction {
	e := t.Hints.Literal()
	d := policy.Decide(policy.Request{Tool: t.Name, Hints: t.Hints, Trust: trust, Mode: policy.Interactive, MaxAttempts: 4})
	mcpsh := HostAction{Host: "mcpsh", Action: Runs}
	if d.Verdict == policy.Ask {
		mcpsh.Action = Asks
	}
	var notes []string
	if d.ReplaySafe {
		notes = append(notes, "retried on transient failures")
	}
	if d.OpenWorld {
		notes = append(notes, "logged as open-world")
	}
	mcpsh.Note = strings.Join(notes, "; ")

	vscode := HostAction{Host: "VS Code", Action: Asks, Note: "every tool that is not read-only asks first"}
	if e.ReadOnly {
		vscode = HostAction{Host: "VS Code", Action: Runs}
	}
	if e.OpenWorld {
		if vscode.Action == Runs {
			vscode.Action = Reviews
		}
		vscode.Note = "open-world: its results are put up for review"
	}
	plan := HostAction{Host: "Claude Code (plan mode)", Action: Hidden, Note: "plan mode admits only readOnlyHint: true"}
	ask := HostAction{Host: "Cursor (Ask mode)", Action: Hidden, Note: "Ask mode runs only readOnlyHint: true"}
	if e.ReadOnly {
		plan, ask = HostAction{Host: plan.Host, Action: Runs}, HostAction{Host: ask.Host, Action: Runs}
	}
	codex := HostAction{Host: "OpenAI Codex", Action: Runs, Note: "no approval documented for non-destructive writes"}
	switch {
	case e.ReadOnly:
		codex = HostAction{Host: codex.Host, Action: Runs, Note: "read-only skips approval"}
	case e.Destructive:
		codex = HostAction{Host: codex.Host, Action: Asks, Note: "destructive (declared or by default) goes through approval"}
	}
	return []HostAction{mcpsh, vscode, plan, ask, codex}
}

// Directory is an app directory's annotation requirements, and how many tools meet them.
type Directory struct {
	Name     string   `json:"name"`
	Requires string   `json:"requires"`
	Ready    int      `json:"ready"`
	Total    int      `json:"total"`
	Missing  []string `json:"missing"` // "tool: what it lacks", one per tool not ready
}

// Readiness checks every tool against the Anthropic and OpenAI app
// directories' documented requirements.
func Readiness(tools []*client.Tool) []Directory {
	anthropic := Directory{Name: "Anthropic directory", Requires: "a title, readOnlyHint and destructiveHint on every tool", Total: len(tools)}
	openai := Directory{Name: "OpenAI apps (ChatGPT)", Requires: "readOnlyHint, destructiveHint and openWorldHint explicit on every tool", Total: len(tools)}
	for _, t := range tools {
		var a, o []string
		if t.ToolTitle == "" && t.AnnTitle == "" {
			a = append(a, "a title")
		}
		for _, f := range []policy.Field{policy.FieldReadOnly, policy.FieldDestructive, policy.FieldOpenWorld} {
			if t.Hints.Get(f).Declared() {
				continue
			}
			if f != policy.FieldOpenWorld {
				a = append(a, string(f))
			}
			o = append(o, string(f))
		}
		tally(&anthropic, t.Name, a)
		tally(&openai, t.Name, o)
	}
	return []Directory{anthropic, openai}
}

func tally(d *Directory, tool string, missing []string) {
	if len(missing) == 0 {
		d.Ready++
		return
	}
	d.Missing = append(d.Missing, tool+": "+strings.Join(missing, ", "))
}
