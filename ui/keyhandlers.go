package ui

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// The key handlers: onKey routes a key press to the mode or overlay that has
// focus. Like the rest of Update they do no I/O: a key that needs the server
// returns a command.

func (m *Model) onKey(msg tea.KeyPressMsg) tea.Cmd {
	m.status = ""
	k := m.keys
	if key.Matches(msg, k.ForceQuit) {
		return m.quit()
	}
	// A server's request comes first, over whatever is on screen.
	if m.dialog != nil {
		return m.onDialogKey(msg)
	}
	switch m.overlay {
	case overlayNone:
	case overlayServers:
		return m.onPickKey(msg)
	case overlayTraffic:
		if cmd, ok := m.onTrafficKey(msg); ok {
			return cmd
		}
		return m.onOverlayKey(msg)
	default:
		return m.onOverlayKey(msg)
	}
	switch m.mode {
	case modeConfirm:
		return m.onConfirmKey(msg)
	case modeBrowse:
		if m.filtering {
			return m.onFilterKey(msg)
		}
	case modeForm:
		if m.form.Editing() || m.form.Picking() {
			return m.onFormKey(msg)
		}
	case modeArgs:
		return m.onStringFormKey(msg) // its fields always take text
	case modeResult:
		if m.result.Typing() {
			return m.result.Update(msg) // a file name being typed
		}
	case modeResource:
		if m.saving != nil {
			return m.onSaveKey(msg)
		}
	case modeLogin:
		if key.Matches(msg, m.keys.Close) {
			m.cancelLogin()
			return nil
		}
		cmd, _ := m.switchKey(msg)
		return cmd
	}
	// Keys that work wherever no text is being typed.
	switch {
	case key.Matches(msg, k.Quit) && m.mode != modeRunning:
		return m.quit()
	case key.Matches(msg, k.Help):
		m.overlay, m.helpView = overlayHelp, helpOverlay{}
		return nil
	case key.Matches(msg, k.Log):
		m.overlay = overlayLog
		return nil
	case key.Matches(msg, k.Server):
		m.overlay = overlayServer
		return nil
	case key.Matches(msg, k.Audit) && m.session != nil:
		return m.openAudit()
	case key.Matches(msg, k.Traffic):
		m.overlay = overlayTraffic
		return nil
	case key.Matches(msg, k.Reconnect):
		return m.reconnect()
	case key.Matches(msg, k.Mute):
		return m.setMuted(!m.muted)
	}
	if cmd, ok := m.onAskQueueKey(msg); ok {
		return cmd
	}
	if cmd, ok := m.switchKey(msg); ok {
		return cmd
	}
	switch m.mode {
	case modeConnectFailed:
		return m.onConnectFailedKey(msg)
	case modeBrowse:
		if m.onViewKey(msg) {
			return nil
		}
		switch m.view {
		case viewResources:
			return m.onResourcesKey(msg)
		case viewPrompts:
			return m.onPromptsKey(msg)
		}
		return m.onBrowseKey(msg)
	case modeForm:
		return m.onFormKey(msg)
	case modeResource:
		return m.onResourceKey(msg)
	case modePrompt:
		return m.onPromptViewKey(msg)
	case modeRunning:
		if key.Matches(msg, k.CancelCall) && m.running != nil {
			m.running.cancel()
			m.running.cancelling = true
		}
	case modeResult:
		return m.onResultKey(msg)
	}
	return nil
}

func (m *Model) onOverlayKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	if m.overlay == overlayLog && m.logPane.WantsKey(msg) {
		return m.logPane.Update(msg) // a filter being typed, an opened entry
	}
	switch {
	case key.Matches(msg, k.Close),
		m.overlay == overlayHelp && key.Matches(msg, k.Help),
		m.overlay == overlayLog && key.Matches(msg, k.Log),
		m.overlay == overlayServer && key.Matches(msg, k.Server),
		m.overlay == overlayAudit && key.Matches(msg, k.Audit):
		m.overlay = overlayNone
		return nil
	case m.overlay == overlayTraffic && key.Matches(msg, k.Traffic):
		m.overlay = overlayNone
		return nil
	case key.Matches(msg, k.Quit) && m.mode != modeRunning:
		return m.quit()
	case key.Matches(msg, k.Log):
		m.overlay = overlayLog
	case key.Matches(msg, k.Server):
		m.overlay = overlayServer
	case key.Matches(msg, k.Help):
		m.overlay, m.helpView = overlayHelp, helpOverlay{}
	case key.Matches(msg, k.Traffic):
		m.overlay = overlayTraffic
	case key.Matches(msg, k.NextServer, k.PrevServer, m.keys.PickServer) && m.workspace():
		cmd, _ := m.switchKey(msg)
		return cmd
	case m.overlay == overlayLog:
		return m.logPane.Update(msg)
	case m.overlay == overlayHelp:
		m.helpView.Update(msg, m.keys)
	case m.overlay == overlayServer:
		return m.serverPane.Update(msg)
	case m.overlay == overlayAudit:
		return m.auditPane.Update(msg)
	}
	return nil
}

