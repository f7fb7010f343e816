package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// typeInto types text, a key press a character.
func typeInto(m *Model, text string) {
	for _, r := range text {
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// / filters the resources and prompts views as it does the tools view: the
// letters typed are the filter's, never the views' keys (typing "feat"
// used to jump to Tools on the t).
func TestSlashFiltersEveryView(t *testing.T) {
	m, _ := connectedFeatures(t, 80, 24)
	s := m.shown()
	send(m, "r", "/")
	typeInto(m, "settings") // t, r and p are view keys outside the filter
	if s.view != viewResources || !s.filtering {
		t.Fatalf("typing a filter in Resources: view %v, filtering %v", s.view, s.filtering)
	}
	if it, ok := s.resources.list.Selected(); !ok || it.Key() != "r info://config.json" || s.resources.list.Visible() != 1 {
		t.Fatalf("the filter found %d, selected %q; want config.json alone (by its description)", s.resources.list.Visible(), it.Key())
	}
	send(m, "enter")
	mustShow(t, m, "/ settings  1 of 5", "config")
	send(m, "esc")
	if s.resources.list.Visible() != 5 || s.resources.list.Filter() != "" {
		t.Fatalf("esc left the filter %q", s.resources.list.Filter())
	}

	send(m, "p", "/")
	typeInto(m, "tpr")
	if s.view != viewPrompts || s.prompts.list.Visible() != 0 {
		t.Fatalf("typing tpr in Prompts: view %v, %d prompts shown", s.view, s.prompts.list.Visible())
	}
	send(m, "esc")
	// Each view keeps its own filter.
	send(m, "/")
	typeInto(m, "greet")
	send(m, "enter", "t")
	if s.list.filter != "" || s.list.Visible() != 4 {
		t.Fatalf("the prompts' filter reached the tools: %q", s.list.filter)
	}
}

// A new / starts an empty filter, rather than adding to the one before it,
// which the user may not even see; ↑ in the empty filter brings the old one
// back to edit.
func TestSlashStartsANewFilter(t *testing.T) {
	m, _ := connected(t, true, 80, 24)
	s := m.shown()
	send(m, "/")
	typeInto(m, "note")
	send(m, "enter", "/")
	if got := s.filterIn.Value(); got != "" || s.list.filter != "" {
		t.Fatalf("/ reopened the filter %q (list %q)", got, s.list.filter)
	}
	typeInto(m, "echo")
	if s.list.filter != "echo" {
		t.Fatalf("the new filter is %q, want echo", s.list.filter)
	}
	send(m, "esc", "/", "up")
	if s.filterIn.Value() != "note" || s.list.filter != "note" {
		t.Fatalf("↑ in the empty filter: %q, want the last one, note", s.filterIn.Value())
	}
	typeInto(m, " add")
	if s.list.filter != "note add" {
		t.Fatalf("editing the recalled filter: %q", s.list.filter)
	}
}
