package ui

import "charm.land/bubbles/v2/key"

// bindings are the keys that work right now, for the footer.
func (m *Model) bindings() []key.Binding {
	k := m.keys
	switch m.overlay {
	case overlayHelp:
		return []key.Binding{k.Close, k.Quit}
	case overlayLog, overlayServer, overlayAudit:
		return []key.Binding{k.ScrollUp, k.ScrollDown, k.Close, k.Quit}
	}
	switch m.mode {
	case modePicker:
		return []key.Binding{k.Up, k.Down, k.Choose, k.Quit}
	case modeConnecting:
		return []key.Binding{k.ForceQuit}
	case modeConnectFailed:
		b := []key.Binding{k.Retry, k.Quit}
		if len(m.opts.Choices) > 0 {
			b = append(b, k.Close)
		}
		return b
	case modeBrowse:
		if m.filtering {
			return []key.Binding{k.AcceptFilter, k.CancelFilter}
		}
		b := []key.Binding{k.Up, k.Down, k.Call}
		if t := m.list.Selected(); t != nil && len(t.Examples) > 0 {
			b = append(b, k.Example)
		}
		b = append(b, k.Filter)
		if m.filterIn.Value() != "" {
			b = append(b, k.ClearFilter)
		}
		return append(b, k.Audit, k.Log, k.Server, k.Help, k.Quit)
	case modeForm:
		b := append([]key.Binding{k.Run}, m.form.ShortHelp()...)
		return append(b, k.Back)
	case modeConfirm:
		return []key.Binding{k.Yes, k.No, k.AllowSession}
	case modeRunning:
		return []key.Binding{k.CancelCall, k.Log, k.Server, k.ForceQuit}
	case modeResult:
		return []key.Binding{k.ScrollUp, k.ScrollDown, k.Edit, k.Close, k.Log, k.Help, k.Quit}
	}
	return nil
}

// fullHelp is the help screen: every key of the current context, then the
// ones that work everywhere.
func (m *Model) fullHelp() [][]key.Binding {
	k := m.keys
	global := []key.Binding{k.Help, k.Log, k.Server, k.Audit, k.Quit, k.ForceQuit}
	switch m.mode {
	case modeBrowse:
		return [][]key.Binding{
			{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
			{k.Call, k.Example, k.Filter, k.AcceptFilter, k.ClearFilter, k.DetailDown, k.DetailUp},
			global,
		}
	case modeForm:
		return [][]key.Binding{
			{k.NextField, k.PrevField, k.Cycle},
			{k.Run, k.ToggleJSON, k.Examples, k.ExampleN, k.Back},
			global,
		}
	case modeResult:
		return [][]key.Binding{{k.ScrollUp, k.ScrollDown, k.Edit, k.Close}, global}
	case modeRunning:
		return [][]key.Binding{{k.CancelCall}, global}
	}
	return [][]key.Binding{global}
}
