package overlays

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/scroll"
)

// The traffic pane's keys: move, / filter by method, enter open, c copy,
// and in an opened message scroll and esc back.

// OnKey handles a key in the pane, and says what a copy did, for the status
// line. It reports false for keys the pane leaves to the overlays' common
// keys.
func (p *Traffic) OnKey(msg tea.KeyPressMsg) (cmd tea.Cmd, status string, handled bool) {
	k := p.keys
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
			p.filterIn, cmd = p.filterIn.Update(msg)
			p.setFilter(p.filterIn.Value())
			return cmd, "", true
		}
		p.clamp()
		return nil, "", true
	}
	if o := p.open; o != nil {
		switch {
		case key.Matches(msg, k.Close):
			p.open = nil
		case key.Matches(msg, k.Copy):
			cmd, status = p.copyCmd()
			return cmd, status, true
		case !o.body.Scroll(msg, k):
			return nil, "", false
		}
		return nil, "", true
	}
	if n, ok := scroll.CursorMove(msg, k, max(p.rowsHeight()-1, 1), len(p.shown)); ok {
		p.move(n)
		return nil, "", true
	}
	switch {
	case key.Matches(msg, k.Close) && p.filter != "":
		p.filterIn.SetValue("")
		p.setFilter("")
	case key.Matches(msg, k.Filter):
		p.filtering = true
		p.clamp()
		return p.filterIn.Focus(), "", true
	case key.Matches(msg, k.OpenEntry):
		p.openSelected()
	case key.Matches(msg, k.Copy):
		cmd, status = p.copyCmd()
		return cmd, status, true
	default:
		return nil, "", false
	}
	return nil, "", true
}

// Forward gives other messages (the cursor's blinks) to the filter being
// typed.
func (p *Traffic) Forward(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	p.filterIn, cmd = p.filterIn.Update(msg)
	return cmd
}

// Bindings are the pane's keys that work now, for the footer.
func (p *Traffic) Bindings() []key.Binding {
	k := p.keys
	switch {
	case p.filtering:
		return []key.Binding{k.AcceptFilter, k.CancelFilter}
	case p.open != nil:
		return []key.Binding{k.ScrollUp, k.ScrollDown, keymap.Relabel(k.Copy, "copy (OSC 52)"), k.Close}
	}
	b := []key.Binding{k.Up, k.Down, keymap.Relabel(k.OpenEntry, "open"), k.Copy, keymap.Relabel(k.Filter, "filter by method")}
	if p.filter != "" {
		b = append(b, k.ClearFilter)
	}
	return append(b, k.Close)
}
