package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/ui/tooldetail"
)

// detailW80 is the detail pane's width on an 80-column terminal: what the
// list (32) and the separator (3) leave.
const detailW80 = 80 - 32 - 3

func TestDetailAt80ColumnsWrapsAndSaysWhatIsIgnored(t *testing.T) {
	m, _ := connected(t, true, 80, 24)
	for _, name := range []string{"weather_forecast", "echo", "add_note", "search_notes"} {
		tool, _ := m.shown().session.Tool(name)
		got := tooldetail.Render(tool, m.shown().decision(tool), m.shown().findingsFor(tool), detailW80, m.st)
		assertWidth(t, name, got, detailW80)
		// Wrapped, not cut: the only ellipses are a server's own.
		if strings.Contains(ansi.Strip(got), "…") {
			t.Errorf("%s: a line was cut rather than wrapped:\n%s", name, ansi.Strip(got))
		}
		golden(t, "detail/"+name+"-45", got)
	}
	weather, _ := m.shown().session.Tool("weather_forecast")
	got := strings.Join(strings.Fields(ansi.Strip(tooldetail.Render(weather, m.shown().decision(weather), nil, 120, m.st))), " ")
	for _, want := range []string{
		"readOnly true true",
		"destructive — ignored: read-only tool",
		"idempotent false ignored: read-only tool",
		"openWorld true true",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the hints do not read %q:\n%s", want, got)
		}
	}
	echo, _ := m.shown().session.Tool("echo")
	got = strings.Join(strings.Fields(ansi.Strip(tooldetail.Render(echo, m.shown().decision(echo), nil, 120, m.st))), " ")
	if !strings.Contains(got, "destructive — true (spec default)") {
		t.Errorf("a hint left out does not say its value is the spec's default:\n%s", got)
	}
}
