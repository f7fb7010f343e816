package resultview

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
	"github.com/mcpsh/mcpsh/ui/layout"
	"github.com/mcpsh/mcpsh/ui/overlays"
	"github.com/mcpsh/mcpsh/ui/style"
)

// What a result view renders at most. A server can answer with megabytes: the
// rest is counted, not drawn, and `mcpsh call --json` has all of it.
const (
	MaxLines = 2000
	MaxBytes = 512 << 10
	// resultPrettyMax is the largest JSON text that is re-indented; larger
	// JSON is shown as sent, since only its beginning is drawn anyway.
	resultPrettyMax = 2 << 20
	// resultNameMax caps tool names and titles on the status line.
	resultNameMax = 120
	// resultNoteMax caps the output-schema warning, which is not counted
	// against MaxBytes.
	resultNoteMax = 2000
)

// Render draws a call's outcome for a terminal width cells wide: status,
// failed attempts, the error, the content blocks and structuredContent. Every
// string from the server is sanitized; every line is at most width cells.
func Render(o *client.Outcome, width int, st *style.Styles) string {
	return strings.Join(Lines(o, width, st), "\n")
}

// Lines are Render's lines.
func Lines(o *client.Outcome, width int, st *style.Styles) []string {
	w := NewCapped(width, MaxLines, MaxBytes)
	if o == nil {
		w.Styled(st.Muted.Render("no result"))
		return w.Lines()
	}
	w.Styled(resultStatusLine(o, st))
	if t := o.Task; t != nil {
		taskLines(w, t, st)
	}
	showArgs(w, o.Args, st)
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
		w.Text(termtext.Line(s), st.Warning)
	}
	if o.LogError != "" {
		w.Text(termtext.Line("not recorded in the session log: "+o.LogError), st.Warning)
	}
	var problems []string
	if o.Result != nil {
		problems = o.Result.Problems
	}
	for _, p := range problems {
		w.Text(termtext.Line("note: "+p), st.Warning)
	}
	switch o.Status {
	case client.StatusFailed, client.StatusRefused, client.StatusCancelled:
		if o.Error != "" {
			w.Blank()
			w.Text(o.Error, st.Error)
		}
	}

	body, head := st.Row, st.Label
	if o.Status == client.StatusToolError {
		body, head = st.Error, st.Error
	}
	if o.Result != nil && len(o.Result.Content) > 0 {
		w.Blank()
		for i, b := range o.Result.Content {
			if i > 0 {
				w.Blank()
			}
			Block(w, b, body, head)
		}
	}

	structured := o.StructuredContent
	if len(structured) == 0 && o.Result != nil {
		structured = o.Result.Structured
	}
	if len(structured) > 0 || o.OutputSchemaError != "" {
		w.Blank()
		if o.OutputSchemaError != "" {
			// Shown even when the data itself is cut off below. The client's
			// message says what it is about ("structuredContent.x does not
			// match…", or why it could not be checked).
			msg := termtext.Truncate(termtext.Line(o.OutputSchemaError), resultNoteMax)
			w.Styled(st.Warning.Render(msg))
		}
		if len(structured) > 0 && !w.Full() {
			w.Styled(st.Label.Render("structuredContent"))
			s := string(structured)
			if p, ok := PrettyJSON(s); ok {
				s = p
			}
			w.Text(s, body)
		}
	}
	w.Finish(st)
	return w.Lines()
}

// Block adds one content block of a result (or a prompt's message).
func Block(w *Capped, b client.Block, body, head lipgloss.Style) {
	switch b.Type {
	case "text":
		w.Text(BodyText(b.Text), body)
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
		w.Text(termtext.Line(s), head)
	case "resource":
		s := "[embedded resource] " + b.URI + " (" + or(b.MIMEType, "unknown type")
		if b.Text == "" {
			s += ", " + client.HumanBytes(b.Bytes)
		}
		w.Text(termtext.Line(s+")"), head)
		if b.Text != "" {
			w.Text(BodyText(b.Text), body)
		}
	default:
		// image, audio, invalid and types mcpsh does not know.
		w.Text(termtext.Line(b.Summary()), head)
	}
}

// BodyText is a text block's text, re-indented when it is all JSON.
func BodyText(s string) string {
	s = strings.TrimRight(s, "\r\n")
	if p, ok := PrettyJSON(s); ok {
		return p
	}
	return s
}

// PrettyJSON indents s by two spaces when the whole of it is a JSON
// object or array.
func PrettyJSON(s string) (string, bool) {
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

// taskLines say the call ran as a task: its ID, for `mcpsh task get`, its
// status as last seen (cancelled, once mcpsh cancelled it and the server
// agreed), and the server's last words on it.
func taskLines(w *Capped, t *client.Task, st *style.Styles) {
	line := "task " + termtext.Line(t.ID) + " · " + termtext.Line(string(t.Status))
	if t.Polls > 0 {
		line += " · " + units.Plural(t.Polls, "poll")
	}
	w.Text(line, st.Muted)
	if t.StatusMessage != "" {
		w.Text(termtext.Truncate(termtext.Line(t.StatusMessage), resultNoteMax), st.Muted)
	}
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// ArgLines are the arguments as indented JSON, sanitized, with long lines
// wrapped under themselves rather than cut: in the dialog every value can be
// read before y, and the result view shows them the same way. args is any
// JSON value, as the console is given arguments already redacted.
func ArgLines(args any, width int) []string {
	if m, ok := args.(map[string]any); args == nil || ok && len(m) == 0 {
		return []string{"  none"}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("  ", "  ")
	if err := enc.Encode(args); err != nil {
		return []string{"  " + termtext.Line(fmt.Sprint(args))}
	}
	var out []string
	for _, l := range strings.Split(strings.TrimRight("  "+b.String(), "\n"), "\n") {
		l = layout.ExpandTabs(termtext.Sanitize(l))
		// A long value wraps under itself, indented past its key's start.
		indent := len(l) - len(strings.TrimLeft(l, " ")) + 2
		if indent > width/2 {
			indent = 0
		}
		for i, sub := range layout.Wrap(l, width-indent) {
			if i > 0 {
				sub = strings.Repeat(" ", indent) + sub
			}
			out = append(out, sub)
		}
	}
	return out
}
