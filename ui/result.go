package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/overlays"
	"github.com/mcpsh/mcpsh/ui/scroll"
	"github.com/mcpsh/mcpsh/ui/style"
)

// What a result view renders at most. A server can answer with megabytes: the
// rest is counted, not drawn, and `mcpsh call --json` has all of it.
const (
	resultMaxLines = 2000
	resultMaxBytes = 512 << 10
	// resultPrettyMax is the largest JSON text that is re-indented; larger
	// JSON is shown as sent, since only its beginning is drawn anyway.
	resultPrettyMax = 2 << 20
	// resultNameMax caps tool names and titles on the status line.
	resultNameMax = 120
	// resultNoteMax caps the output-schema warning, which is not counted
	// against resultMaxBytes.
	resultNoteMax = 2000
)

// renderResult draws a call's outcome for a terminal width cells wide: status,
// failed attempts, the error, the content blocks and structuredContent. Every
// string from the server is sanitized; every line is at most width cells.
func renderResult(o *client.Outcome, width int, st *style.Styles) string {
	return strings.Join(resultLines(o, width, st), "\n")
}

func resultLines(o *client.Outcome, width int, st *style.Styles) []string {
	w := newCappedText(width, resultMaxLines, resultMaxBytes)
	if o == nil {
		w.styled(st.Muted.Render("no result"))
		return w.lines
	}
	w.styled(resultStatusLine(o, st))
	resultArgs(w, o.Args, st)
	for _, a := range o.Attempts {
		if a.Failure == "" {
			continue
		}
		s := fmt.Sprintf("attempt %d: %s", a.N, a.Failure)
		if a.Error != "" {
			s += " — " + a.Error
		}
		if a.WaitMS > 0 {
			s += ", waited " + units.MS(a.WaitMS)
		}
		w.text(termtext.Line(s), st.Warning)
	}
	if o.LogError != "" {
		w.text(termtext.Line("not recorded in the session log: "+o.LogError), st.Warning)
	}
	var problems []string
	if o.Result != nil {
		problems = o.Result.Problems
	}
	for _, p := range problems {
		w.text(termtext.Line("note: "+p), st.Warning)
	}
	switch o.Status {
	case client.StatusFailed, client.StatusRefused, client.StatusCancelled:
		if o.Error != "" {
			w.blank()
			w.text(o.Error, st.Error)
		}
	}

	body, head := st.Row, st.Label
	if o.Status == client.StatusToolError {
		body, head = st.Error, st.Error
	}
	if o.Result != nil && len(o.Result.Content) > 0 {
		w.blank()
		for i, b := range o.Result.Content {
			if i > 0 {
				w.blank()
			}
			resultBlock(w, b, body, head)
		}
	}

	structured := o.StructuredContent
	if len(structured) == 0 && o.Result != nil {
		structured = o.Result.Structured
	}
	if len(structured) > 0 || o.OutputSchemaError != "" {
		w.blank()
		if o.OutputSchemaError != "" {
			// Shown even when the data itself is cut off below. The client's
			// message says what it is about ("structuredContent.x does not
			// match…", or why it could not be checked).
			msg := termtext.Truncate(termtext.Line(o.OutputSchemaError), resultNoteMax)
			w.styled(st.Warning.Render(msg))
		}
		if len(structured) > 0 && !w.full {
			w.styled(st.Label.Render("structuredContent"))
			s := string(structured)
			if p, ok := resultPrettyJSON(s); ok {
				s = p
			}
			w.text(s, body)
		}
	}
	w.finish(st)
	return w.lines
}

// resultBlock adds one content block.
func resultBlock(w *cappedText, b client.Block, body, head lipgloss.Style) {
	switch b.Type {
	case "text":
		w.text(resultBodyText(b.Text), body)
	case "resource_link":
		s := "[resource link]"
		for _, f := range []string{b.Name, b.URI} {
			if f != "" {
				s += " " + f
			}
		}
		if b.MIMEType != "" {
			s += " (" + b.MIMEType + ")"
		}
		w.text(termtext.Line(s), head)
	case "resource":
		s := "[embedded resource] " + b.URI + " (" + resultOr(b.MIMEType, "unknown type")
		if b.Text == "" {
			s += ", " + client.HumanBytes(b.Bytes)
		}
		w.text(termtext.Line(s+")"), head)
		if b.Text != "" {
			w.text(resultBodyText(b.Text), body)
		}
	default:
		// image, audio, invalid and types mcpsh does not know.
		w.text(termtext.Line(b.Summary()), head)
	}
}

// resultBodyText is a text block's text, re-indented when it is all JSON.
func resultBodyText(s string) string {
	s = strings.TrimRight(s, "\r\n")
	if p, ok := resultPrettyJSON(s); ok {
		return p
	}
	return s
}

