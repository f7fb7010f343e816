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
	// cancelling is set once the user pressed Esc.
	cancelling bool
}

// renderRunning shows a call in flight: spinner and elapsed time, the server's
// progress as a bar with its message, and the retry state with a countdown.
func renderRunning(r *runningCall, spin string, now time.Time, bar progress.Model, width int, st *style.Styles, keys *keymap.KeyMap) string {
	w := &layout.Lines{Width: width}
	t := r.call.Tool
	w.Add(toolHeading(st, t))
	args, _ := json.Marshal(r.call.Args)
	w.Add(st.Muted.Render(termtext.Truncate(termtext.Line(string(args)), width)))
	w.Blank()
	state := "running"
	if r.cancelling {
		state = "cancelling (the server has been told)"
	}
	w.Add(fmt.Sprintf("%s %s %s", spin, state, st.Muted.Render(units.Duration(now.Sub(r.started)))))
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
	w.Add(st.KeyHint(keys.CancelCall.Help().Key, "cancel the call (the server is told)"))
	return joinLines(w.Out)
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
