package overlays

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/audit"
	"github.com/mcpsh/mcpsh/policy"
)

// The audit's first line names the server and how it is reached, then the
// counts: a long command line must not push the counts off a 120-column
// pane. Long lines wrap; none is cut.
func TestAuditPaneWrapsRatherThanCuts(t *testing.T) {
	via := "stdio: npx -y @modelcontextprotocol/server-everything --with a --very --long --command line --that --goes --on"
	tools := []*client.Tool{{Name: "echo"}}
	r := audit.New("everything", via, policy.Trusted, tools)
	lines := RenderAudit(r, 120, monoStyles).Lines
	text := ansi.Strip(strings.Join(lines, "\n"))
	if !strings.Contains(text, "1 tool · ") || !strings.Contains(text, "warning") {
		t.Fatalf("the counts are not on screen:\n%s", text)
	}
	if !strings.Contains(strings.Join(strings.Fields(text), " "), "--that --goes --on") {
		t.Fatalf("the command line was cut:\n%s", text)
	}
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > 120 {
			t.Fatalf("a line is %d cells wide: %q", w, l)
		}
	}
}
