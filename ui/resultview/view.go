package resultview

import (
	"encoding/json"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/scroll"
	"github.com/mcpsh/mcpsh/ui/style"
)

// View shows one outcome in a scrolling pane: as mcpsh reads it, or
// (v) as the JSON --json prints. It copies (c) what it shows and saves (w) a
// result's images and blobs. The outcome is drawn when it is set, the width
// or the theme changes or the view is toggled, never on View: results can
// be large.
type View struct {
	st      *style.Styles
	keys    *keymap.KeyMap
	body    scroll.Pane
	outcome *client.Outcome
	width   int
	height  int
	raw     bool
	rawJSON string // the outcome as --json prints it, made once it is asked for
	// note is a line under the result saying what c or w did; the next key
	// clears it.
	note string
	save *SavePrompt
	// saveBlock is the content block the prompt saves; saveSeq numbers its
	// writes below zero (see SavePrompt.nextID).
	saveBlock int
	saveSeq   int
	// answer routes its writes' answers back to the server that shows it.
	answer func(tea.Cmd) tea.Cmd
}

// New is an empty result view; answer routes its writes' answers back to
// the server that shows it.
func New(st *style.Styles, keys *keymap.KeyMap, answer func(tea.Cmd) tea.Cmd) *View {
	return &View{st: st, keys: keys, answer: answer}
}

// Outcome is the outcome shown; Raw reports whether it is shown as --json
// prints it; Save is the save prompt when it is open.
func (r *View) Outcome() *client.Outcome { return r.outcome }
func (r *View) Raw() bool                { return r.raw }
func (r *View) Save() *SavePrompt        { return r.save }

// SetSize sets the view's size in cells.
func (r *View) SetSize(width, height int) {
	changed := width != r.width
	r.width, r.height = width, height
	r.fitViewport()
	if changed {
		if r.save != nil {
			r.save.SetWidth(width)
		}
		r.render()
	}
}

// fitViewport gives the body what the note and the save prompt leave.
func (r *View) fitViewport() {
	h := r.height
	if r.note != "" {
		h--
	}
	if r.save != nil {
		h -= SaveLines
	}
	r.body.SetSize(max(0, r.width), h)
}

// SetOutcome shows o from its top, as mcpsh reads it.
func (r *View) SetOutcome(o *client.Outcome) {
	r.outcome, r.raw, r.rawJSON, r.note, r.save = o, false, "", "", nil
	r.fitViewport()
	r.render()
	r.body.ScrollTo(0)
}

// Restyle draws the outcome again, in the styles as they are now (the
// terminal said its background).
func (r *View) Restyle() { r.render() }

// render draws the outcome for the width, in the current theme.
func (r *View) render() {
	switch {
	case r.outcome == nil || r.width <= 0:
		r.body.SetLines(nil)
	case r.raw:
		r.body.SetLines(rawLines(r.RawText(), r.width, r.st))
	default:
		r.body.SetLines(Lines(r.outcome, r.width, r.st))
	}
}

// RawText is the outcome exactly as `mcpsh call --json` prints it: indented,
// with the C1 and bidi controls in server text escaped.
func (r *View) RawText() string {
	if r.rawJSON == "" && r.outcome != nil {
		b, err := json.MarshalIndent(r.outcome, "", "  ")
		if err != nil {
			return "the outcome cannot be written as JSON: " + err.Error()
		}
		r.rawJSON = string(termtext.EscapeJSON(b))
	}
	return r.rawJSON
}

// rawLines draws JSON text within the result view's caps.
func rawLines(s string, width int, st *style.Styles) []string {
	w := NewCapped(width, MaxLines, MaxBytes)
	w.Text(s, st.Row)
	w.Finish(st)
	return w.Lines()
}

// Typing reports whether the view takes every key as text (the save
// prompt's file name), so that keys meaning something elsewhere reach it.
func (r *View) Typing() bool { return r.save != nil }

// Update scrolls, toggles the raw JSON, copies, and saves.
func (r *View) Update(msg tea.Msg) tea.Cmd {
	km, isKey := msg.(tea.KeyPressMsg)
	if r.save != nil {
		if !isKey {
			return nil
		}
		return r.saveKey(km)
	}
	if isKey && r.note != "" {
		r.note = ""
		r.fitViewport()
	}
	switch {
	case !isKey || r.outcome == nil:
	case key.Matches(km, r.keys.RawJSON):
		r.raw = !r.raw
		r.render()
		r.body.ScrollTo(0)
		return nil
	case key.Matches(km, r.keys.Copy):
		return r.copy()
	case key.Matches(km, r.keys.Save):
		return r.openSave()
	}
	r.body.Scroll(msg, r.keys)
	return nil
}

// setNote shows a line under the result.
func (r *View) setNote(s string) {
	r.note = s
	r.fitViewport()
}

// View is at most the view's height in lines.
func (r *View) View() string {
	out := r.body.View()
	if r.note != "" {
		out += "\n" + r.st.Warning.Render(termtext.Truncate(r.note, max(r.width, 1)))
	}
	if r.save != nil {
		out += "\n" + strings.Join(r.save.Lines(r.st, r.keys, r.width), "\n")
	}
	return out
}
