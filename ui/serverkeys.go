package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// A server's keys. The root gives the server on screen the keys no dialog or
// overlay took: first onFocusKey (what its screen takes before the keys that
// work everywhere), then onServerKey, then onModeKey. Like the rest of Update
// they do no I/O: a key that needs the server returns a command.

// holdsQuit reports whether q must not quit: a call runs on screen.
func (s *serverState) holdsQuit() bool { return s.mode == modeRunning }

// failedToStart reports whether the screen says the server did not start.
func (s *serverState) failedToStart() bool { return s.mode == modeConnectFailed }

// onServerKey handles the keys that act on the server whatever it shows:
// connecting again, muting its requests, and its queue of requests.
func (s *serverState) onServerKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	switch {
	case key.Matches(msg, s.keys.Reconnect):
		return s.reconnect(), true
	case key.Matches(msg, s.keys.Mute):
		return s.setMuted(!s.muted), true
	}
	return s.onAskQueueKey(msg)
}

func (s *serverState) onBrowseKey(msg tea.KeyPressMsg) tea.Cmd {
	k := s.keys
	before := s.list.Selected()
	defer func() {
		if s.list.Selected() != before {
			s.detailTop = 0
		}
	}()
	page := max(s.bodyHeight()-3, 1)
	switch {
	case key.Matches(msg, k.Up):
		s.list.Move(-1)
	case key.Matches(msg, k.Down):
		s.list.Move(1)
	case key.Matches(msg, k.PageUp):
		s.list.Move(-page)
	case key.Matches(msg, k.PageDown):
		s.list.Move(page)
	case key.Matches(msg, k.Top):
		s.list.Top()
	case key.Matches(msg, k.Bottom):
		s.list.Bottom()
	case key.Matches(msg, k.DetailDown):
		s.detailTop++
	case key.Matches(msg, k.DetailUp):
		s.detailTop = max(s.detailTop-1, 0)
	case key.Matches(msg, k.Call):
		if t := s.list.Selected(); t != nil {
			return s.callTool(t)
		}
	case key.Matches(msg, k.Example):
		if t := s.list.Selected(); t != nil {
			return s.callWithExample(t, int(msg.Code-'0'))
		}
	default:
		return s.onListExtraKey(msg)
	}
	return nil
}

func (s *serverState) onFormKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, s.keys.Run):
		return s.runForm()
	case key.Matches(msg, s.keys.Back) && !s.form.Picking():
		s.mode, s.form = modeBrowse, nil
		return nil
	}
	return s.form.Update(msg)
}

// onConfirmKey answers the dialog. Only y and a send the call; n and Esc
// record a declined call; every other key, Enter and Space included, does nothing.
func (s *serverState) onConfirmKey(msg tea.KeyPressMsg) tea.Cmd {
	p := s.pending
	switch {
	case key.Matches(msg, s.keys.Yes):
		p.call.Approved = true
		return s.startCall(p.call)
	case key.Matches(msg, s.keys.AllowSession):
		s.allowed[p.call.Tool.Name] = p.call.Tool.Hints
		s.list.Refilter()
		p.call.SessionAllowed = true
		return s.startCall(p.call)
	case key.Matches(msg, s.keys.No):
		p.call.Declined = true
		return s.startCall(p.call)
	}
	return s.onConfirmExtraKey(msg)
}

func (s *serverState) onResultKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, s.keys.Close):
		s.mode = modeBrowse
		return nil
	case key.Matches(msg, s.keys.Edit):
		if t, ok := s.session.Tool(s.lastTool); ok {
			s.openForm(t, s.lastArgs)
		}
		return nil
	}
	return s.result.Update(msg)
}

func (s *serverState) onConnectFailedKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, s.keys.Retry):
		return s.connect()
	case key.Matches(msg, s.keys.Login) && s.canLogin():
		return s.login()
	}
	return nil
}

// onDialogKey gives a key to the dialog of a server's request, and sends the
// answer once the user gave one.
func (s *serverState) onDialogKey(msg tea.KeyPressMsg) tea.Cmd {
	if cmd, ok := s.onAskQueueKey(msg); ok {
		return cmd
	}
	r, cmd := s.asking().key(msg)
	if r == nil {
		return cmd
	}
	return tea.Batch(cmd, s.answerAsk(*r))
}
