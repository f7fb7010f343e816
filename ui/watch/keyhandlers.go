package watch

import (
	"errors"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/internal/console"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/scroll"
)

var errNoAnswer = errors.New("this view cannot answer")

// onKey routes a key: ctrl+c quits anywhere; the approval takes every
// other key while it is up; then help, the filter being typed, the
// opened call, and the lists.
func (m *Model) onKey(msg tea.KeyPressMsg) tea.Cmd {
	if key.Matches(msg, m.keys.ForceQuit) {
		return tea.Quit
	}
	if m.dialog != nil {
		return m.onDialogKey(msg)
	}
	m.notice = notice{}
	switch {
	case m.help:
		switch {
		case key.Matches(msg, m.keys.Close), key.Matches(msg, m.keys.Help):
			m.help = false
		case key.Matches(msg, m.keys.Quit):
			return tea.Quit
		default:
			m.helpPane.Scroll(msg, m.keys)
		}
		return nil
	case m.typing:
		return m.onFilterKey(msg)
	case m.open != nil:
		switch {
		case key.Matches(msg, m.keys.Close):
			m.open = nil
		case key.Matches(msg, m.keys.Help):
			m.help = true
		case key.Matches(msg, m.keys.Quit):
			return tea.Quit
		default:
			m.detail.Scroll(msg, m.keys)
		}
		return nil
	}
	return m.onListKey(msg)
}

// onDialogKey answers the question on screen. Only y, a and n or esc
// answer, and only once the dialog has been on screen ArmAfter; every
// other key (enter and space included) only scrolls or does nothing.
func (m *Model) onDialogKey(msg tea.KeyPressMsg) tea.Cmd {
	q := m.dialog
	var c console.Choice
	switch {
	case key.Matches(msg, m.keys.Yes):
		c = console.Run
	case key.Matches(msg, m.keys.AllowSession):
		c = console.Allow
	case key.Matches(msg, m.keys.No):
		c = console.Refuse
	case key.Matches(msg, m.keys.ScrollUp):
		m.argTop = max(m.argTop-1, 0)
		return nil
	case key.Matches(msg, m.keys.ScrollDown):
		m.argTop++
		return nil
	default:
		return nil
	}
	if !m.armed {
		return nil
	}
	m.dialog = nil
	m.state.answer(q)
	k := questionKey{q.proxy.id, q.q.ID}
	m.answered[k] = c
	m.notice = notice{text: "you answered " + toolName(q.q.Tool) + ": " + choiceWords(c)}
	return tea.Batch(m.answer(q, c), m.nextDialog())
}

func (m *Model) onFilterKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, m.keys.AcceptFilter):
		m.typing = false
		m.in.Blur()
		return m.nextDialog()
	case key.Matches(msg, m.keys.CancelFilter):
		m.typing = false
		m.in.Blur()
		m.in.SetValue("")
		m.setFilterText()
		return m.nextDialog()
	}
	var cmd tea.Cmd
	m.in, cmd = m.in.Update(msg)
	m.setFilterText()
	return cmd
}

// setFilterText takes what the filter's input holds, made safe to draw.
func (m *Model) setFilterText() {
	v := termtext.Line(m.in.Value())
	if v != m.in.Value() {
		m.in.SetValue(v)
	}
	m.filter.text = v
	m.cur = nil
}

func (m *Model) onListKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	switch {
	case key.Matches(msg, k.Quit):
		return tea.Quit
	case key.Matches(msg, k.Help):
		m.help = true
		m.helpPane.ScrollTo(0)
	case key.Matches(msg, k.NextServer):
		m.selectProxy(1)
	case key.Matches(msg, k.PrevServer):
		m.selectProxy(-1)
	case key.Matches(msg, k.OpenEntry):
		if m.cursor < len(m.shown) {
			m.open = m.shown[m.cursor]
			m.detail.ScrollTo(0)
		}
	case key.Matches(msg, k.FilterStatus):
		m.filter.nextStatus()
		m.cur = nil
	case key.Matches(msg, k.OpenWorldOnly):
		m.filter.openWorld = !m.filter.openWorld
		m.cur = nil
	case key.Matches(msg, k.Filter):
		m.typing = true
		m.in.SetValue(m.filter.text)
		m.in.CursorEnd()
		return m.in.Focus()
	case key.Matches(msg, k.ClearFilter):
		m.filter = filter{}
		m.in.SetValue("")
		m.cur = nil
	default:
		if d, ok := scroll.CursorMove(msg, k, max(m.callRows()-1, 1), len(m.shown)); ok {
			m.cursor = max(0, min(m.cursor+d, len(m.shown)-1))
			m.cur = nil
			if m.cursor > 0 {
				m.cur = m.shown[m.cursor]
			}
		}
	}
	return nil
}

// selectProxy moves the selection d proxies on, through "all" (nil).
func (m *Model) selectProxy(d int) {
	ps := m.state.proxies
	i := 0 // all
	for n, p := range ps {
		if p == m.sel {
			i = n + 1
		}
	}
	i = (i + d + len(ps) + 1) % (len(ps) + 1)
	m.sel = nil
	if i > 0 {
		m.sel = ps[i-1]
	}
	m.cur, m.cursor, m.top = nil, 0, 0
}

// answer takes q off the queue once this console answered it: the call
// no longer waits here, whoever's answer wins.
func (s *state) answer(q *question) {
	for i, x := range s.questions {
		if x == q {
			s.questions = append(s.questions[:i:i], s.questions[i+1:]...)
			break
		}
	}
	if c := s.byKey[callKey{q.proxy.id, q.q.Call}]; c != nil {
		c.waiting = false
	}
}

// toolName is a tool's name, safe to draw.
func toolName(s string) string { return termtext.Truncate(termtext.Line(s), 60) }

// lineOf is a proxy's or server's text on one line, safe to draw.
func lineOf(s string) string { return termtext.Line(s) }
