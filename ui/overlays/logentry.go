package overlays

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"github.com/mcpsh/mcpsh/ui/layout"
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/sessionlog"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
)

// renderOpen draws the opened call: what the session log knows of it, with
// its arguments as the log keeps them, and a summary of its result (the log
// keeps no results; the result view showed it whole).
func (p *Log) renderOpen() {
	o := p.open
	if o == nil || p.width <= 0 {
		p.openView.SetLines(nil)
		return
	}
	st := p.st
	w := &layout.Lines{Width: p.width}
	n := 0
	for i, s := range p.shown {
		if p.outcomes[s] == o {
			n = i + 1
		}
	}
	head := st.Title.Render(termtext.Line(o.Tool))
	if t := termtext.Line(o.Title); t != "" && t != termtext.Line(o.Tool) {
		head += "  " + st.Name.Render(t)
	}
	w.WrapStyled(head + st.Muted.Render(fmt.Sprintf("  call %d of %d", n, len(p.shown))))
	status := StatusStyle(o.Status, st).Render(StatusWord(o.Status))
	facts := []string{o.Time.Format("2006-01-02 15:04:05"), status}
	if o.Status != client.StatusRefused {
		facts = append(facts, units.MS(o.DurationMS), units.Plural(len(o.Attempts), "attempt"))
	}
	w.WrapStyled(strings.Join(facts, st.Muted.Render(" · ")))
	server := o.Server
	if o.Via != "" {
		server += " (" + o.Via + ")"
	}
	decision := string(o.Decision)
	if a := Approver(o); a != "" {
		decision += ", " + a
	}
	task := ""
	if t := o.Task; t != nil {
		// Its ID, for mcpsh task get, and its status as last seen.
		task = t.ID + " · " + string(t.Status)
	}
	for _, f := range [][2]string{{"server", server}, {"decision", decision}, {"reason", o.Reason}, {"class", string(o.Class) + replayWord(o.ReplaySafe)}, {"task", task}} {
		if f[1] != "" {
			w.Hanging(termtext.Pad(f[0], 10), termtext.Line(f[1]), st.Row)
		}
	}
	if o.OpenWorld {
		w.Wrap(MarkOpenWorld+" open-world: the call may have reached outside systems", st.MarkOpenWorld)
	}
	if o.HintsChanged != "" {
		w.Wrap("the server changed the tool's hints: "+termtext.Line(o.HintsChanged), st.Warning)
	}

	w.Section(st, "Arguments "+st.Muted.Render(argsModeNote(p.argsMode)))
	if p.argsMode != sessionlog.ArgsNone {
		for _, l := range strings.Split(loggedArgsJSON(o.Args, p.argsMode), "\n") {
			w.WrapIndented(termtext.Sanitize(l), 2, st.Row)
		}
	}

	if failed := failedAttempts(o); len(failed) > 0 {
		w.Section(st, "Attempts")
		for _, a := range failed {
			w.WrapIndented(termtext.Line(a), 2, st.Warning)
		}
	}

	w.Section(st, "Result")
	for _, l := range resultSummary(o) {
		w.WrapIndented(termtext.Line(l), 2, st.Row)
	}
	if o.Error != "" {
		w.WrapIndented(termtext.Line(o.Error), 2, StatusStyle(o.Status, st))
	}
	p.openView.SetLines(w.Out)
}

func replayWord(safe bool) string {
	if safe {
		return ", replay-safe"
	}
	return ", not replay-safe"
}

func argsModeNote(m sessionlog.ArgsMode) string {
	switch m {
	case sessionlog.ArgsFull:
		return "as logged: in full (--log-args full)"
	case sessionlog.ArgsNone:
		return "not logged (--log-args none)"
	}
	return "as logged: secret-looking values redacted"
}

// loggedArgsJSON is the arguments as the session log writes them in mode m:
// as sent, or with the values of secret-looking keys and the secrets inside
// strings replaced: sessionlog's own redaction.
func loggedArgsJSON(args map[string]any, m sessionlog.ArgsMode) string {
	if len(args) == 0 {
		return "{}"
	}
	var v any = args
	if m != sessionlog.ArgsFull {
		v = sessionlog.ArgsRedact.Apply(args)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if enc.Encode(v) != nil {
		return "{}"
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func failedAttempts(o *client.Outcome) []string {
	var out []string
	for _, a := range o.Attempts {
		if a.Failure == "" {
			continue
		}
		s := fmt.Sprintf("%d  %s, %s", a.N, a.Failure, units.MS(a.DurationMS))
		if a.Error != "" {
			s += " — " + a.Error
		}
		if a.WaitMS > 0 {
			s += "; waited " + units.MS(a.WaitMS)
		}
		out = append(out, s)
	}
	return out
}

// resultSummary says what came back, without the content: its size, its
// blocks by type, structured content, and what was wrong with it.
func resultSummary(o *client.Outcome) []string {
	switch o.Status {
	case client.StatusRefused:
		return []string{"not sent"}
	case client.StatusFailed, client.StatusCancelled:
		if o.Result == nil {
			return []string{"no result"}
		}
	}
	var out []string
	size := client.HumanBytes(o.ResultSize)
	if o.Result == nil {
		return []string{size}
	}
	var blocks []string
	for _, b := range o.Result.Content {
		s := b.Type
		switch b.Type {
		case "text":
			s += " " + client.HumanBytes(len(b.Text))
		case "image", "audio":
			s += " " + cmp.Or(b.MIMEType, "unknown type") + " " + client.HumanBytes(b.Bytes)
		}
		blocks = append(blocks, s)
	}
	line := size
	if len(blocks) > 0 {
		line += " · " + units.Plural(len(blocks), "block") + ": " + strings.Join(blocks, ", ")
	}
	if len(o.Result.Structured) > 0 || len(o.StructuredContent) > 0 {
		line += " · structuredContent"
	}
	if o.IsError {
		line += " · isError"
	}
	out = append(out, line)
	if o.OutputSchemaError != "" {
		out = append(out, o.OutputSchemaError)
	}
	return out
}
