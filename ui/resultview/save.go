package resultview

import (
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"net/url"
	"os"
	"path"
	"path/filepath"
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

// SavePrompt asks where to save some bytes: a resource's content (the
// resource viewer) or a blob in a tool's result (the result view). The
// default is a file in the current folder named after what is saved; an
// existing file is replaced only after the user says so with y. Writing is
// a command (SaveCmd); its answer (SavedMsg) comes back to Saved.
type SavePrompt struct {
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

// NewSavePrompt opens a prompt to save data, named name at first; what
// says what it is, for messages.
func NewSavePrompt(st *style.Styles, name string, data []byte, what string, width int, nextID func() int, answer func(tea.Cmd) tea.Cmd) (*SavePrompt, tea.Cmd) {
	in := textinput.New()
	in.Prompt = "save to: "
	in.SetStyles(st.TextInput())
	in.SetValue(name)
	in.CursorEnd()
	in.SetWidth(max(width-len(in.Prompt)-2, 8))
	focus := in.Focus()
	return &SavePrompt{in: in, data: data, what: what, nextID: nextID, answer: answer}, focus
}

// Key handles a key while the prompt is open; closed says the user closed it.
func (s *SavePrompt) Key(msg tea.KeyPressMsg, k *keymap.KeyMap) (cmd tea.Cmd, closed bool) {
	if s.exists != "" {
		switch {
		case key.Matches(msg, k.Overwrite):
			s.id, s.exists = s.nextID(), ""
			return s.answer(SaveCmd(s.id, s.in.Value(), s.data, true)), false
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
		return s.answer(SaveCmd(s.id, s.in.Value(), s.data, false)), false
	}
	s.in, cmd = s.in.Update(msg)
	return cmd, false
}

// Saved takes the answer to this prompt's write: a status line for the user,
// and whether the prompt is done with.
func (s *SavePrompt) Saved(msg SavedMsg) (status string, done bool) {
	s.id = 0
	switch {
	case msg.Exists:
		s.exists = msg.Path
		return "", false
	case msg.Err != nil:
		return "not saved: " + termtext.Line(msg.Err.Error()), false
	}
	return fmt.Sprintf("saved %s to %s", client.HumanBytes(len(s.data)), termtext.Line(msg.Path)), true
}

// Lines are the prompt's lines, SaveLines of them.
func (s *SavePrompt) Lines(st *style.Styles, k *keymap.KeyMap, width int) []string {
	w := &layout.Lines{Width: max(width, 1)}
	w.Add(st.Muted.Render(strings.Repeat("─", max(width, 1))))
	if s.exists != "" {
		w.Add(st.Warning.Render(termtext.Truncate(termtext.Line(s.exists)+" exists", width)))
		w.Add(st.KeyHint(k.Overwrite.Help().Key, "replace it") + "   " + st.KeyHint(k.KeepFile.Help().Key, "keep it and choose another name"))
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

// SaveLines is how many lines the prompt takes.
const SaveLines = 3

// DefaultFileName names the file after the resource's last path segment,
// kept to characters that are safe in a file name; with none, "resource"
// with an extension for its type.
func DefaultFileName(uri, mimeType string, blob bool) string {
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
	switch BaseType(mimeType) {
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

// ID is the write in flight, 0 when none; Exists is the file that exists,
// while the prompt asks whether to replace it.
func (s *SavePrompt) ID() int        { return s.id }
func (s *SavePrompt) Exists() string { return s.exists }

// Name is the file name as typed; SetName types another.
func (s *SavePrompt) Name() string        { return s.in.Value() }
func (s *SavePrompt) SetName(name string) { s.in.SetValue(name) }

// SetWidth fits the file name's box to a screen width cells wide.
func (s *SavePrompt) SetWidth(width int) { s.in.SetWidth(max(width-len(s.in.Prompt)-2, 8)) }

// Update gives the file name's box what is not a key (the cursor's blink).
func (s *SavePrompt) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	s.in, cmd = s.in.Update(msg)
	return cmd
}

// SavedMsg answers a request to write a file (SaveCmd). Exists says the
// file was there and was left alone.
type SavedMsg struct {
	ID     int
	Path   string
	Exists bool
	Err    error
}

// SaveCmd writes data to path (~/ is the home folder). An existing file is
// replaced only when overwrite is set; otherwise it is left alone and the
// answer says it exists, for the user to decide.
func SaveCmd(id int, path string, data []byte, overwrite bool) tea.Cmd {
	return func() tea.Msg {
		p, err := expandHome(path)
		if err == nil {
			p, err = filepath.Abs(p)
		}
		if err != nil {
			return SavedMsg{ID: id, Path: path, Err: err}
		}
		flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
		if overwrite {
			flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		}
		f, err := os.OpenFile(p, flags, 0o644)
		if errors.Is(err, fs.ErrExist) {
			return SavedMsg{ID: id, Path: p, Exists: true}
		}
		if err != nil {
			return SavedMsg{ID: id, Path: p, Err: err}
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return SavedMsg{ID: id, Path: p, Err: err}
	}
}

func expandHome(p string) (string, error) {
	if p != "~" && !strings.HasPrefix(p, "~/") {
		return p, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, strings.TrimPrefix(p, "~")), nil
}

// BaseType is a MIME type without its parameters, lower-cased.
func BaseType(mt string) string {
	if t, _, err := mime.ParseMediaType(mt); err == nil {
		return t
	}
	return strings.ToLower(strings.TrimSpace(mt))
}
