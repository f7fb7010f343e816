package ui

import (
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/form"
	"github.com/mcpsh/mcpsh/ui/overlays"
	"github.com/mcpsh/mcpsh/ui/resultview"
)

// serverState is everything the view holds for one server: its connection,
// listings, views and their selections, the filter, the calls, allowances and
// audit, its output and its traffic, and the requests it waits on the user
// for. Its handlers are its own methods; what every server shares (styles,
// keys, clock, request IDs, the screen's size) comes in through common.
type serverState struct {
	*common

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
	// ended says how the session's connection ended on its own (a stdio
	// server that exited), until the next request brings it back; "" while
	// it runs.
	ended string
	// relist: the tools changed again while listReq was in flight; one
	// more listing follows it, however many notices came meanwhile.
	relist bool
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
	saving     *resultview.SavePrompt
	promptOut  *promptView
	subscribed map[string]bool

	// The server's requests for the user (asks.go): the queue, whose first
	// one's dialog is on the dialog stack (asking); whether the user put
	// them aside (the dialog is then not shown) or muted the server; how many
	// were declined at once, and why the last were (askqueue.go).
	asks      []*serverAsk
	asksAside bool
	muted     bool
	declined  int
	refusing  string

	// Tools.
	list      toolList
	filtering bool
	filterIn  textinput.Model
	// prevFilter is the filter a new one replaced, for ↑ to bring back.
	prevFilter string
	detailTop  int // first line of the detail pane on screen

	// Calls.
	form     *form.ArgForm
	pending  *pendingCall // the confirmation's call, while its dialog is up
	running  *runningCall
	result   *resultview.View
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
	auditPane *overlays.Audit

	serverPane *overlays.Server
	traffic    *overlays.Traffic

	// detail is the tools view's detail, drawn by Update (frame.go).
	detail detailCache
	// displaced is the server whose screen this one took while it asks the
	// user (the view goes back there once answered); "" when none.
	displaced string

	// laid is the body size the components were last laid out for: a
	// server brought on screen after a resize is laid out again.
	laid [2]int
}

func newServerState(c *common, spec Choice) *serverState {
	s := &serverState{
		common:     c,
		spec:       spec,
		allowed:    map[string]policy.Hints{},
		subscribed: map[string]bool{},
		filterIn:   textinput.New(),
		auditPane:  overlays.NewAudit(c.st, c.keys),
		serverPane: overlays.NewServer(c.st, c.keys),
		traffic:    overlays.NewTraffic(c.st, c.keys, c.inbox.done, c.inbox.ctxDone),
	}
	if spec.Problem == "" || spec.Target.Kind != "" {
		t := spec.Target
		s.target = &t
	}
	// OAuth notices are shown here, not printed under the screen.
	if spec.Auth != nil {
		s.auth = spec.Auth
		s.auth.Notify = c.inbox.notifier(s)
	}
	s.result = resultview.New(c.st, c.keys, s.cmd)
	s.list.SetJudge(s)
	s.filterIn.SetStyles(c.st.TextInput())
	s.filterIn.Prompt = "/ "
	s.filterIn.Placeholder = "filter by title, name or description"
	if spec.Problem != "" {
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

// start begins what a server does when the view opens: connecting, unless
// it cannot be used as configured, and reading its traffic.
func (s *serverState) start() tea.Cmd {
	traffic := s.cmd(s.traffic.Wait())
	if s.startProblem() != "" {
		s.mode = modeConnectFailed
		return traffic
	}
	return tea.Batch(traffic, s.connect())
}

// reconnect closes the server's session, if it has one, and connects again.
func (s *serverState) reconnect() tea.Cmd {
	switch p := s.startProblem(); {
	case p != "":
		s.status = p
		return nil
	case s.running != nil:
		s.status = "a call is running: esc cancels it first"
		return nil
	case s.mode == modeLogin:
		return nil
	}
	// The old session's requests end with it, which closes their dialogs.
	old := s.session
	s.session = nil
	s.serverPane.Append(client.Event{Kind: client.EventReconnected, Time: s.now(), Text: "reconnecting, as asked"})
	return tea.Batch(s.closeSessionCmd(old), s.connect())
}

// newCall is a call with the run's flags and limits, as the user asked for it.
func (s *serverState) newCall(t *client.Tool, args map[string]any) *client.Call {
	return &client.Call{
		Tool: t, Args: args, Mode: policy.Interactive,
		Preapproved: s.opts.Yes, OnlyReadOnly: s.opts.ReadOnly, SessionAllowed: s.sessionAllowed(t),
		Timeout: s.opts.Timeout, MaxDuration: s.opts.MaxDuration, Attempts: s.opts.Attempts, RetryMax: s.opts.RetryMax,
	}
}

// sessionAllowed reports whether the user allowed t for the session, as it is
// declared now. It is the server's own: the list of a server off screen asks it too.
func (s *serverState) sessionAllowed(t *client.Tool) bool {
	h, ok := s.allowed[t.Name]
	return ok && h == t.Hints
}

// decision is what mcpsh would do with a call to t now; pure, no I/O.
func (s *serverState) decision(t *client.Tool) policy.Decision {
	if s.session == nil || t == nil {
		return policy.Decision{}
	}
	return s.session.Decide(s.newCall(t, nil))
}

// setTools takes a new listing: the list keeps its selection, and the audit
// starts over for the new tools.
func (s *serverState) setTools(tools []*client.Tool) {
	s.list.SetTools(tools)
	s.listGen++
	s.resetAudit(tools)
}
