package ui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpsh/mcpsh/ui/resultview"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/layout"
	"github.com/mcpsh/mcpsh/ui/style"
)

// sampleDialog is a server asking for a completion (sampling). mcpsh never
// calls a model: the user reads what the server sent (the conversation, the
// system prompt, its model preferences and token limit) and writes the reply
// the server gets, or rejects the request.
type sampleDialog struct {
	ask   *serverAsk
	reply textarea.Model
	st    *style.Styles
	keys  *keymap.KeyMap

	info   []string // the request, drawn for the width
	top    int      // first line of info on screen
	notice string

	width, height int
}

// What the request view draws at most: a server chooses how much it sends.
const (
	sampleMaxLines = 2000
	sampleMaxBytes = 256 << 10
	sampleLabelW   = len("assistant") + 2
)

func newSampleDialog(a *serverAsk, st *style.Styles, keys *keymap.KeyMap) *sampleDialog {
	return &sampleDialog{ask: a, reply: newReplyEditor(st), st: st, keys: keys}
}

// newReplyEditor is the text area the reply is written in.
func newReplyEditor(st *style.Styles) textarea.Model {
	ta := textarea.New()
	ta.Prompt = ""
	ta.ShowLineNumbers = false
	ta.CharLimit = 0
	ta.MaxHeight = 0
	ta.SetStyles(st.TextArea())
	ta.Placeholder = "write the reply the server gets"
	return ta
}

func (d *sampleDialog) key(msg tea.KeyPressMsg) (*askReply, tea.Cmd) {
	k := d.keys
	switch {
	case key.Matches(msg, k.Accept):
		text := d.reply.Value()
		if strings.TrimSpace(text) == "" {
			d.notice = "write a reply first, or " + k.Decline.Help().Key + " to reject the request"
			return nil, nil
		}
		return &askReply{sample: &client.SampleResponse{Text: text}}, nil
	case key.Matches(msg, k.Decline), key.Matches(msg, k.Dismiss):
		return &askReply{err: client.ErrDeclined}, nil
	case key.Matches(msg, k.PageUp):
		d.top = max(d.top-d.infoHeight(), 0)
		return nil, nil
	case key.Matches(msg, k.PageDown):
		d.top = min(d.top+d.infoHeight(), max(len(d.info)-d.infoHeight(), 0))
		return nil, nil
	}
	d.notice = ""
	var cmd tea.Cmd
	d.reply, cmd = d.reply.Update(msg)
	return nil, cmd
}

func (d *sampleDialog) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	d.reply, cmd = d.reply.Update(msg)
	return cmd
}

func (d *sampleDialog) focus() tea.Cmd { return d.reply.Focus() }

func (d *sampleDialog) setSize(width, height int) {
	if width != d.width {
		d.info = sampleLines(d.ask.sample, width, d.st)
	}
	d.width, d.height = width, height
	d.top = min(d.top, max(len(d.info)-d.infoHeight(), 0))
	d.reply.SetWidth(max(width, 1))
	d.reply.SetHeight(max(height-d.infoHeight()-3, 1))
}

// infoHeight is the room for the request: what it needs, up to half the
// dialog, so the reply always has room.
func (d *sampleDialog) infoHeight() int {
	return max(min(len(d.info), (d.height-3)/2), 0)
}

func (d *sampleDialog) view() string {
	st := d.st
	w := &layout.Lines{Width: max(d.width, 1)}
	w.Add(st.DialogTitle.Render(askerName(d.ask.sample.Server)+" asks for a completion") + st.Muted.Render(" · you write it; mcpsh calls no model"))
	h := d.infoHeight()
	end := min(d.top+h, len(d.info))
	w.Out = append(w.Out, d.info[d.top:end]...)
	rule := "your reply"
	if hidden := len(d.info) - h; hidden > 0 {
		rule += fmt.Sprintf(" · request lines %d–%d of %d (pgup/pgdn)", d.top+1, end, len(d.info))
	}
	w.Add(st.Label.Render(rule))
	if d.notice != "" {
		w.Add(st.Warning.Render(d.notice))
	} else {
		w.Add(st.Muted.Render(strings.Repeat("─", max(d.width, 1))))
	}
	return strings.Join(w.Out, "\n") + "\n" + d.reply.View()
}

func (d *sampleDialog) bindings() []key.Binding {
	k := d.keys
	send, reject := k.Accept, k.Decline
	send.SetHelp(send.Help().Key, "send the reply")
	reject.SetHelp(reject.Help().Key+"/esc", "reject")
	return []key.Binding{send, reject, k.PageUp, k.PageDown}
}

// sampleLines draws the request: its settings, then the conversation, role
// by role. Everything from the server is made safe and capped.
func sampleLines(r *client.SampleRequest, width int, st *style.Styles) []string {
	w := resultview.NewCapped(max(width-sampleLabelW, 1), sampleMaxLines, sampleMaxBytes)
	var rows []string
	field := func(label string, text string) {
		w.Reset()
		w.Text(text, st.Row)
		rows = append(rows, labelled(label, w.Lines(), st)...)
	}
	if r.SystemPrompt != "" {
		field("system", r.SystemPrompt)
	}
	var prefs []string
	if len(r.ModelHints) > 0 {
		prefs = append(prefs, "hints "+strings.Join(r.ModelHints, ", "))
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{"cost", r.CostPriority}, {"speed", r.SpeedPriority}, {"intelligence", r.IntelligencePriority}} {
		if p.v != 0 {
			prefs = append(prefs, p.name+" "+strconv.FormatFloat(p.v, 'g', 3, 64))
		}
	}
	if len(prefs) > 0 {
		field("model", strings.Join(prefs, " · "))
	}
	limits := []string{fmt.Sprintf("at most %d tokens", r.MaxTokens)}
	if r.Temperature != 0 {
		limits = append(limits, "temperature "+strconv.FormatFloat(r.Temperature, 'g', 3, 64))
	}
	if len(r.StopSequences) > 0 {
		q := make([]string, len(r.StopSequences))
		for i, s := range r.StopSequences {
			q[i] = strconv.Quote(s)
		}
		limits = append(limits, "stop at "+strings.Join(q, ", "))
	}
	if r.IncludeContext != "" {
		limits = append(limits, "context: "+r.IncludeContext)
	}
	field("limits", strings.Join(limits, " · "))
	for _, m := range r.Messages {
		w.Reset()
		if m.Block.Type == "text" {
			w.Text(m.Block.Text, st.Row)
		} else {
			w.Text(m.Block.Summary(), st.Label)
		}
		rows = append(rows, labelled(termtext.Truncate(termtext.Line(m.Role), sampleLabelW-1), w.Lines(), st)...)
		if w.Full() {
			rows = append(rows, st.Muted.Render("… the rest of the conversation is not shown"))
			break
		}
	}
	if len(r.Messages) == 0 {
		rows = append(rows, st.Muted.Render("the server sent no messages"))
	}
	return rows
}

// labelled puts label in a column left of body's first line and indents the rest.
func labelled(label string, body []string, st *style.Styles) []string {
	if len(body) == 0 {
		body = []string{""}
	}
	out := make([]string, len(body))
	for i, l := range body {
		head := strings.Repeat(" ", sampleLabelW)
		if i == 0 {
			head = st.Label.Render(termtext.Pad(label, sampleLabelW))
		}
		out[i] = head + l
	}
	return out
}
