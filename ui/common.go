package ui

import (
	"context"
	"os"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/progress"
	"charm.land/bubbles/v2/spinner"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/overlays"
	"github.com/mcpsh/mcpsh/ui/style"
)

// common is what the root and every server's model share, the way
// soft-serve gives each component its common.Common: the context every
// exchange runs in, the options, the styles and keys, the clock, the request
// IDs, the screen's size, the inbox of the servers' requests, the spinner
// and progress bar, and the session log. Each server holds a pointer to the
// one common; none of them holds another server's state.
type common struct {
	ctx  context.Context
	opts Options
	st   *style.Styles
	keys *keymap.KeyMap
	now  func() time.Time
	// reqSeq numbers requests across the servers, so an answer always finds
	// the request it was made for.
	reqSeq int
	// width is the body's width: the terminal's, less the server sidebar
	// when there is one (screenW is the terminal's); height is the
	// terminal's.
	width, height, screenW int
	// servers is how many servers the workspace holds; it never changes.
	servers int

	// A server's requests for the user arrive through the inbox, whichever
	// server asks (asks.go); viewElicit and viewSample: the view answers
	// them (Options.Client did not bring its own answerers).
	inbox                  *inbox
	viewElicit, viewSample bool
	// retired are sessions being closed in a command (replaced by R, or
	// superseded); Close waits for them so no server outlives mcpsh.
	retired []*client.Session

	// calls are every server's calls, for the session log's pane.
	calls   []*client.Outcome
	logPane *overlays.Log

	// dialogs is the one stack of dialogs (dialog.go): the root's, which
	// it owns, and each server's own.
	dialogs *dialogStack

	spinner spinner.Model
	bar     progress.Model

	// auditShown reports whether the audit's pane is on screen; the root,
	// which opens its panes, answers it.
	auditShown func() bool
}

func (c *common) nextID() int {
	c.reqSeq++
	return c.reqSeq
}

// workspace reports whether the view holds more than one server: the server
// bar is drawn, and the keys that switch servers work.
func (c *common) workspace() bool { return c.servers > 1 }

func (c *common) barShown() bool { return c.workspace() && c.screenW < sidebarMin }

// switchBindings are the keys that switch servers, in a workspace.
func (c *common) switchBindings() []key.Binding {
	if !c.workspace() {
		return nil
	}
	return []key.Binding{c.keys.PrevServer, c.keys.NextServer, c.keys.PickServer}
}

// record adds a call's outcome to the session log's pane.
func (c *common) record(o *client.Outcome) {
	c.calls = append(c.calls, o)
	c.logPane.SetEntries(c.opts.LogPath, c.calls)
}

// openBrowser opens a URL the user chose to open.
func (c *common) openBrowser(ctx context.Context, url string) error {
	if c.opts.OpenBrowser != nil {
		return c.opts.OpenBrowser(ctx, url)
	}
	return client.OpenBrowser(os.LookupEnv)(ctx, url)
}
