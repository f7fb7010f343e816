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
	"os"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/progress"
	"charm.land/bubbles/v2/spinner"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/theme"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/panes"
	"github.com/mcpsh/mcpsh/ui/style"
)

type mode int

const (
	modeConnecting mode = iota
	modeConnectFailed
	modeBrowse
	modeForm
	modeConfirm
	modeRunning
	modeResult
	modeArgs     // a template's variables or a prompt's arguments (form.StringForm)
	modeResource // the resource viewer
	modePrompt   // a prompt's messages
	modeLogin    // connecting again with a browser login
)

// overlay is a pane shown over whatever mode is current.
type overlay int

const (
	overlayNone overlay = iota
	overlayHelp
	overlayLog
	overlayServer
	overlayAudit
	overlayTraffic // the wire: every JSON-RPC message (ui/panes/traffic.go)
	overlayServers // the workspace's servers, to pick one by name (serverpick.go)
)

// Model is the root of the TUI: the workspace of servers, what is shared by
// all of them (the screen, the keys, the session log, the inbox of the
// servers' requests) and the overlay on screen. Everything that belongs to one
// server lives in its serverState (workspace.go); the one on screen is
// embedded, so the handlers read and write it as m.session, m.list, m.mode…
// Switching servers swaps which one is embedded, and a message for a server
// that is not on screen is handled with that server embedded for the time it
// takes (Model.within): the root routes, the servers hold the state.
type Model struct {
	ctx  context.Context
	opts Options
	st   *style.Styles
	keys *keymap.KeyMap
	now  func() time.Time
	// width is the body's width: the terminal's, less the server sidebar when
	// there is one (screenW is the terminal's); height is the terminal's.
	width   int
	height  int
	screenW int

	overlay overlay
	reqSeq  int

	// The workspace: every server, the one on screen (embedded), and the
	// server to go back to once the requests of another one that took the
	// screen are answered.
	*serverState
	servers   []*serverState
	cur       int
	askReturn *serverState
	pick      serverPick

	// A server's requests for the user arrive through the inbox, whichever
	// server asks (asks.go); each server queues its own.
	inbox *inbox
	// retired are sessions being closed in a command (replaced by R, or
	// superseded); Close waits for them so no server outlives mcpsh.
	retired []*client.Session
	// viewElicit and viewSample: the view answers the servers' requests
	// (Options.Client did not bring its own answerers).
	viewElicit, viewSample bool

	// logOutcomes are every server's calls, for the session log's pane.
	logOutcomes []*client.Outcome
	logPane     *panes.Log
	helpView    helpOverlay
	// detail is the tools view's detail, drawn by Update (frame.go).
	detail  detailCache
	help    help.Model
	spinner spinner.Model
	bar     progress.Model
}

// New builds the model. ctx bounds every server exchange it starts.
func New(ctx context.Context, opts Options) *Model {
	st := style.NewStyles(theme.Dark(), opts.NoColor)
	keys := keymap.Default()
	m := &Model{
		ctx:     ctx,
		opts:    opts,
		st:      st,
		keys:    keys,
		now:     opts.Now,
		width:   80,
		height:  24,
		screenW: 80,

		logPane: panes.NewLog(st, keys),
		help:    help.New(),
		spinner: spinner.New(spinner.WithSpinner(spinner.Dot)),
		bar:     progress.New(progress.WithoutPercentage(), progress.WithColors(st.ProgressFull, st.ProgressEmpty)),
	}
	if m.now == nil {
		m.now = time.Now
	}
	m.inbox = newInbox(ctx.Done())
	// The client's callbacks for a server's requests hand them to the view,
	// which asks the user; a caller may answer them itself instead. Each
	// server's session gets callbacks that name it (connectWith).
	m.viewElicit, m.viewSample = m.opts.Client.Elicit == nil, m.opts.Client.Sample == nil
	if m.opts.Client.Elicit == nil {
		m.opts.Client.Elicit, m.opts.Client.ElicitURL = m.inbox.elicit, true
	}
	if m.opts.Client.Sample == nil {
		m.opts.Client.Sample = m.inbox.sample
	}
	for _, spec := range m.serverSpecs() {
		m.servers = append(m.servers, m.newServerState(spec))
	}
	m.serverState = m.servers[0]
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

// openBrowser opens a URL the user chose to open.
func (m *Model) openBrowser(ctx context.Context, url string) error {
	if m.opts.OpenBrowser != nil {
		return m.opts.OpenBrowser(ctx, url)
	}
	return client.OpenBrowser(os.LookupEnv)(ctx, url)
}

// Session is the session of the server on screen, for the caller to close.
func (m *Model) Session() *client.Session { return m.session }

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

func (m *Model) nextID() int {
	m.reqSeq++
	return m.reqSeq
}

// newCall is a call with the run's flags and limits, as the user asked for it.
func (m *Model) newCall(t *client.Tool, args map[string]any) *client.Call {
	return &client.Call{
		Tool: t, Args: args, Mode: policy.Interactive,
		Preapproved: m.opts.Yes, OnlyReadOnly: m.opts.ReadOnly, SessionAllowed: m.sessionAllowed(t),
		Timeout: m.opts.Timeout, MaxDuration: m.opts.MaxDuration, Attempts: m.opts.Attempts, RetryMax: m.opts.RetryMax,
	}
}

// sessionAllowed reports whether the user allowed t for the session, as it is
// declared now. It is the server's own: the list of a server off screen asks it too.
func (s *serverState) sessionAllowed(t *client.Tool) bool {
	h, ok := s.allowed[t.Name]
	return ok && h == t.Hints
}

// decision is what mcpsh would do with a call to t now; pure, no I/O.
func (m *Model) decision(t *client.Tool) policy.Decision {
	if m.session == nil || t == nil {
		return policy.Decision{}
	}
	return m.session.Decide(m.newCall(t, nil))
}

// setTools takes a new listing: the list keeps its selection, and the audit
// starts over for the new tools.
func (m *Model) setTools(tools []*client.Tool) {
	m.list.SetTools(tools)
	m.listGen++
	m.resetAudit(tools)
}
