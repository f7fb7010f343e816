package ui

import (
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/form"
	"github.com/mcpsh/mcpsh/ui/panes"
)

// The workspace: every server the view was opened on, each in its own
// serverState. The servers connect in parallel, each in its own command, and
// one that is slow or broken holds up nobody: its state says so in the server
// bar while the others are used. A single server named on the command line is
// a workspace of one, drawn as mcpsh always drew one server.

// serverState is everything the view holds for one server: its connection,
// listings, views and their selections, the filter, the calls, allowances and
// audit, its output and its traffic, and the requests it waits on the user
// for. The Model embeds the one on screen.
type serverState struct {
	// spec is how the server was given: its name, where it is, why it
	// cannot be used (Problem), its OAuth and roots.
	spec Choice

	mode   mode
	status string // a one-line notice, cleared by the next key

	// Connection.
	target  *client.Target
	connErr error
	session *client.Session
	server  client.ServerInfo
	connReq int
	listReq int
	// connecting is the connect command in flight, if any; abandoned are
	// earlier ones still ending, waited for when the view ends.
	connecting *connecting
	abandoned  []*connecting
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
	strForm    *form.StringForm
	reader     *resourceView
	saving     *savePrompt
	promptOut  *promptView
	subscribed map[string]bool

	// The server's requests for the user (asks.go): the queue and the first
	// one's dialog; whether the user put them aside (the dialog is then not
	// shown) or muted the server; how many were declined at once, and why
	// the last were (askqueue.go).
	asks      []*serverAsk
	dialog    askDialog
	asksAside bool
	muted     bool
	declined  int
	refusing  string

	// Tools.
	list      toolList
	filtering bool
	filterIn  textinput.Model
	detailTop int // first line of the detail pane on screen

	// Calls.
	form     *form.ArgForm
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
	auditPane *panes.Audit

	serverPane *panes.Server
	traffic    *panes.Traffic

	// laid is the body size the components were last laid out for: a
	// server brought on screen after a resize is laid out again.
	laid [2]int
}

// serverSpecs are the servers the options name: the target, or every choice;
// with neither, one that says how to name a server.
func (m *Model) serverSpecs() []Choice {
	o := m.opts
	switch {
	case o.Target != nil:
		return []Choice{{Name: o.Target.Label(), Transport: string(o.Target.Kind), Where: o.Target.Via(),
			Target: *o.Target, Auth: o.Client.Auth, Roots: o.Client.Roots}}
	case len(o.Choices) > 0:
		return o.Choices
	}
	return []Choice{{Name: "no server", Problem: "no server named: start mcpsh with --demo, -s NAME, --url URL or -- COMMAND"}}
}

func (m *Model) newServerState(c Choice) *serverState {
	s := &serverState{
		spec:       c,
		allowed:    map[string]policy.Hints{},
		subscribed: map[string]bool{},
		filterIn:   textinput.New(),
		auditPane:  panes.NewAudit(m.st, m.keys),
		serverPane: panes.NewServer(m.st, m.keys),
		traffic:    panes.NewTraffic(m.st, m.keys, m.inbox.done, m.inbox.ctxDone),
	}
	if c.Problem == "" || c.Target.Kind != "" {
		t := c.Target
		s.target = &t
	}
	// OAuth notices are shown here, not printed under the screen.
	if c.Auth != nil {
		s.auth = c.Auth
		s.auth.Notify = m.inbox.notifier(s)
	}
	s.result = newResultView(m.st, m.keys, s.cmd)
	s.list.SetJudge(s)
	s.filterIn.SetStyles(m.st.TextInput())
	s.filterIn.Prompt = "/ "
	s.filterIn.Placeholder = "filter by title, name or description"
	if c.Problem != "" {
		s.mode = modeConnectFailed
	}
	return s
}

// name is the server's name in the workspace.
func (s *serverState) name() string {
	if s.spec.Name != "" {
		return s.spec.Name
	}
	if s.target != nil {
		return s.target.Label()
	}
	return "?"
}

