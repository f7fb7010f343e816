package watch

import (
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/policy"
)

// filter picks the calls shown, as the log pane's does: by status (f
// cycles), open-world calls only (o), and what is typed after /: each word
// must match, a word with * or ? is a glob on the tool's name (policy's, as
// mcpsh log --tool has it), host:GLOB one on the host's name (mcpsh log
// --host), any other word is looked for in the tool's name and title.
type filter struct {
	status    client.Status // "" for every status
	openWorld bool
	text      string
}

// statuses is the order f cycles in; "" is every status, "waiting" the
// calls a person is asked about, "running" those under way.
var statuses = []client.Status{"", statusWaiting, statusRunning, client.StatusOK, client.StatusToolError, client.StatusFailed, client.StatusRefused, client.StatusCancelled}

// The states of a call that has not ended.
const (
	statusWaiting client.Status = "waiting"
	statusRunning client.Status = "running"
)

func (f *filter) nextStatus() {
	for i, s := range statuses {
		if s == f.status {
			f.status = statuses[(i+1)%len(statuses)]
			return
		}
	}
	f.status = ""
}

func (f filter) active() bool { return f.status != "" || f.openWorld || f.text != "" }

// statusOf is a call's status as the view shows it: how it ended, or
// whether it waits for a person or runs.
func statusOf(c *call) client.Status {
	switch {
	case c.ended:
		return c.status
	case c.waiting:
		return statusWaiting
	}
	return statusRunning
}

func (f filter) match(c *call) bool {
	if f.status != "" && statusOf(c) != f.status || f.openWorld && !c.openWorld {
		return false
	}
	for _, w := range strings.Fields(f.text) {
		if glob, ok := strings.CutPrefix(w, "host:"); ok {
			if c.host == nil || !policy.MatchGlob(glob, c.host.Name) {
				return false
			}
			continue
		}
		if strings.ContainsAny(w, "*?") {
			if !policy.MatchGlob(w, c.tool) {
				return false
			}
			continue
		}
		lw := strings.ToLower(w)
		if !strings.Contains(strings.ToLower(c.tool), lw) && !strings.Contains(strings.ToLower(c.title), lw) {
			return false
		}
	}
	return true
}
