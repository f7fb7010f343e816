package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/theme"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/overlays"
	"github.com/mcpsh/mcpsh/ui/style"
	"github.com/mcpsh/mcpsh/ui/tooldetail"
)

func TestConflictIsMarkedInTheListAndExplainedInTheDetail(t *testing.T) {
	scan := &client.Tool{Name: "scan", Title: "scan", Hints: policy.Hints{ReadOnly: policy.True, Destructive: policy.True, OpenWorld: policy.False}}
	read := &client.Tool{Name: "read", Title: "read", Hints: policy.Hints{ReadOnly: policy.True, OpenWorld: policy.False}}
	st := style.NewStyles(theme.Dark(), true)
	var l toolList
	l.SetTools([]*client.Tool{scan, read})
	for _, width := range []int{80, 40, 34} {
		view := ansi.Strip(l.View(st, width, 8))
		if !strings.Contains(view, "Destructive (1)") || !strings.Contains(view, overlays.MarkConflict+" conflict") {
			t.Errorf("width %d: the conflict is not grouped as destructive and explained:\n%s", width, view)
		}
		for _, line := range strings.Split(view, "\n") {
			if ansi.StringWidth(line) > width {
				t.Errorf("width %d: line too wide: %q", width, line)
			}
		}
	}
	got := ansi.Strip(tooldetail.Render(scan, policy.Decide(policy.Request{Tool: "scan", Hints: scan.Hints, Trust: policy.Trusted, Mode: policy.Interactive}), nil, 60, st))
	for _, want := range []string{"conflict: readOnlyHint and destructiveHint are both true", "asks first"} {
		if !strings.Contains(strings.Join(strings.Fields(got), " "), want) {
			t.Errorf("detail lacks %q:\n%s", want, got)
		}
	}
}
