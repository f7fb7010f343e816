package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/layout"
	"github.com/mcpsh/mcpsh/ui/style"
)

// The server picker (key W): every server of the workspace with where it is
// and its state; typing narrows them by name, ↑/↓ move, enter puts the one
// under the cursor on screen.

type serverPick struct {
	in     textinput.Model
	cursor int // index into the matches
}

func newServerPick(st *style.Styles) serverPick {
	p := serverPick{in: textinput.New()}
	p.in.SetStyles(st.TextInput())
	p.in.Prompt = "› "
	p.in.Placeholder = "type a server's name"
	return p
}

// matches are the indexes of the servers whose name contains the query,
// those that start with it first.
func (m *Model) pickMatches() []int {
	q := strings.ToLower(strings.TrimSpace(m.pick.in.Value()))
	var first, rest []int
	for i, s := range m.servers {
		name := strings.ToLower(s.name())
		switch {
		case strings.HasPrefix(name, q):
			first = append(first, i)
		case strings.Contains(name, q):
			rest = append(rest, i)
		}
	}
	return append(first, rest...)
}

// openPick shows the picker, the cursor on the server on screen.
func (m *Model) openPick() tea.Cmd {
	m.openPane(m.pickDialog())
	m.pick.in.SetValue("")
	m.pick.cursor = m.cur
	m.pick.in.SetWidth(max(m.width-4, 10))
	return m.pick.in.Focus()
}

func (m *Model) onPickKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	matches := m.pickMatches()
	switch {
	case key.Matches(msg, k.Close):
		m.closePane()
		return nil
	case key.Matches(msg, k.SuggestUp):
		m.pick.cursor = max(m.pick.cursor-1, 0)
		return nil
	case key.Matches(msg, k.SuggestDown):
		m.pick.cursor = min(m.pick.cursor+1, max(len(matches)-1, 0))
		return nil
	case key.Matches(msg, k.Choose):
		if m.pick.cursor >= len(matches) {
			return nil
		}
		m.closePane()
		m.setAskReturn(nil)
		return m.switchTo(matches[m.pick.cursor])
	}
	before := m.pick.in.Value()
	var cmd tea.Cmd
	m.pick.in, cmd = m.pick.in.Update(msg)
	settleInput(&m.pick.in)
	if m.pick.in.Value() != before {
		m.pick.cursor = 0
	}
	return cmd
}

// renderPick draws the picker.
func (m *Model) renderPick(h int) string {
	st := m.st
	w := &layout.Lines{Width: max(m.width, 1)}
	w.Add(st.Title.Render("Servers") + "  " + st.Muted.Render("type to narrow by name · enter switches · esc back"))
	w.Add(m.pick.in.View())
	w.Blank()
	matches := m.pickMatches()
	if len(matches) == 0 {
		w.Add(st.Muted.Render("no server's name contains " + termtext.Line(m.pick.in.Value())))
	}
	nameW := 4
	for _, i := range matches {
		nameW = max(nameW, min(ansi.StringWidth(termtext.Line(m.servers[i].name())), barNameMax))
	}
	top := max(m.pick.cursor-(h-4)+1, 0)
	for j, i := range matches {
		if j < top {
			continue
		}
		s := m.servers[i]
		cursor := "  "
		if j == m.pick.cursor {
			cursor = "› "
		}
		where := s.spec.Where
		if where == "" && s.target != nil {
			where = s.target.Via()
		}
		if s.spec.Origin != "" {
			where += " · " + s.spec.Origin
		}
		line := cursor + termtext.Pad(termtext.Truncate(termtext.Line(s.name()), nameW), nameW) + "  " + m.stateText(s, detailLong) +
			"  " + st.Muted.Render(termtext.Line(where))
		if i == m.cur {
			line += st.Muted.Render("  (on screen)")
		}
		if j == m.pick.cursor {
			line = st.RowSelected.Render(ansi.Strip(line))
		}
		w.Add(line)
	}
	return strings.Join(w.Out, "\n")
}
