package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mcpsh/mcpsh/ui/layout"

	"charm.land/bubbles/v2/progress"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/style"
)

// runningCall is the call in flight.
type runningCall struct {
	run      *callRun
	call     *client.Call
	cancel   context.CancelFunc
	started  time.Time
	progress *client.Progress
	// retry is the last retry notice and when it arrived, for the countdown.
	retry   *client.RetryNotice
	retryAt time.Time
	// task is the task the server runs the call as, as last heard; nil
	// while it is a plain call.
	task *client.Task
	// cancelling is set once the user pressed Esc.
	cancelling bool
}

// renderRunning shows a call in flight: spinner and elapsed time, the task
// the server runs it as (its ID, status and status message), the server's
// progress as a bar with its message, and the retry state with a countdown.
func renderRunning(r *runningCall, spin string, now time.Time, bar progress.Model, width int, st *style.Styles, keys *keymap.KeyMap) string {
	w := &layout.Lines{Width: width}
	t := r.call.Tool
	w.Add(toolHeading(st, t))
	args, _ := json.Marshal(r.call.Args)
	w.Add(st.Muted.Render(termtext.Truncate(termtext.Line(string(args)), width)))
	w.Blank()
	state, what := "running", "call"
	switch {
	case r.task != nil && r.cancelling:
		state, what = "cancelling the task (the server is told)", "task"
	case r.task != nil:
		state, what = "running as a task", "task"
	case r.cancelling:
		state = "cancelling (the server has been told)"
	}
	w.Add(fmt.Sprintf("%s %s %s", spin, state, st.Muted.Render(units.Duration(now.Sub(r.started)))))
	if t := r.task; t != nil {
		renderTask(w, t, st)
	}
	if p := r.progress; p != nil {
		w.Blank()
		if p.Total > 0 {
			bar.SetWidth(min(width, 60))
			w.Add(bar.ViewAs(min(p.Progress/p.Total, 1)) + fmt.Sprintf(" %.0f/%.0f", p.Progress, p.Total))
		} else {
			w.Add(fmt.Sprintf("progress %.0f", p.Progress))
		}
		if p.Message != "" {
			w.Add(st.Muted.Render(termtext.Line(p.Message)))
		}
	}
	if n := r.retry; n != nil {
		w.Blank()
		left := n.Wait - now.Sub(r.retryAt)
		next := "next in " + units.Duration(left)
		if left <= 0 {
			next = "sending again"
		}
		w.Add(st.Warning.Render(fmt.Sprintf("attempt %d of %d failed; %s", n.Attempt, n.Of, next)))
		w.Wrap(termtext.Line(n.Error), st.Muted)
	}
	w.Blank()
	w.Add(st.KeyHint(keys.CancelCall.Help().Key, "cancel the "+what+" (the server is told)"))
	return joinLines(w.Out)
}

// taskMessageLines is the most lines a task's status message takes on the
// running screen: a server may say anything at any length, and the screen
// is drawn every frame.
const taskMessageLines = 3

// renderTask adds a running task: its ID whole (a person may copy it to
// look the task up later), its status, and the server's latest words on it.
func renderTask(w *layout.Lines, t *client.Task, st *style.Styles) {
	w.Blank()
	w.Wrap("task "+termtext.Line(t.ID), st.Row)
	status := st.Row
	if t.Status == client.TaskInputRequired {
		status = st.Warning
	}
	w.Add(status.Render(termtext.Line(string(t.Status))))
	if t.StatusMessage == "" {
		return
	}
	width := max(w.Width, 1)
	msg := t.StatusMessage
	if n := width * taskMessageLines * 4; len(msg) > n { // no cell takes more than 4 bytes
		msg = msg[:layout.RuneStart(msg, n)]
	}
	for _, l := range layout.WrapCapped(termtext.Line(msg), width, taskMessageLines) {
		w.Add(st.Muted.Render(l))
	}
}

func joinLines(ls []string) string {
	out := ""
	for i, l := range ls {
		if i > 0 {
			out += "\n"
		}
		out += l
	}
	return out
}

func itoa(n int) string { return fmt.Sprint(n) }
