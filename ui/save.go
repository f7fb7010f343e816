package ui

import (
	"fmt"
	"net/url"
	"path"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/layout"
	"github.com/mcpsh/mcpsh/ui/style"
)

// savePrompt asks where to save some bytes: a resource's content (the
// resource viewer) or a blob in a tool's result (the result view). The
// default is a file in the current folder named after what is saved; an
// existing file is replaced only after the user says so with y. Writing is
// a command; the answer (savedMsg) comes back to onSaved.
type savePrompt struct {
	in     textinput.Model
	data   []byte
	what   string // what is saved, for messages: a URI, or a block of a result
	id     int    // the write in flight; 0 when none
	exists string // the file that exists, while asking whether to replace it
	// nextID numbers writes. The resource viewer's come from the model's
	// sequence, the result view's from its own, below zero, so that an
	// answer always finds the prompt that asked.
	nextID func() int
	// answer routes the write's answer back to the server that asked.
	answer func(tea.Cmd) tea.Cmd
}

func newSavePrompt(st *style.Styles, name string, data []byte, what string, width int, nextID func() int, answer func(tea.Cmd) tea.Cmd) (*savePrompt, tea.Cmd) {
	in := textinput.New()
	in.Prompt = "save to: "
	in.SetStyles(st.TextInput())
	in.SetValue(name)
	in.CursorEnd()
	in.SetWidth(max(width-len(in.Prompt)-2, 8))
	focus := in.Focus()
	return &savePrompt{in: in, data: data, what: what, nextID: nextID, answer: answer}, focus
}

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
	s.saving, focus = newSavePrompt(s.st, defaultFileName(resultOr(c.URI, uri), mt, c.IsBlob), data, uri, s.width, s.nextID, s.cmd)
	return focus
}

func (s *serverState) onSaveKey(msg tea.KeyPressMsg) tea.Cmd {
	cmd, closed := s.saving.key(msg, s.keys)
	if closed {
		s.saving = nil
	}
	return cmd
}

// key handles a key while the prompt is open; closed says the user closed it.
func (s *savePrompt) key(msg tea.KeyPressMsg, k *keymap.KeyMap) (cmd tea.Cmd, closed bool) {
	if s.exists != "" {
		switch {
		case key.Matches(msg, k.Overwrite):
			s.id, s.exists = s.nextID(), ""
			return s.answer(saveCmd(s.id, s.in.Value(), s.data, true)), false
		case key.Matches(msg, k.KeepFile):
			s.exists = "" // back to the name, to choose another
		}
		return nil, false // Enter and Space never replace a file
	}
	switch {
	case key.Matches(msg, k.Close):
		return nil, true
	case key.Matches(msg, k.SaveHere) && s.id == 0:
		if strings.TrimSpace(s.in.Value()) == "" {
			return nil, false
		}
		s.id = s.nextID()
		return s.answer(saveCmd(s.id, s.in.Value(), s.data, false)), false
	}
	s.in, cmd = s.in.Update(msg)
	return cmd, false
}

// onSaved takes the answer to a write, for whichever prompt asked for it.
func (s *serverState) onSaved(msg savedMsg) {
	if sp := s.saving; sp != nil && sp.id == msg.id {
		status, done := sp.saved(msg)
		if done {
			s.saving = nil
		}
		s.status = status
		return
	}
	s.result.onSaved(msg)
}

// saved takes the answer to this prompt's write: a status line for the user,
// and whether the prompt is done with.
func (s *savePrompt) saved(msg savedMsg) (status string, done bool) {
	s.id = 0
	switch {
	case msg.exists:
		s.exists = msg.path
		return "", false
	case msg.err != nil:
		return "not saved: " + termtext.Line(msg.err.Error()), false
	}
	return fmt.Sprintf("saved %s to %s", client.HumanBytes(len(s.data)), termtext.Line(msg.path)), true
}

// saveLines are the prompt's lines, under the viewer.
func (s *serverState) saveLines() []string { return s.saving.lines(s.st, s.keys, s.width) }

func (s *savePrompt) lines(st *style.Styles, k *keymap.KeyMap, width int) []string {
	w := &layout.Lines{Width: max(width, 1)}
	w.Add(st.Muted.Render(strings.Repeat("─", max(width, 1))))
	if s.exists != "" {
		w.Add(st.Warning.Render(termtext.Truncate(termtext.Line(s.exists)+" exists", width)))
		w.Add(keyHint(st, k.Overwrite.Help().Key, "replace it") + "   " + keyHint(st, k.KeepFile.Help().Key, "keep it and choose another name"))
		return w.Out
	}
	w.Add(s.in.View())
	note := fmt.Sprintf("%s of %s", client.HumanBytes(len(s.data)), termtext.Line(s.what))
	if s.id != 0 {
		note = "saving… " + note
	}
	w.Add(st.Muted.Render(note))
	return w.Out
}

// saveLinesN is how many lines the prompt takes.
const saveLinesN = 3

// defaultFileName names the file after the resource's last path segment,
// kept to characters that are safe in a file name; with none, "resource"
// with an extension for its type.
func defaultFileName(uri, mimeType string, blob bool) string {
	name := ""
	if u, err := url.Parse(uri); err == nil {
		p := u.Path
		if p == "" {
			p = u.Opaque
		}
		if b := path.Base(p); b != "." && b != "/" {
			name = b
		} else {
			name = u.Host
		}
	}
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteRune('_')
		}
	}
	name = strings.TrimLeft(b.String(), ".")
	if name == "" || name == "_" {
		name = "resource"
	}
	if !strings.Contains(name, ".") {
		name += extensionFor(mimeType, blob)
	}
	return name
}

// extensionFor is a file extension for a MIME type: a few common ones, not
// the system's table, which mime reads from disk.
func extensionFor(mimeType string, blob bool) string {
	switch baseType(mimeType) {
	case "image/png":
		return ".png"
	case "image/jpeg":
		return ".jpg"
	case "image/gif":
		return ".gif"
	case "image/webp":
		return ".webp"
	case "image/svg+xml":
		return ".svg"
	case "application/pdf":
		return ".pdf"
	case "application/json":
		return ".json"
	case "text/plain":
		return ".txt"
	case "text/markdown":
		return ".md"
	case "text/html":
		return ".html"
	case "text/csv":
		return ".csv"
	case "audio/mpeg":
		return ".mp3"
	case "audio/wav", "audio/x-wav":
		return ".wav"
	}
	if blob {
		return ".bin"
	}
	return ".txt"
}
