package overlays

import (
	"fmt"
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
)

// logFilter picks the log pane's calls: by status (f cycles through them),
// open-world calls only (o), and text (after /) found in the tool's name or
// title or the server's name, case-insensitively.
type logFilter struct {
	status    client.Status // "" for every status
	openWorld bool
	text      string
}

// logStatuses is the order f cycles in; "" is every status.
var logStatuses = []client.Status{"", client.StatusOK, client.StatusToolError, client.StatusFailed, client.StatusRefused, client.StatusCancelled}

func (f *logFilter) nextStatus() {
	for i, s := range logStatuses {
		if s == f.status {
			f.status = logStatuses[(i+1)%len(logStatuses)]
			return
		}
	}
	f.status = ""
}

func (f logFilter) active() bool { return f.status != "" || f.openWorld || f.text != "" }

func (f logFilter) match(o *client.Outcome) bool {
	if f.status != "" && o.Status != f.status || f.openWorld && !o.OpenWorld {
		return false
	}
	for _, w := range strings.Fields(strings.ToLower(f.text)) {
		if !strings.Contains(strings.ToLower(o.Tool), w) && !strings.Contains(strings.ToLower(o.Title), w) &&
			!strings.Contains(strings.ToLower(o.Server), w) {
			return false
		}
	}
	return true
}

// filterLine says what the pane is filtered by and how many calls pass;
// "" when it is not filtered. While the text is typed it is the input.
func (p *Log) filterLine() string {
	if !p.typing && !p.filter.active() {
		return ""
	}
	var parts []string
	if p.typing {
		parts = append(parts, p.in.View())
	} else if p.filter.text != "" {
		parts = append(parts, p.st.Filter.Render("/ "+termtext.Line(p.filter.text)))
	}
	if s := p.filter.status; s != "" {
		parts = append(parts, "status "+StatusStyle(s, p.st).Render(StatusWord(s)))
	}
	if p.filter.openWorld {
		parts = append(parts, p.st.MarkOpenWorld.Render(MarkOpenWorld+" open-world only"))
	}
	count := 0
	for _, o := range p.outcomes {
		if o != nil {
			count++
		}
	}
	parts = append(parts, p.st.Muted.Render(fmt.Sprintf("%d of %s", len(p.shown), units.Plural(count, "call"))))
	return termtext.Truncate(strings.Join(parts, p.st.Muted.Render(" · ")), max(p.width, 1))
}