// resultPrettyJSON indents s by two spaces when the whole of it is a JSON
// object or array.
func resultPrettyJSON(s string) (string, bool) {
	t := strings.TrimSpace(s)
	if len(t) < 2 || len(t) > resultPrettyMax || (t[0] != '{' && t[0] != '[') {
		return "", false
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, []byte(t), "", "  "); err != nil {
		return "", false
	}
	return buf.String(), true
}

func resultStatusLine(o *client.Outcome, st *style.Styles) string {
	name := termtext.Truncate(termtext.Line(o.Tool), resultNameMax)
	title := termtext.Truncate(termtext.Line(o.Title), resultNameMax)
	// As the running view shows the call: title, then the name.
	head := st.Title.Render(name)
	if title != "" && title != name {
		head = st.Title.Render(title) + "  " + st.Name.Render(name)
	}
	parts := []string{overlays.StatusStyle(o.Status, st).Render(overlays.StatusWord(o.Status))}
	if o.Status == client.StatusRefused {
		parts = append(parts, st.Muted.Render("not sent"))
	} else {
		parts = append(parts, st.Muted.Render(units.MS(o.DurationMS)), st.Muted.Render(units.Plural(len(o.Attempts), "attempt")))
	}
	if a := overlays.Approver(o); a != "" {
		parts = append(parts, st.Muted.Render(a))
	}
	return head + "  " + strings.Join(parts, st.Muted.Render(" · "))
}

func resultOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// resultView shows one outcome in a scrolling pane: as mcpsh reads it, or
// (v) as the JSON --json prints. It copies (c) what it shows and saves (w) a
// result's images and blobs. The outcome is drawn when it is set, the width
// or the theme changes or the view is toggled, never on View: results can
// be large.
type resultView struct {
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
	save *savePrompt
	// saveBlock is the content block the prompt saves; saveSeq numbers its
	// writes below zero (see savePrompt.nextID).
	saveBlock int
	saveSeq   int
	// answer routes its writes' answers back to the server that shows it.
	answer func(tea.Cmd) tea.Cmd
}

func newResultView(st *style.Styles, keys *keymap.KeyMap, answer func(tea.Cmd) tea.Cmd) *resultView {
	return &resultView{st: st, keys: keys, answer: answer}
}

// SetSize sets the view's size in cells.
func (r *resultView) SetSize(width, height int) {
	changed := width != r.width
	r.width, r.height = width, height
	r.fitViewport()
	if changed {
		if r.save != nil {
			r.save.in.SetWidth(max(width-len(r.save.in.Prompt)-2, 8))
		}
		r.render()
	}
}

// fitViewport gives the body what the note and the save prompt leave.
func (r *resultView) fitViewport() {
	h := r.height
	if r.note != "" {
		h--
	}
	if r.save != nil {
		h -= saveLinesN
	}
	r.body.SetSize(max(0, r.width), h)
}

// SetOutcome shows o from its top, as mcpsh reads it.
func (r *resultView) SetOutcome(o *client.Outcome) {
	r.outcome, r.raw, r.rawJSON, r.note, r.save = o, false, "", "", nil
	r.fitViewport()
	r.render()
	r.body.ScrollTo(0)
}

// render draws the outcome for the width, in the current theme.
func (r *resultView) render() {
	switch {
	case r.outcome == nil || r.width <= 0:
		r.body.SetLines(nil)
	case r.raw:
		r.body.SetLines(rawLines(r.rawText(), r.width, r.st))
	default:
		r.body.SetLines(resultLines(r.outcome, r.width, r.st))
	}
}

// rawText is the outcome exactly as `mcpsh call --json` prints it: indented,
// with the C1 and bidi controls in server text escaped.
func (r *resultView) rawText() string {
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
	w := newCappedText(width, resultMaxLines, resultMaxBytes)
	w.text(s, st.Row)
	w.finish(st)
	return w.lines
}

// Typing reports whether the view takes every key as text (the save
// prompt's file name), so that keys meaning something elsewhere reach it.
func (r *resultView) Typing() bool { return r.save != nil }

// Update scrolls, toggles the raw JSON, copies, and saves.
func (r *resultView) Update(msg tea.Msg) tea.Cmd {
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
func (r *resultView) setNote(s string) {
	r.note = s
	r.fitViewport()
}

// View is at most the view's height in lines.
func (r *resultView) View() string {
	out := r.body.View()
	if r.note != "" {
		out += "\n" + r.st.Warning.Render(termtext.Truncate(r.note, max(r.width, 1)))
	}
	if r.save != nil {
		out += "\n" + strings.Join(r.save.lines(r.st, r.keys, r.width), "\n")
	}
	return out
}
