package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// The filter of the browse screen: each view (tools, resources, prompts)
// keeps its own, typed in the server's one filter box. "/" starts a new
// filter, empty, so what is typed is never added to an old one the user no
// longer sees; ↑ in the empty box brings back the last one it replaced, to
// edit.

// viewFilter is the filter of the view on screen.
func (s *serverState) viewFilter() string {
	switch s.view {
	case viewResources:
		return s.resources.list.Filter()
	case viewPrompts:
		return s.prompts.list.Filter()
	}
	return s.list.filter
}

// setViewFilter filters the view on screen.
func (s *serverState) setViewFilter(f string) {
	switch s.view {
	case viewResources:
		s.resources.list.SetFilter(f)
	case viewPrompts:
		s.prompts.list.SetFilter(f)
	default:
		s.list.SetFilter(f)
		s.detailTop = 0
	}
}

// startFilter opens a new, empty filter for the view on screen.
func (s *serverState) startFilter() tea.Cmd {
	if f := s.viewFilter(); f != "" {
		s.prevFilter = f
	}
	s.setViewFilter("")
	s.filterIn.SetValue("")
	s.filtering = true
	return s.filterIn.Focus()
}

// onViewFilterKey handles / and the key that clears a filter, in every
// view; it reports whether msg was one of them.
func (s *serverState) onViewFilterKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	switch {
	case key.Matches(msg, s.keys.Filter):
		return s.startFilter(), true
	case key.Matches(msg, s.keys.ClearFilter) && s.viewFilter() != "":
		s.filterIn.SetValue("")
		s.setViewFilter("")
		return nil, true
	}
	return nil, false
}

// onFilterKey takes the keys while a filter is typed.
func (s *serverState) onFilterKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, s.keys.AcceptFilter):
		s.filtering = false
		s.filterIn.Blur()
		return nil
	case key.Matches(msg, s.keys.CancelFilter):
		s.filtering = false
		s.filterIn.Blur()
		s.filterIn.SetValue("")
		s.setViewFilter("")
		return nil
	case key.Matches(msg, s.keys.RecallFilter):
		if s.filterIn.Value() == "" && s.prevFilter != "" {
			s.filterIn.SetValue(s.prevFilter)
			s.filterIn.CursorEnd()
			s.setViewFilter(s.filterIn.Value())
		}
		return nil
	}
	var cmd tea.Cmd
	s.filterIn, cmd = s.filterIn.Update(msg)
	settleInput(&s.filterIn)
	s.setViewFilter(s.filterIn.Value())
	return cmd
}

// filterBindings are the keys while a filter is typed.
func (s *serverState) filterBindings() []key.Binding {
	k := s.keys
	b := []key.Binding{k.AcceptFilter, k.CancelFilter}
	if s.filterIn.Value() == "" && s.prevFilter != "" {
		b = append(b, k.RecallFilter)
	}
	return b
}

// filterShown reports whether the view on screen draws its filter's line.
func (s *serverState) filterShown() bool { return s.filtering || s.viewFilter() != "" }

// filterLine is the filter's line over a list lw cells wide: the box being
// typed in, or the filter with how many of the list pass it.
func (s *serverState) filterLine(lw int) []string {
	if !s.filterShown() {
		return nil
	}
	top := s.filterIn.View()
	if !s.filtering {
		shown, total := s.list.Visible(), len(s.list.tools)
		switch s.view {
		case viewResources:
			shown, total = s.resources.list.Visible(), s.resources.list.Total()
		case viewPrompts:
			shown, total = s.prompts.list.Visible(), s.prompts.list.Total()
		}
		top = s.st.Filter.Render("/ "+termtext.Line(s.viewFilter())) + s.st.Muted.Render(fmt.Sprintf("  %d of %d", shown, total))
	}
	return []string{termtext.Truncate(top, lw)}
}

// listHeight is the rows of the list of a view h lines high: the filter,
// when there is one, takes a line.
func (s *serverState) listHeight(h int) int {
	if s.filterShown() {
		h--
	}
	return h
}
