package ui

import (
	"context"
	"fmt"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
)

// Update handles one message. It does no I/O: anything that talks to the
// server is returned as a command.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		return m, m.auditResized()
	case tea.KeyPressMsg:
		return m, m.onKey(msg)
	case spinner.TickMsg:
		if !m.busy() {
			return m, nil
		}
		var cmd tea.Cmd
		m.spinner, cmd = m.spinner.Update(msg)
		return m, cmd
	case connectedMsg:
		return m, m.onConnected(msg)
	case listedMsg:
		if msg.id != m.listReq {
			return m, nil // a refresh that a newer one overtook
		}
		if msg.err != nil {
			m.status = "refreshing the tool list failed: " + termtext.Line(msg.err.Error())
			return m, nil
		}
		m.setTools(msg.listing.Tools)
		m.status = fmt.Sprintf("the server's tools changed: %d tools now", len(msg.listing.Tools))
		m.recheckOpenCall()
		return m, nil
	case eventMsg:
		return m, m.onEvent(msg.event)
	case logLevelSetMsg:
		return m, nil
	case progressMsg:
		if r := m.running; r != nil && r.run.id == msg.id {
			p := msg.progress
			r.progress = &p
			return m, waitCallUpdate(r.run)
		}
		return m, nil
	case retryMsg:
		if r := m.running; r != nil && r.run.id == msg.id {
			n := msg.notice
			r.retry, r.retryAt = &n, m.now()
			return m, waitCallUpdate(r.run)
		}
		return m, nil
	case callDoneMsg:
		return m, m.onCallDone(msg)
	case auditDoneMsg:
		return m, m.onAuditDone(msg)
	case resourcesListedMsg:
		return m, m.onResourcesListed(msg)
	case promptsListedMsg:
		return m, m.onPromptsListed(msg)
	case resourceReadMsg:
		m.onResourceRead(msg)
		return m, nil
	case subscribedMsg:
		m.onSubscribed(msg)
		return m, nil
	case promptGotMsg:
		return m, m.onPromptGot(msg)
	case completeDueMsg:
		return m, m.onCompleteDue(msg)
	case completedMsg:
		m.onCompleted(msg)
		return m, nil
	case savedMsg:
		m.onSaved(msg)
		return m, nil
	case openedMsg:
		if d, ok := m.dialog.(*urlDialog); ok {
			d.opened(msg)
		}
		return m, nil
	case askMsg:
		return m, m.onAsk(msg.ask)
	case askGoneMsg:
		return m, m.onAskGone(msg.id)
	case noticeMsg:
		return m, m.onNotice(msg.text)
	}
	return m, m.forwardToFocus(msg)
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
	case m.filtering:
		var cmd tea.Cmd
		m.filterIn, cmd = m.filterIn.Update(msg)
		return cmd
	case m.mode == modeForm && m.form != nil:
		return m.form.Update(msg)
	case m.mode == modeArgs && m.strForm != nil:
		return m.strForm.forward(msg)
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
			msg.session.Close() // superseded: nobody will use it
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
	cmds := []tea.Cmd{waitEvent(m.session.Events()), m.listResources(), m.listPrompts()}
	if m.server.Logging {
		cmds = append(cmds, setLogLevelCmd(m.ctx, m.session))
	}
	return tea.Batch(cmds...)
}

func (m *Model) onEvent(e client.Event) tea.Cmd {
	m.serverPane.Append(e)
	next := waitEvent(m.session.Events())
	switch e.Kind {
	case client.EventToolsChanged:
		m.listReq = m.nextID()
		return tea.Batch(next, listCmd(m.ctx, m.listReq, m.session))
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
	m.logPane.SetEntries(m.opts.LogPath, m.outcomes)
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
	return tea.Batch(doCallCmd(ctx, m.session, c, r), waitCallUpdate(r), m.spinner.Tick)
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
	m.form, m.formChange = newArgForm(t, m.st, m.keys), ""
	if args != nil {
		m.form.SetArgs(args)
	}
	m.mode = modeForm
	m.layout()
}

func (m *Model) quit() tea.Cmd {
	if m.running != nil {
		m.running.cancel()
	}
	return tea.Quit
}