func (m *Model) onFilterKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, m.keys.AcceptFilter):
		m.filtering = false
		m.filterIn.Blur()
		return nil
	case key.Matches(msg, m.keys.CancelFilter):
		m.filtering = false
		m.filterIn.Blur()
		m.filterIn.SetValue("")
		m.list.SetFilter("")
		return nil
	}
	var cmd tea.Cmd
	m.filterIn, cmd = m.filterIn.Update(msg)
	settleInput(&m.filterIn)
	m.list.SetFilter(m.filterIn.Value())
	m.detailTop = 0
	return cmd
}

func (m *Model) onBrowseKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	before := m.list.Selected()
	defer func() {
		if m.list.Selected() != before {
			m.detailTop = 0
		}
	}()
	page := max(m.bodyHeight()-3, 1)
	switch {
	case key.Matches(msg, k.Up):
		m.list.Move(-1)
	case key.Matches(msg, k.Down):
		m.list.Move(1)
	case key.Matches(msg, k.PageUp):
		m.list.Move(-page)
	case key.Matches(msg, k.PageDown):
		m.list.Move(page)
	case key.Matches(msg, k.Top):
		m.list.Top()
	case key.Matches(msg, k.Bottom):
		m.list.Bottom()
	case key.Matches(msg, k.DetailDown):
		m.detailTop++
	case key.Matches(msg, k.DetailUp):
		m.detailTop = max(m.detailTop-1, 0)
	case key.Matches(msg, k.Filter):
		m.filtering = true
		return m.filterIn.Focus()
	case key.Matches(msg, k.ClearFilter):
		m.filterIn.SetValue("")
		m.list.SetFilter("")
	case key.Matches(msg, k.Call):
		if t := m.list.Selected(); t != nil {
			return m.callTool(t)
		}
	case key.Matches(msg, k.Example):
		if t := m.list.Selected(); t != nil {
			return m.callWithExample(t, int(msg.Code-'0'))
		}
	default:
		return m.onListExtraKey(msg)
	}
	return nil
}

func (m *Model) onFormKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, m.keys.Run):
		return m.runForm()
	case key.Matches(msg, m.keys.Back) && !m.form.Picking():
		m.mode, m.form = modeBrowse, nil
		return nil
	}
	return m.form.Update(msg)
}

// onConfirmKey answers the dialog. Only y and a send the call; n and Esc
// record a declined call; every other key, Enter and Space included, does nothing.
func (m *Model) onConfirmKey(msg tea.KeyPressMsg) tea.Cmd {
	p := m.pending
	switch {
	case key.Matches(msg, m.keys.Yes):
		p.call.Approved = true
		return m.startCall(p.call)
	case key.Matches(msg, m.keys.AllowSession):
		m.allowed[p.call.Tool.Name] = p.call.Tool.Hints
		m.list.Refilter()
		p.call.SessionAllowed = true
		return m.startCall(p.call)
	case key.Matches(msg, m.keys.No):
		p.call.Declined = true
		return m.startCall(p.call)
	}
	return m.onConfirmExtraKey(msg)
}

func (m *Model) onResultKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, m.keys.Close):
		m.mode = modeBrowse
		return nil
	case key.Matches(msg, m.keys.Edit):
		if t, ok := m.session.Tool(m.lastTool); ok {
			m.openForm(t, m.lastArgs)
		}
		return nil
	}
	return m.result.Update(msg)
}

func (m *Model) onConnectFailedKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, m.keys.Retry):
		return m.connect()
	case key.Matches(msg, m.keys.Login) && m.canLogin():
		return m.login()
	case key.Matches(msg, m.keys.Close) && m.workspace():
		return m.openPick() // back to the servers, as the picker was
	}
	return nil
}

// onDialogKey gives a key to the dialog of a server's request, and sends the
// answer once the user gave one.
func (m *Model) onDialogKey(msg tea.KeyPressMsg) tea.Cmd {
	if cmd, ok := m.onAskQueueKey(msg); ok {
		return cmd
	}
	r, cmd := m.dialog.key(msg)
	if r == nil {
		return cmd
	}
	return tea.Batch(cmd, m.answerAsk(*r))
}

// switchKey handles the keys that switch servers in a workspace: ] and [
// round the ring, W to pick one by name.
func (m *Model) switchKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := m.keys
	switch {
	case !m.workspace():
		return nil, false
	case key.Matches(msg, k.NextServer):
		return m.step(1), true
	case key.Matches(msg, k.PrevServer):
		return m.step(-1), true
	case key.Matches(msg, m.keys.PickServer):
		return m.openPick(), true
	}
	return nil, false
}

// settleInput makes what a search box holds (typed or pasted) safe to draw:
// it only matches text drawn the same way, and the box draws it raw.
func settleInput(in *textinput.Model) {
	if v := in.Value(); termtext.Line(v) != v {
		in.SetValue(termtext.Line(v))
	}
}
