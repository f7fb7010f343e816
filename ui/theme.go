package ui

import (
	"charm.land/bubbles/v2/progress"
	tea "charm.land/bubbletea/v2"
)

// setBackground picks the theme for the terminal's background, which the
// terminal reports in tea.BackgroundColorMsg when Init asks for it
// (tea.RequestBackgroundColor); a terminal that does not answer keeps the
// dark theme. Under NO_COLOR nothing changes: there are no colours.
//
// The Styles are replaced in place, so every component holding the pointer
// draws with the new ones; what copied a style, or drew its lines ahead (the
// panes, which draw when their content changes, never on View), is told
// here. Commands never read the shared Styles: they take a copy when they
// are made (auditCmd), so the swap cannot race with them.
func (m *Model) setBackground(dark bool) tea.Cmd {
	if !m.st.SetBackground(dark) {
		return nil
	}
	st := m.st
	for _, s := range m.servers {
		s.filterIn.SetStyles(st.TextInput())
		s.traffic.Restyle()
		s.result.Restyle()
		s.serverPane.Restyle()
		if s.reader != nil {
			s.reader.render()
		}
		if s.promptOut != nil {
			s.promptOut.render()
		}
	}
	m.help.Styles.ShortKey, m.help.Styles.ShortDesc = st.Key, st.KeyDesc
	m.help.Styles.FullKey, m.help.Styles.FullDesc = st.Key, st.KeyDesc
	m.help.Styles.ShortSeparator, m.help.Styles.FullSeparator, m.help.Styles.Ellipsis = st.Muted, st.Muted, st.Muted
	m.spinner.Style = st.Title
	m.bar = progress.New(progress.WithoutPercentage(), progress.WithColors(st.ProgressFull, st.ProgressEmpty))
	m.pick.in.SetStyles(st.TextInput())
	m.logPane.Restyle()
	return m.shown().auditRerender() // the audit's lines were drawn ahead, off the loop
}
