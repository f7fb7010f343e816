package ui

import (
	"charm.land/bubbles/v2/key"
	"github.com/mcpsh/mcpsh/ui/keymap"
)

// bindings are the keys that work right now, for the footer: the server's
// requests' first (askqueue.go), then the screen's.
func (m *Model) bindings() []key.Binding {
	if m.dialog != nil {
		// The dialog's answers, then the keys for the server's requests as
		// a whole, then the dialog's other keys (its fields, scrolling).
		d := m.dialog.bindings()
		n := min(3, len(d))
		return append(append(d[:n:n], m.askQueueBindings()...), d[n:]...)
	}
	b := m.askQueueBindings()
	if m.muted && m.overlay == overlayNone {
		b = append(b, keymap.Relabel(m.keys.Mute, "unmute its requests"))
	}
	return append(b, m.screenBindings()...)
}

// screenBindings are the keys of the mode or overlay on screen.
func (m *Model) screenBindings() []key.Binding {
	k := m.keys
	switch m.overlay {
	case overlayHelp:
		return []key.Binding{k.ScrollUp, k.ScrollDown, k.Close, k.Help, k.Quit}
	case overlayLog:
		b := m.logPane.Bindings()
		if m.logPane.Typing() {
			return b
		}
		return append(b, k.Help, k.Quit)
	case overlayServer, overlayAudit:
		return []key.Binding{k.ScrollUp, k.ScrollDown, k.Close, k.Quit}
	}
	switch m.mode {
	case modeConnecting:
		return []key.Binding{k.ForceQuit}
	case modeConnectFailed:
		var b []key.Binding
		if m.startProblem() == "" {
			b = append(b, k.Retry)
		}
		if m.canLogin() {
			b = append(b, k.Login)
		}
		b = append(b, k.Quit)
		if m.workspace() {
			b = append(b, keymap.Relabel(k.Close, "pick a server"))
		}
		return b
	case modeBrowse:
		if m.filtering {
			return []key.Binding{k.AcceptFilter, k.CancelFilter}
		}
		switch m.view {
		case viewResources:
			return m.itemBindings(m.resourcesEnter())
		case viewPrompts:
			return m.itemBindings(keymap.Relabel(k.Call, "fill in and get"))
		}
		b := []key.Binding{k.Up, k.Down}
		if t := m.list.Selected(); t != nil {
			b = append(b, k.Call)
			if len(t.Examples) > 0 {
				b = append(b, k.Example)
			}
			if _, ok := m.allowed[t.Name]; ok {
				b = append(b, k.Unallow)
			}
		}
		b = append(b, k.Filter)
		if m.filterIn.Value() != "" {
			b = append(b, k.ClearFilter)
		}
		return append(b, k.NextView, k.Audit, k.Log, k.Server, k.Help, k.Quit)
	case modeForm:
		b := append([]key.Binding{k.Run}, m.form.ShortHelp()...)
		return append(b, k.Back)
	case modeConfirm:
		b := []key.Binding{k.Yes, k.No, k.AllowSession}
		if m.pending != nil && m.pending.scrolls {
			b = append(b, keymap.Relabel(k.ScrollDown, "more arguments"), keymap.Relabel(k.ScrollUp, "back"))
		}
		return b
	case modeRunning:
		return []key.Binding{k.CancelCall, k.Log, k.Server, k.Help, k.ForceQuit}
	case modeResult:
		return m.resultBindings()
	case modeArgs:
		run := keymap.Relabel(k.Run, "get")
		if m.strForm.Template != nil {
			run = keymap.Relabel(k.Run, "read")
		}
		return append(append([]key.Binding{run}, m.strForm.ShortHelp()...), k.Back)
	case modeResource:
		if s := m.saving; s != nil {
			if s.exists != "" {
				return []key.Binding{k.Overwrite, k.KeepFile}
			}
			return []key.Binding{k.SaveHere, k.Close}
		}
		return m.resourceBindings()
	case modePrompt:
		return []key.Binding{k.ScrollUp, k.ScrollDown, keymap.Relabel(k.Edit, "edit and get again"), k.Close, k.Help}
	case modeLogin:
		return []key.Binding{keymap.Relabel(k.Close, "cancel the login"), k.ForceQuit}
	}
	return nil
}

// resultBindings are the result view's keys that work now.
func (m *Model) resultBindings() []key.Binding {
	k, r := m.keys, m.result
	if s := r.save; s != nil {
		if s.exists != "" {
			return []key.Binding{k.Overwrite, k.KeepFile}
		}
		b := []key.Binding{k.SaveHere}
		if len(saveable(r.outcome)) > 1 {
			b = append(b, keymap.Relabel(k.NextArg, "next to save"))
		}
		return append(b, keymap.Relabel(k.Close, "cancel saving"))
	}
	raw := k.RawJSON
	if r.raw {
		raw = keymap.Relabel(raw, "rendered (as mcpsh reads it)")
	}
	b := []key.Binding{k.ScrollUp, k.ScrollDown, k.Edit, raw, k.Copy}
	if len(saveable(r.outcome)) > 0 {
		b = append(b, k.Save)
	}
	return append(b, k.Close, k.Log, k.Help, k.Quit)
}

// itemBindings are the keys of the resources and prompts views.
func (m *Model) itemBindings(enter key.Binding) []key.Binding {
	k := m.keys
	return []key.Binding{k.Up, k.Down, enter, k.NextView, k.Log, k.Server, k.Help, k.Quit}
}

// resourcesEnter is what enter does on the resource under the cursor.
func (m *Model) resourcesEnter() key.Binding {
	if _, tmpl := m.selectedResource(); tmpl != nil {
		return keymap.Relabel(m.keys.Call, "fill in and read")
	}
	return keymap.Relabel(m.keys.Call, "read")
}
