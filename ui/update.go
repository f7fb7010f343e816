package ui

import (
	"context"
	"fmt"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/form"
	"github.com/mcpsh/mcpsh/ui/panes"
)

// Update handles one message. It does no I/O: anything that talks to a
// server is returned as a command. The root handles the screen, the keys and
// the inbox; an answer for a server goes to that server (workspaceroute.go),
// and anything else to the one on screen. It ends by laying out the next
// frame (frame.go), so View only reads.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.route(msg)
	if follow := m.followAsks(); follow != nil {
		cmd = tea.Batch(cmd, follow)
	}
	m.prepareFrame()
	return m, cmd
}

func (m *Model) route(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case serverMsg:
		return m.within(msg.srv, func() tea.Cmd { return m.update(msg.msg) })
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
		return m.auditResized()
	case tea.KeyPressMsg:
		return m.onKey(msg)
	case tea.BackgroundColorMsg:
		return m.setBackground(msg.IsDark())
	case spinner.TickMsg:
		if !m.spinning() {
			return nil
		}
		var cmd tea.Cmd
		m.spinner, cmd = m.spinner.Update(msg)
		return cmd
	case askMsg:
		// Each request names its server; one that does not is the screen's.
		return tea.Batch(waitInbox(m.inbox), m.within(msg.ask.srv, func() tea.Cmd { return m.onAsk(msg.ask) }))
	case noticeMsg:
		return tea.Batch(waitInbox(m.inbox), m.within(msg.srv, func() tea.Cmd { return m.onNotice(msg.text) }))
	}
	return m.update(msg)
}

// update handles a message for the server embedded now.
func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case connectedMsg:
		return m.onConnected(msg)
	case listedMsg:
		if msg.id != m.listReq {
			return nil // a refresh that a newer one overtook
		}
		if msg.err != nil {
			m.status = "refreshing the tool list failed: " + termtext.Line(msg.err.Error())
			return nil
		}
		m.setTools(msg.listing.Tools)
		m.status = fmt.Sprintf("the server's tools changed: %d tools now", len(msg.listing.Tools))
		m.recheckOpenCall()
		return nil
	case sessionEventMsg:
		if m.session == nil || msg.from != m.session {
			return nil // an event of a session replaced since: read no further
		}
		return m.onEvent(msg.event)
	case eventMsg:
		return m.onEvent(msg.event)
	case panes.TrafficMsg:
		m.traffic.Add(msg.Entries, msg.Dropped)
		return m.cmd(m.traffic.Wait())
	case logLevelSetMsg:
		return nil
	case progressMsg:
		if r := m.running; r != nil && r.run.id == msg.id {
			p := msg.progress
			r.progress = &p
			return m.cmd(waitCallUpdate(r.run))
		}
		return nil
	case retryMsg:
		if r := m.running; r != nil && r.run.id == msg.id {
			n := msg.notice
			r.retry, r.retryAt = &n, m.now()
			return m.cmd(waitCallUpdate(r.run))
		}
		return nil
	case callDoneMsg:
		return m.onCallDone(msg)
	case auditDoneMsg:
		return m.onAuditDone(msg)
	case resourcesListedMsg:
		return m.onResourcesListed(msg)
	case promptsListedMsg:
		return m.onPromptsListed(msg)
	case resourceReadMsg:
		m.onResourceRead(msg)
		return nil
	case subscribedMsg:
		m.onSubscribed(msg)
		return nil
	case promptGotMsg:
		return m.onPromptGot(msg)
	case completeDueMsg:
		return m.onCompleteDue(msg)
	case completedMsg:
		m.onCompleted(msg)
		return nil
	case savedMsg:
		m.onSaved(msg)
		return nil
	case openedMsg:
		if d, ok := m.dialog.(*urlDialog); ok {
			d.opened(msg)
		}
		return nil
	case askGoneMsg:
		return m.onAskGone(msg.id)
	}
	return m.forwardToFocus(msg)
}

// busy reports whether something on screen waits with a spinner.
func (m *Model) busy() bool {
	switch m.mode {
	case modeRunning, modeConnecting, modeLogin:
		return true
	case modeResource:
		return m.reader != nil && !m.reader.done
	case modePrompt:
		return m.promptOut != nil && !m.promptOut.done
	}
	return m.auditing()
}

// forwardToFocus gives other messages (cursor blinks and the like) to the
// component that has focus.
func (m *Model) forwardToFocus(msg tea.Msg) tea.Cmd {
	switch {
	case m.dialog != nil:
		return m.dialog.update(msg)
	case m.overlay == overlayServers:
		var cmd tea.Cmd
		m.pick.in, cmd = m.pick.in.Update(msg)
		return cmd
	case m.overlay == overlayTraffic && m.traffic.Filtering():
		return m.traffic.Forward(msg)
	case m.filtering:
		var cmd tea.Cmd
		m.filterIn, cmd = m.filterIn.Update(msg)
		return cmd
	case m.mode == modeForm && m.form != nil:
		return m.form.Update(msg)
	case m.mode == modeArgs && m.strForm != nil:
		return m.strForm.Forward(msg)
	case m.mode == modeResource && m.saving != nil:
		var cmd tea.Cmd
		m.saving.in, cmd = m.saving.in.Update(msg)
		return cmd
	}
	return nil
}

