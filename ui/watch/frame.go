package watch

import "slices"

// prepare lays out what the next View draws, at the end of every Update:
// the calls that pass the filter, where the cursor and the window are, the
// opened call's and help's lines, the dialog's arguments. View only reads.
func (m *Model) prepare() {
	m.shown = m.shown[:0]
	for i := len(m.state.calls) - 1; i >= 0; i-- {
		c := m.state.calls[i]
		if (m.sel == nil || c.proxy == m.sel) && m.filter.match(c) {
			m.shown = append(m.shown, c)
		}
	}
	// The cursor stays on its call as newer ones come in above it; at the
	// top (cur nil) it follows the newest.
	switch i := slices.Index(m.shown, m.cur); {
	case m.cur == nil:
		m.cursor = 0
	case i >= 0:
		m.cursor = i
	default:
		m.cursor = max(0, min(m.cursor, len(m.shown)-1))
		m.cur = nil
		if m.cursor > 0 {
			m.cur = m.shown[m.cursor]
		}
	}
	rows := m.callRows()
	m.top = max(0, min(m.top, len(m.shown)-rows))
	if m.cursor < m.top {
		m.top = m.cursor
	}
	if m.cursor >= m.top+rows {
		m.top = m.cursor - rows + 1
	}
	body := m.bodyHeight()
	if m.open != nil {
		m.detail.SetSize(m.width, body)
		m.detail.SetLines(m.detailLines(max(m.width, 1)))
	}
	if m.help {
		m.helpPane.SetSize(m.width, body)
		m.helpPane.SetLines(m.helpLines(max(m.width, 1)))
	}
	if q := m.dialog; q != nil {
		f := m.dialogLayout(q, body)
		if q.args == nil || q.argsW != f.Inner {
			q.args, q.argsW = f.Args, f.Inner
		}
		m.argTop = f.ArgTop
	}
}
