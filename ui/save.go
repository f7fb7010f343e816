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
)

// savePrompt asks where to save a resource's content. The default is a file
// in the current folder named after the resource; an existing file is
// replaced only after the user says so with y. Writing is a command.
type savePrompt struct {
	in     textinput.Model
	data   []byte
	what   string // the resource's URI, for messages
	id     int    // the write in flight; 0 when none
	exists string // the file that exists, while asking whether to replace it
}

func (m *Model) openSave(c client.ResourceContent, uri, listedType string) tea.Cmd {
	in := textinput.New()
	in.Prompt = "save to: "
	in.SetStyles(inputStyles(m.st))
	mt := c.MIMEType
	if mt == "" {
		mt = listedType
	}
	in.SetValue(defaultFileName(resultOr(c.URI, uri), mt, c.IsBlob))
	in.CursorEnd()
	in.SetWidth(max(m.width-len(in.Prompt)-2, 8))
	data := c.Blob
	if !c.IsBlob {
		data = []byte(c.Text)
	}
	m.saving = &savePrompt{in: in, data: data, what: uri}
	return m.saving.in.Focus()
}

func (m *Model) onSaveKey(msg tea.KeyPressMsg) tea.Cmd {
	s, k := m.saving, m.keys
	if s.exists != "" {
		switch {
		case key.Matches(msg, k.Overwrite):
			s.id, s.exists = m.nextID(), ""
			return saveCmd(s.id, s.in.Value(), s.data, true)
		case key.Matches(msg, k.KeepFile):
			s.exists = "" // back to the name, to choose another
		}
		return nil // Enter and Space never replace a file
	}
	switch {
	case key.Matches(msg, k.Close):
		m.saving = nil
		return nil
	case key.Matches(msg, k.SaveHere) && s.id == 0:
		if strings.TrimSpace(s.in.Value()) == "" {
			return nil
		}
		s.id = m.nextID()
		return saveCmd(s.id, s.in.Value(), s.data, false)
	}
	var cmd tea.Cmd
	s.in, cmd = s.in.Update(msg)
	return cmd
}

func (m *Model) onSaved(msg savedMsg) {
	s := m.saving
	if s == nil || s.id != msg.id {
		return
	}
	s.id = 0
	switch {
	case msg.exists:
		s.exists = msg.path
	case msg.err != nil:
		m.status = "not saved: " + termtext.Line(msg.err.Error())
	default:
		m.saving = nil
		m.status = fmt.Sprintf("saved %s to %s", client.HumanBytes(len(s.data)), termtext.Line(msg.path))
	}
}

// saveLines are the prompt's lines, under the viewer.
func (m *Model) saveLines() []string {
	s, st, k := m.saving, m.st, m.keys
	w := &lines{width: max(m.width, 1)}
	w.add(st.Muted.Render(strings.Repeat("─", max(m.width, 1))))
	if s.exists != "" {
		w.add(st.Warning.Render(termtext.Truncate(termtext.Line(s.exists)+" exists", m.width)))
		w.add(keyHint(st, k.Overwrite.Help().Key, "replace it") + "   " + keyHint(st, k.KeepFile.Help().Key, "keep it and choose another name"))
		return w.out
	}
	w.add(s.in.View())
	note := fmt.Sprintf("%s of %s", client.HumanBytes(len(s.data)), termtext.Line(s.what))
	if s.id != 0 {
		note = "saving… " + note
	}
	w.add(st.Muted.Render(note))
	return w.out
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