func (m *Model) onConnected(msg connectedMsg) tea.Cmd {
	if msg.id != m.connReq {
		if msg.session != nil {
			return m.closeSessionCmd(msg.session) // superseded: nobody will use it
		}
		return nil
	}
	if m.connecting != nil {
		m.connecting.cancel() // releases the deadline's timer; the command is done
		m.connecting = nil
	}
	if msg.err != nil {
		if m.mode == modeLogin {
			m.loginFailed()
		}
		m.mode, m.connErr = modeConnectFailed, msg.err
		return nil
	}
	m.preLogin = nil
	m.session, m.server = msg.session, msg.session.Server()
	m.setTools(msg.listing.Tools)
	for _, w := range msg.listing.Warnings {
		m.serverPane.Append(client.Event{Kind: client.EventLog, Time: m.now(), Level: "warning", Logger: "mcpsh", Text: w})
	}
	m.serverPane.SetInstructions(m.server.Instructions)
	m.mode, m.view = modeBrowse, viewTools
	m.resources, m.prompts = resourcesState{}, promptsState{}
	clear(m.subscribed)
	m.layout()
	cmds := []tea.Cmd{m.cmd(waitEvent(m.session)), m.listResources(), m.listPrompts()}
	if m.server.Logging {
		cmds = append(cmds, m.cmd(setLogLevelCmd(m.ctx, m.session)))
	}
	return tea.Batch(cmds...)
}

func (m *Model) onEvent(e client.Event) tea.Cmd {
	m.serverPane.Append(e)
	next := m.cmd(waitEvent(m.session))
	switch e.Kind {
	case client.EventToolsChanged:
		m.listReq = m.nextID()
		return tea.Batch(next, m.cmd(listCmd(m.ctx, m.listReq, m.session)))
	case client.EventReconnected:
		// The client listed the tools again before it said so; the rest is
		// listed here, and the subscriptions, which ended with the old
		// session, are made again.
		m.setTools(m.session.Tools())
		m.status = termtext.Line(e.Text)
		m.recheckOpenCall()
		return tea.Batch(next, m.listResources(), m.listPrompts(), m.resubscribe())
	case client.EventResourcesChanged:
		return tea.Batch(next, m.listResources())
	case client.EventPromptsChanged:
		return tea.Batch(next, m.listPrompts())
	case client.EventResourceUpdated:
		return tea.Batch(next, m.onResourceUpdated(e.Text))
	}
	return next
}

func (m *Model) onCallDone(msg callDoneMsg) tea.Cmd {
	r := m.running
	if r == nil || r.run.id != msg.id {
		return nil
	}
	m.running = nil
	r.cancel()
	if msg.err != nil {
		// Arguments the form let through but the client refused: nothing was sent.
		m.mode, m.status = modeForm, termtext.Line(msg.err.Error())
		return nil
	}
	o := msg.outcome
	m.outcomes = append(m.outcomes, o)
	m.logOutcomes = append(m.logOutcomes, o)
	m.logPane.SetEntries(m.opts.LogPath, m.logOutcomes)
	if r.call.Declined {
		m.mode, m.status = modeForm, "cancelled: nothing was sent"
		return nil
	}
	m.result.SetOutcome(o)
	m.mode = modeResult
	return nil
}

// startCall hands the call to Session.Do in a command; progress and retries
// come back through the call's channel.
func (m *Model) startCall(c *client.Call) tea.Cmd {
	ctx, cancel := context.WithCancel(m.ctx)
	r := newCallRun(m.nextID())
	m.running = &runningCall{run: r, call: c, cancel: cancel, started: m.now()}
	m.pending = nil
	m.lastTool, m.lastArgs = c.Tool.Name, c.Args
	m.mode = modeRunning
	return tea.Batch(m.cmd(doCallCmd(ctx, m.session, c, r)), m.cmd(waitCallUpdate(r)), m.spinner.Tick)
}

// runForm validates the form and either runs the call, asks first, or runs it
// into a refusal (which Session.Do records without sending anything).
func (m *Model) runForm() tea.Cmd {
	args, ok := m.form.Args()
	if !ok {
		return nil
	}
	t, ok := m.session.Tool(m.form.Tool().Name)
	if !ok {
		m.status = termtext.Line(m.form.Tool().Name) + " is no longer listed by the server: nothing was sent"
		return nil
	}
	c := m.newCall(t, args)
	d := m.session.Decide(c)
	if d.Verdict == policy.Ask || (d.Verdict == policy.Run && m.formChange != "") {
		m.pending = &pendingCall{call: c, decision: d, changed: m.formChange}
		m.mode = modeConfirm
		return nil
	}
	return m.startCall(c)
}

func (m *Model) openForm(t *client.Tool, args map[string]any) {
	m.form, m.formChange = form.NewArgForm(t, m.st, m.keys), ""
	if args != nil {
		m.form.SetArgs(args)
	}
	m.mode = modeForm
	m.layout()
}

// quit ends the view; Run then cancels every server's call in flight and
// closes the sessions.
func (m *Model) quit() tea.Cmd {
	for _, s := range m.servers {
		if s.running != nil {
			s.running.cancel()
		}
	}
	return tea.Quit
}
