package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/layout"
)

// serverView is which of the server's offerings the browse screen shows.
type serverView int

const (
	viewTools serverView = iota
	viewResources
	viewPrompts
)

var viewNames = [...]string{viewTools: "Tools", viewResources: "Resources", viewPrompts: "Prompts"}

// offers reports whether the server declared the capability behind v. A
// server that declares no tools still gets the tools view: it says so.
func (m *Model) offers(v serverView) bool {
	c := m.server.Capabilities
	switch v {
	case viewResources:
		return c.Resources
	case viewPrompts:
		return c.Prompts
	}
	return c.Tools
}

// onViewKey switches views; it reports whether msg was a view key.
func (m *Model) onViewKey(msg tea.KeyPressMsg) bool {
	k := m.keys
	switch {
	case key.Matches(msg, k.ViewTools):
		m.view = viewTools
	case key.Matches(msg, k.ViewResources):
		m.view = viewResources
	case key.Matches(msg, k.ViewPrompts):
		m.view = viewPrompts
	case key.Matches(msg, k.NextView):
		m.view = (m.view + 1) % serverView(len(viewNames))
	default:
		return false
	}
	return true
}

// viewCount is what the bar says beside a view's name.
func (m *Model) viewCount(v serverView) string {
	if !m.offers(v) && v != viewTools {
		return "—"
	}
	switch v {
	case viewResources:
		if l := m.resources.listing; l != nil {
			return fmt.Sprint(len(l.Resources) + len(l.Templates))
		}
		return "…"
	case viewPrompts:
		if l := m.prompts.listing; l != nil {
			return fmt.Sprint(len(l.Prompts))
		}
		return "…"
	}
	return fmt.Sprint(len(m.list.tools))
}

// viewBar is the line above the browse screen: the views, the current one
// picked out, and the keys that switch them when there is room.
func (m *Model) viewBar() string {
	var parts []string
	for v := range viewNames {
		label := " " + viewNames[v] + " " + m.viewCount(serverView(v)) + " "
		if serverView(v) == m.view {
			parts = append(parts, m.st.RowSelected.Render(label))
		} else {
			parts = append(parts, m.st.Muted.Render(label))
		}
	}
	bar := strings.Join(parts, " ")
	k := m.keys
	hint := m.st.Muted.Render(k.ViewTools.Help().Key + "/" + k.ViewResources.Help().Key + "/" + k.ViewPrompts.Help().Key + " or " + k.NextView.Help().Key)
	if ansi.StringWidth(bar)+2+ansi.StringWidth(hint) <= m.width {
		bar = termtext.Pad(bar, m.width-ansi.StringWidth(hint)) + hint
	}
	return bar
}

// renderBrowse is the browse screen: the bar, then the current view.
func (m *Model) renderBrowse(h int) string {
	bh := max(h-1, 1)
	var body string
	switch m.view {
	case viewResources:
		body = m.renderResources(bh)
	case viewPrompts:
		body = m.renderPrompts(bh)
	default:
		body = m.renderTools(bh)
	}
	return m.viewBar() + "\n" + body
}

// renderSplit puts a list on the left and a detail pane on the right, as
// the tools view does; below 64 columns there is only the list.
func (m *Model) renderSplit(left, detail []string, h int) string {
	lw := m.listWidth()
	left = layout.FitLines(strings.Join(left, "\n"), lw, h)
	dw := m.detailWidth()
	if dw == 0 {
		return strings.Join(left, "\n")
	}
	detail = layout.FitLines(strings.Join(detail, "\n"), dw, h)
	sep := m.st.Muted.Render("│")
	rows := make([]string, h)
	for i := range rows {
		rows[i] = termtext.Pad(left[i], lw) + " " + sep + " " + detail[i]
	}
	return strings.Join(rows, "\n")
}

// notOffered is what a view says when the server does not offer it.
func (m *Model) notOffered(what, capability string) []string {
	w := &layout.Lines{Width: max(m.width, 1)}
	w.Blank()
	w.Wrap(m.serverLabel()+" does not offer "+what+" (it declared no "+capability+" capability).", m.st.Muted)
	return w.Out
}
