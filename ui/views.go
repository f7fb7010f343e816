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
func (s *serverState) offers(v serverView) bool {
	c := s.server.Capabilities
	switch v {
	case viewResources:
		return c.Resources
	case viewPrompts:
		return c.Prompts
	}
	return c.Tools
}

// onViewKey switches views; it reports whether msg was a view key.
func (s *serverState) onViewKey(msg tea.KeyPressMsg) bool {
	k := s.keys
	switch {
	case key.Matches(msg, k.ViewTools):
		s.view = viewTools
	case key.Matches(msg, k.ViewResources):
		s.view = viewResources
	case key.Matches(msg, k.ViewPrompts):
		s.view = viewPrompts
	case key.Matches(msg, k.NextView):
		s.view = (s.view + 1) % serverView(len(viewNames))
	default:
		return false
	}
	return true
}

// viewCount is what the bar says beside a view's name.
func (s *serverState) viewCount(v serverView) string {
	if !s.offers(v) && v != viewTools {
		return "—"
	}
	switch v {
	case viewResources:
		if l := s.resources.listing; l != nil {
			return fmt.Sprint(len(l.Resources) + len(l.Templates))
		}
		return "…"
	case viewPrompts:
		if l := s.prompts.listing; l != nil {
			return fmt.Sprint(len(l.Prompts))
		}
		return "…"
	}
	return fmt.Sprint(len(s.list.tools))
}

// viewBar is the line above the browse screen: the views, the current one
// picked out, and the keys that switch them when there is room.
func (s *serverState) viewBar() string {
	var parts []string
	for v := range viewNames {
		label := " " + viewNames[v] + " " + s.viewCount(serverView(v)) + " "
		if serverView(v) == s.view {
			parts = append(parts, s.st.RowSelected.Render(label))
		} else {
			parts = append(parts, s.st.Muted.Render(label))
		}
	}
	bar := strings.Join(parts, " ")
	k := s.keys
	hint := s.st.Muted.Render(k.ViewTools.Help().Key + "/" + k.ViewResources.Help().Key + "/" + k.ViewPrompts.Help().Key + " or " + k.NextView.Help().Key)
	if ansi.StringWidth(bar)+2+ansi.StringWidth(hint) <= s.width {
		bar = termtext.Pad(bar, s.width-ansi.StringWidth(hint)) + hint
	}
	return bar
}

// renderBrowse is the browse screen: the bar, then the current view.
func (s *serverState) renderBrowse(h int) string {
	bh := max(h-1, 1)
	var body string
	switch s.view {
	case viewResources:
		body = s.renderResources(bh)
	case viewPrompts:
		body = s.renderPrompts(bh)
	default:
		body = s.renderTools(bh)
	}
	return s.viewBar() + "\n" + body
}

// renderSplit puts a list on the left and a detail pane on the right, as
// the tools view does; below 64 columns there is only the list.
func (s *serverState) renderSplit(left, detail []string, h int) string {
	lw := s.listWidth()
	left = layout.FitLines(strings.Join(left, "\n"), lw, h)
	dw := s.detailWidth()
	if dw == 0 {
		return strings.Join(left, "\n")
	}
	detail = layout.FitLines(strings.Join(detail, "\n"), dw, h)
	sep := s.st.Muted.Render("│")
	rows := make([]string, h)
	for i := range rows {
		rows[i] = termtext.Pad(left[i], lw) + " " + sep + " " + detail[i]
	}
	return strings.Join(rows, "\n")
}

// notOffered is what a view says when the server does not offer it.
func (s *serverState) notOffered(what, capability string) []string {
	w := &layout.Lines{Width: max(s.width, 1)}
	w.Blank()
	w.Wrap(s.serverLabel()+" does not offer "+what+" (it declared no "+capability+" capability).", s.st.Muted)
	return w.Out
}