// unusable reports whether the server cannot be connected as configured.
func (s *serverState) unusable() bool { return s.spec.Problem != "" }

// startProblem says why the server may not be started, or "" when it may:
// the one rule for every way of starting it (the view opening, r, R, a
// login), whatever state it is in. A server its config cannot describe (a
// variable that is not set) or that waits for an approval (held) is never
// started; it says why on its screen and in the bar.
func (s *serverState) startProblem() string {
	switch {
	case s.unusable():
		return termtext.Line(s.name()) + " cannot be used as configured: " + termtext.Line(s.spec.Problem)
	case s.target == nil:
		return termtext.Line(s.name()) + " names no server to start"
	}
	return ""
}

// workspace reports whether the view holds more than one server: the server
// bar is drawn, and answers are routed to the server that asked for them.
func (m *Model) workspace() bool { return len(m.servers) > 1 }

// switchTo puts server i on screen. An overlay stays open over the new
// server (its output, its traffic, its audit).
func (m *Model) switchTo(i int) tea.Cmd {
	if i < 0 || i >= len(m.servers) || i == m.cur {
		return nil
	}
	m.cur = i
	m.serverState = m.servers[i]
	if m.laid != [2]int{m.width, m.bodyHeight()} {
		m.layout()
	}
	m.layoutShared()
	if m.overlay == overlayAudit {
		if m.session == nil {
			m.overlay = overlayNone
			return nil
		}
		return m.openAudit()
	}
	return nil
}

// step switches to the next (1) or previous (-1) server, round the ring.
func (m *Model) step(dir int) tea.Cmd {
	n := len(m.servers)
	if n < 2 {
		return nil
	}
	m.askReturn = nil // the user chose where to be
	return m.switchTo(((m.cur+dir)%n + n) % n)
}

// within runs f for server s, s embedded for the time it takes.
func (m *Model) within(s *serverState, f func() tea.Cmd) tea.Cmd {
	if s == nil || s == m.serverState {
		return f()
	}
	defer func() { m.serverState = m.servers[m.cur] }()
	m.serverState = s
	return f()
}

// followAsks puts on screen a server that waits on the user while the one
// on screen does not, and goes back to where the user was once every request
// is answered.
func (m *Model) followAsks() tea.Cmd {
	if m.dialog != nil || !m.workspace() {
		return nil
	}
	for i, s := range m.servers {
		if s.dialog != nil {
			if m.askReturn == nil {
				m.askReturn = m.serverState
			}
			return m.switchTo(i)
		}
	}
	if r := m.askReturn; r != nil {
		m.askReturn = nil
		for i, s := range m.servers {
			if s == r {
				return m.switchTo(i)
			}
		}
	}
	return nil
}

// spinning reports whether anything drawn waits with a spinner: the screen,
// or a server in the bar that connects or runs a call.
func (m *Model) spinning() bool {
	if m.busy() {
		return true
	}
	for _, s := range m.servers {
		if s.mode == modeConnecting || s.mode == modeLogin || s.running != nil {
			return true
		}
	}
	return false
}

// start begins what a server does when the view opens: connecting, unless
// it cannot be used as configured, and reading its traffic.
func (m *Model) start() tea.Cmd {
	traffic := m.cmd(m.traffic.Wait())
	if m.startProblem() != "" {
		m.mode = modeConnectFailed
		return traffic
	}
	return tea.Batch(traffic, m.connect())
}

// reconnect closes the server's session, if it has one, and connects again.
func (m *Model) reconnect() tea.Cmd {
	switch p := m.startProblem(); {
	case p != "":
		m.status = p
		return nil
	case m.running != nil:
		m.status = "a call is running: esc cancels it first"
		return nil
	case m.mode == modeLogin:
		return nil
	}
	// The old session's requests end with it, which closes their dialogs.
	old := m.session
	m.session = nil
	m.serverPane.Append(client.Event{Kind: client.EventReconnected, Time: m.now(), Text: "reconnecting, as asked"})
	return tea.Batch(m.closeSessionCmd(old), m.connect())
}
