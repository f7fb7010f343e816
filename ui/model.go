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
	"charm.land/bubbles/v2/textinput"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/policy"
)

type mode int

const (
	modeConnecting mode = iota
	modePicker
	modeConnectFailed
	modeBrowse
	modeForm
	modeConfirm
	modeRunning
	modeResult
	modeArgs     // a template's variables or a prompt's arguments (stringForm)
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
)

// Model is the root of the TUI.
type Model struct {
	ctx    context.Context
	opts   Options
	st     *Styles
	keys   *KeyMap
	now    func() time.Time
	width  int
	height int

	mode    mode
	overlay overlay
	status  string // a one-line notice, cleared by the next key

	// Connection.
	target  *client.Target
	picker  int     // cursor in opts.Choices
	choice  *Choice // the one chosen, if the user chose
	connErr error
	session *client.Session
	server  client.ServerInfo
	reqSeq  int
	connReq int
	listReq int
	// connecting is the connect command in flight, if any.
	connecting *connecting
	// auth is the OAuth configuration the next connect uses; notices are
	// what a login in progress said (login.go).
	auth     *client.Auth
	preLogin *client.Auth // the Auth before a login, while it runs
	notices  []string

	// The server's views (views.go) beside the tools: resources and prompts,
	// their forms and viewers.
	view       serverView
	resources  resourcesState
	prompts    promptsState
	strForm    *stringForm
	reader     *resourceView
	saving     *savePrompt
	promptOut  *promptView
	subscribed map[string]bool

	// A server's requests for the user (asks.go): the queue, the first one's
	// dialog, and the inbox the client's callbacks hand them in by.
	inbox  *inbox
	asks   []*serverAsk
	dialog askDialog

	// Tools.
	list      toolList
	filtering bool
	filterIn  textinput.Model
	detailTop int // first line of the detail pane on screen

	// Calls.
	form     *argForm
	pending  *pendingCall
	running  *runningCall
	result   *resultView
	lastTool string // the last call's tool and arguments, for "edit and run again"
	lastArgs map[string]any
	// allowed holds the tools the user allowed for this session, with the
	// hints they had then: an allowance holds only for those hints.
	allowed map[string]policy.Hints
	// formChange says how the server re-declared the tool of the open form;
	// running it then asks first, whatever the new class.
	formChange string
	outcomes   []*client.Outcome

	// listGen counts listings; the audit (audit.go) is made per listing.
	listGen   int
	audit     auditState
	auditPane *auditPane

	logPane    *logPane
	serverPane *serverPane
	help       help.Model
	spinner    spinner.Model
	bar        progress.Model
}

// New builds the model. ctx bounds every server exchange it starts.
func New(ctx context.Context, opts Options) *Model {
	st := NewStyles(DefaultTheme(), opts.NoColor)
	keys := DefaultKeyMap()
	m := &Model{
		ctx:      ctx,
		opts:     opts,
		st:       st,
		keys:     keys,
		now:      opts.Now,
		width:    80,
		height:   24,
		target:   opts.Target,
		allowed:  map[string]policy.Hints{},
		filterIn: textinput.New(),
		result:   newResultView(st, keys),

		logPane:    newLogPane(st, keys),
		auditPane:  newAuditPane(st, keys),
		serverPane: newServerPane(st, keys),
		help:       help.New(),
		spinner:    spinner.New(spinner.WithSpinner(spinner.Dot)),
		bar:        progress.New(progress.WithoutPercentage(), progress.WithColors(st.ProgressFull, st.ProgressEmpty)),
	}
	if m.now == nil {
		m.now = time.Now
	}
	m.subscribed = map[string]bool{}
	m.inbox = newInbox(ctx.Done())
	// The client's callbacks for a server's requests hand them to the view,
	// which asks the user; a caller may answer them itself instead.
	if m.opts.Client.Elicit == nil {
		m.opts.Client.Elicit, m.opts.Client.ElicitURL = m.inbox.elicit, true
	}
	if m.opts.Client.Sample == nil {
		m.opts.Client.Sample = m.inbox.sample
	}
	// OAuth notices are shown here, not printed under the screen.
	m.auth = m.opts.Client.Auth
	if m.auth != nil {
		m.auth.Notify = m.inbox.notify
	}
	for _, c := range m.opts.Choices {
		if c.Auth != nil {
			c.Auth.Notify = m.inbox.notify
		}
	}
	m.filterIn.SetStyles(inputStyles(st))
	m.filterIn.Prompt = "/ "
	m.filterIn.Placeholder = "filter by title, name or description"
	m.help.Styles.ShortKey, m.help.Styles.ShortDesc = st.Key, st.KeyDesc
	m.help.Styles.FullKey, m.help.Styles.FullDesc = st.Key, st.KeyDesc
	m.help.Styles.ShortSeparator, m.help.Styles.FullSeparator, m.help.Styles.Ellipsis = st.Muted, st.Muted, st.Muted
	m.spinner.Style = st.Title
	m.logPane.SetEntries(opts.LogPath, nil)
	if m.target == nil && len(opts.Choices) > 0 {
		m.mode = modePicker
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

// Session is the session the model connected, for the caller to close.
func (m *Model) Session() *client.Session { return m.session }

func (m *Model) nextID() int {
	m.reqSeq++
	return m.reqSeq
}

// newCall is a call with the run's flags and limits, as the user asked for it.
func (m *Model) newCall(t *client.Tool, args map[string]any) *client.Call {
	return &client.Call{
		Tool: t, Args: args, Mode: policy.Interactive,
		Yes: m.opts.Yes, ReadOnly: m.opts.ReadOnly, SessionAllowed: m.sessionAllowed(t),
		Timeout: m.opts.Timeout, MaxDuration: m.opts.MaxDuration, Attempts: m.opts.Attempts, RetryMax: m.opts.RetryMax,
	}
}

// sessionAllowed reports whether the user allowed t for the session, as it is
// declared now.
func (m *Model) sessionAllowed(t *client.Tool) bool {
	h, ok := m.allowed[t.Name]
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
