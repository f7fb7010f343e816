package ui

import (
	"charm.land/bubbles/v2/key"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/resultview"
)

// bindings are the keys that work right now, for the footer: the dialog
// on top names its own; with none, the keys for the server's requests
// (askqueue.go), then its screen's.
func (m *Model) bindings() []key.Binding {
	if d := m.top(); d != nil {
		return d.bindings()
	}
	s := m.shown()
	b := s.askQueueBindings()
	if s.muted {
		b = append(b, keymap.Relabel(m.keys.Mute, "unmute its requests"))
	}
	return append(b, s.modeBindings()...)
}

// connectFailedBindings are the failure screen's keys.
func (s *serverState) connectFailedBindings() []key.Binding {
	k := s.keys
	var b []key.Binding
	if s.startProblem() == "" {
		b = append(b, k.Retry)
	}
	if s.canLogin() {
		b = append(b, k.Login)
	}
	b = append(b, k.Quit)
	if s.workspace() {
		b = append(b, keymap.Relabel(k.Close, "pick a server"))
	}
	return b
}

// browseBindings are the keys of the view on screen: tools, resources or
// prompts.
func (s *serverState) browseBindings() []key.Binding {
	k := s.keys
	if s.filtering {
		return s.filterBindings()
	}
	switch s.view {
	case viewResources:
		return s.itemBindings(s.resourcesEnter())
	case viewPrompts:
		return s.itemBindings(keymap.Relabel(k.Call, "fill in and get"))
	}
	b := []key.Binding{k.Up, k.Down}
	if t := s.list.Selected(); t != nil {
		b = append(b, k.Call)
		if len(t.Examples) > 0 {
			b = append(b, k.Example)
		}
		if _, ok := s.allowed[t.Name]; ok {
			b = append(b, k.Unallow)
		}
	}
	b = append(b, s.viewFilterBindings()...)
	return append(b, k.NextView, k.Audit, k.Log, k.Server, k.Help, k.Quit)
}

// confirmBindings are the confirmation's own keys (confirmdialog.go).
func (s *serverState) confirmBindings() []key.Binding {
	k := s.keys
	b := []key.Binding{k.Yes, k.No, k.AllowSession}
	if s.pending != nil && s.pending.scrolls {
		b = append(b, keymap.Relabel(k.ScrollDown, "more arguments"), keymap.Relabel(k.ScrollUp, "back"))
	}
	return b
}

// stringFormBindings are the keys of a template's or a prompt's form.
func (s *serverState) stringFormBindings() []key.Binding {
	k := s.keys
	run := keymap.Relabel(k.Run, "get")
	if s.strForm.Template != nil {
		run = keymap.Relabel(k.Run, "read")
	}
	return append(append([]key.Binding{run}, s.strForm.ShortHelp()...), k.Back)
}

// resultBindings are the result view's keys that work now.
func (s *serverState) resultBindings() []key.Binding {
	k, r := s.keys, s.result
	if sp := r.Save(); sp != nil {
		if sp.Exists() != "" {
			return []key.Binding{k.Overwrite, k.KeepFile}
		}
		b := []key.Binding{k.SaveHere}
		if len(resultview.Saveable(r.Outcome())) > 1 {
			b = append(b, keymap.Relabel(k.NextArg, "next to save"))
		}
		return append(b, keymap.Relabel(k.Close, "cancel saving"))
	}
	raw := k.RawJSON
	if r.Raw() {
		raw = keymap.Relabel(raw, "rendered (as mcpsh reads it)")
	}
	b := []key.Binding{k.ScrollUp, k.ScrollDown, k.Edit, raw, k.Copy}
	if len(resultview.Saveable(r.Outcome())) > 0 {
		b = append(b, k.Save)
	}
	return append(b, k.Close, k.Log, k.Help, k.Quit)
}

// itemBindings are the keys of the resources and prompts views.
func (s *serverState) itemBindings(enter key.Binding) []key.Binding {
	k := s.keys
	b := append([]key.Binding{k.Up, k.Down, enter}, s.viewFilterBindings()...)
	return append(b, k.NextView, k.Log, k.Server, k.Help, k.Quit)
}

// viewFilterBindings are the filter's keys in every view.
func (s *serverState) viewFilterBindings() []key.Binding {
	if s.viewFilter() != "" {
		return []key.Binding{s.keys.Filter, s.keys.ClearFilter}
	}
	return []key.Binding{s.keys.Filter}
}

// resourcesEnter is what enter does on the resource under the cursor.
func (s *serverState) resourcesEnter() key.Binding {
	if _, tmpl := s.selectedResource(); tmpl != nil {
		return keymap.Relabel(s.keys.Call, "fill in and read")
	}
	return keymap.Relabel(s.keys.Call, "read")
}
