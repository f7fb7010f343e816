// Package ui is mcpsh's full-screen view (Bubble Tea v2) over the same client
// and policy as batch mode: tools grouped by safety, calls with examples, a
// confirmation before anything destructive, live progress and retries, and the
// session's log.
//
// The rules that keep it responsive: Update does no I/O (every server exchange
// is a command in commands.go whose answer carries a request ID, so late answers
// are dropped); server events arrive over the session's channel through a
// re-armed command; and nothing from the server is drawn without termtext.
package ui

import (
	"context"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/progress"
	"charm.land/bubbles/v2/spinner"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/theme"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/overlays"
	"github.com/mcpsh/mcpsh/ui/style"
)

type mode int

const (
	modeConnecting mode = iota
	modeConnectFailed
	modeBrowse
	modeForm
	modeRunning
	modeResult
	modeArgs     // a template's variables or a prompt's arguments (form.StringForm)
	modeResource // the resource viewer
	modePrompt   // a prompt's messages
	modeLogin    // connecting again with a browser login
)

// Model is the root of the TUI: a router. It holds the screen (through the
// shared common), the workspace of servers and which one is on screen, the
// one stack of dialogs (dialog.go), and the picker; each server's model
// (serverState, server.go) owns everything of that server and handles its
// own messages and keys. The root hands a server's answers to that server
// (they come back wrapped: route.go), keys to the dialog on top or to the
// server on screen, and draws the server's body inside its own frame.
type Model struct {
	*common

	// The workspace: every server, the one on screen, and the server to go
	// back to once the requests of another one that took the screen are
	// answered.
	servers   []*serverState
	cur       int
	askReturn *serverState
	pick      serverPick
	// settled: a server was ready on screen, or the user pressed a key;
	// the view no longer leaves a server that failed to start for one that
	// is ready (openOnReady).
	settled bool

	helpView helpOverlay
	help     help.Model
}

// New builds the model. ctx bounds every server exchange it starts.
func New(ctx context.Context, opts Options) *Model {
	st := style.NewStyles(theme.Dark(), opts.NoColor)
	keys := keymap.Default()
	c := &common{
		ctx:     ctx,
		opts:    opts,
		st:      st,
		keys:    keys,
		now:     opts.Now,
		width:   80,
		height:  24,
		screenW: 80,

		logPane: overlays.NewLog(st, keys),
		dialogs: &dialogStack{},
		spinner: spinner.New(spinner.WithSpinner(spinner.Dot)),
		bar:     progress.New(progress.WithoutPercentage(), progress.WithColors(st.ProgressFull, st.ProgressEmpty)),
	}
	m := &Model{common: c, help: help.New()}
	c.auditShown = func() bool { return m.paneShown(dialogAudit) }
	if c.now == nil {
		c.now = time.Now
	}
	c.inbox = newInbox(ctx.Done())
	// The client's callbacks for a server's requests hand them to the view,
	// which asks the user; a caller may answer them itself instead. Each
	// server's session gets callbacks that name it (connectWith).
	c.viewElicit, c.viewSample = c.opts.Client.Elicit == nil, c.opts.Client.Sample == nil
	if c.opts.Client.Elicit == nil {
		c.opts.Client.Elicit, c.opts.Client.ElicitURL = c.inbox.elicit, true
	}
	if c.opts.Client.Sample == nil {
		c.opts.Client.Sample = c.inbox.sample
	}
	specs := m.serverSpecs()
	c.servers = len(specs)
	for _, spec := range specs {
		m.servers = append(m.servers, newServerState(c, spec))
	}
	m.help.Styles.ShortKey, m.help.Styles.ShortDesc = st.Key, st.KeyDesc
	m.help.Styles.FullKey, m.help.Styles.FullDesc = st.Key, st.KeyDesc
	m.help.Styles.ShortSeparator, m.help.Styles.FullSeparator, m.help.Styles.Ellipsis = st.Muted, st.Muted, st.Muted
	m.spinner.Style = st.Title
	m.pick = newServerPick(st)
	m.logPane.SetServers(m.workspace())
	m.logPane.SetEntries(opts.LogPath, nil)
	if opts.LogArgs != "" {
		m.logPane.SetArgsMode(opts.LogArgs)
	}
	return m
}

// shown is the server on screen.
func (m *Model) shown() *serverState { return m.servers[m.cur] }

// Session is the session of the server on screen, for the caller to close.
func (m *Model) Session() *client.Session { return m.shown().session }

// Sessions are every server's sessions that are open.
func (m *Model) Sessions() []*client.Session {
	var out []*client.Session
	for _, s := range m.servers {
		if s.session != nil {
			out = append(out, s.session)
		}
	}
	return out
}
