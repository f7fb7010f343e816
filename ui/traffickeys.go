package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/ui/pane"
)

// The traffic pane's keys: move, / filter by method, enter open, c copy,
// and in an opened message scroll and esc back.

// onTrafficKey handles a key in the traffic pane. It reports false for keys
// the pane leaves to the overlays' common keys.
func (m *Model) onTrafficKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	p, k := m.traffic, m.keys
	if p.filtering {
		switch {
		case key.Matches(msg, k.AcceptFilter):
			p.filtering = false
			p.filterIn.Blur()
		case key.Matches(msg, k.CancelFilter):
			p.filtering = false
			p.filterIn.Blur()
			p.filterIn.SetValue("")
			p.setFilter("")
		default:
			var cmd tea.Cmd
			p.filterIn, cmd = p.filterIn.Update(msg)
			p.setFilter(p.filterIn.Value())
			return cmd, true
		}
		p.clamp()
		return nil, true
	}
	if o := p.open; o != nil {
		switch {
		case key.Matches(msg, k.Close):
			p.open = nil
		case key.Matches(msg, k.Copy):
			cmd, note := p.copyCmd()
			m.status = note
			return cmd, true
		case !o.body.Scroll(msg, k):
			return nil, false
		}
		return nil, true
	}
	if n, ok := pane.CursorMove(msg, k, max(p.rowsHeight()-1, 1), len(p.shown)); ok {
		p.move(n)
		return nil, true
	}
	switch {
	case key.Matches(msg, k.Close) && p.filter != "":
		p.filterIn.SetValue("")
		p.setFilter("")
	case key.Matches(msg, k.Filter):
		p.filtering = true
		p.clamp()
		return p.filterIn.Focus(), true
	case key.Matches(msg, k.OpenEntry):
		p.openSelected()
	case key.Matches(msg, k.Copy):
		cmd, note := p.copyCmd()
		m.status = note
		return cmd, true
	default:
		return nil, false
	}
	return nil, true
}

// trafficBindings are the pane's keys, for the footer.
func (m *Model) trafficBindings() []key.Binding {
	p, k := m.traffic, m.keys
	switch {
	case p.filtering:
		return []key.Binding{k.AcceptFilter, k.CancelFilter}
	case p.open != nil:
		return []key.Binding{k.ScrollUp, k.ScrollDown, relabel(k.Copy, "copy (OSC 52)"), k.Close}
	}
	b := []key.Binding{k.Up, k.Down, relabel(k.OpenEntry, "open"), k.Copy, relabel(k.Filter, "filter by method")}
	if p.filter != "" {
		b = append(b, k.ClearFilter)
	}
	b = append(b, k.Close)
	return append(b, m.switchBindings()...)
}
