package ui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/ui/resultview"
)

// The resource viewer's save prompt (resultview.SavePrompt, which the
// result view uses too), as the server opens and answers it.

func (s *serverState) openSave(c client.ResourceContent, uri, listedType string) tea.Cmd {
	mt := c.MIMEType
	if mt == "" {
		mt = listedType
	}
	data := c.Blob
	if !c.IsBlob {
		data = []byte(c.Text)
	}
	var focus tea.Cmd
	s.saving, focus = resultview.NewSavePrompt(s.st, resultview.DefaultFileName(resultOr(c.URI, uri), mt, c.IsBlob), data, uri, s.width, s.nextID, s.cmd)
	return focus
}

func (s *serverState) onSaveKey(msg tea.KeyPressMsg) tea.Cmd {
	cmd, closed := s.saving.Key(msg, s.keys)
	if closed {
		s.saving = nil
	}
	return cmd
}

// onSaved takes the answer to a write, for whichever prompt asked for it.
func (s *serverState) onSaved(msg resultview.SavedMsg) {
	if sp := s.saving; sp != nil && sp.ID() == msg.ID {
		status, done := sp.Saved(msg)
		if done {
			s.saving = nil
		}
		s.status = status
		return
	}
	s.result.OnSaved(msg)
}

// saveLines are the prompt's lines, under the viewer.
func (s *serverState) saveLines() []string { return s.saving.Lines(s.st, s.keys, s.width) }

func resultOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
