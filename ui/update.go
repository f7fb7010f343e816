package ui

import (
	"context"

	"github.com/mcpsh/mcpsh/ui/resultview"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/form"
	"github.com/mcpsh/mcpsh/ui/overlays"
)

// update handles a message for the server: an answer to one of its
// commands, or what the root forwards to the server on screen.
func (s *serverState) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case connectedMsg:
		return s.onConnected(msg)
	case listedMsg:
		if msg.id != s.listReq {
			return nil // a refresh that a newer one overtook
		}
		s.listReq = 0
		var again tea.Cmd
		if s.relist {
			// What this listing says is already old: show it, and list once more.
			s.relist = false
			again = s.listTools()
		}
		if msg.err != nil {
			s.status = "refreshing the tool list failed: " + termtext.Line(msg.err.Error())
			return again
		}
		s.setTools(msg.listing.Tools)
		s.status = "the server's tools changed: " + units.Plural(len(msg.listing.Tools), "tool") + " now"
		s.recheckOpenCall()
		return again
	case sessionEventMsg:
		if s.session == nil || msg.from != s.session {
			return nil // an event of a session replaced since: read no further
		}
		return s.onEvent(msg.event)
	case eventMsg:
		return s.onEvent(msg.event)
	case overlays.TrafficMsg:
		s.traffic.Add(msg.Entries, msg.Dropped)
		return s.cmd(s.traffic.Wait())
	case logLevelSetMsg:
		return nil
	case progressMsg:
		if r := s.running; r != nil && r.run.id == msg.id {
			p := msg.progress
			r.progress = &p
			return s.cmd(waitCallUpdate(r.run))
		}
		return nil
	case retryMsg:
		if r := s.running; r != nil && r.run.id == msg.id {
			n := msg.notice
			r.retry, r.retryAt = &n, s.now()
			return s.cmd(waitCallUpdate(r.run))
		}
		return nil
	case taskMsg:
		if r := s.running; r != nil && r.run.id == msg.id {
			t := msg.task
			r.task = &t
			return s.cmd(waitCallUpdate(r.run))
		}
		return nil
	case callDoneMsg:
		return s.onCallDone(msg)
	case auditDoneMsg:
		return s.onAuditDone(msg)
	case resourcesListedMsg:
		return s.onResourcesListed(msg)
	case promptsListedMsg:
		return s.onPromptsListed(msg)
	case resourceReadMsg:
		s.onResourceRead(msg)
		return nil
	case subscribedMsg:
		s.onSubscribed(msg)
		return nil
	case promptGotMsg:
		return s.onPromptGot(msg)
	case completeDueMsg:
		return s.onCompleteDue(msg)
	case completedMsg:
		s.onCompleted(msg)
		return nil
	case resultview.SavedMsg:
		s.onSaved(msg)
		return nil
	case openedMsg:
		if d, ok := s.asking().(*urlDialog); ok {
			d.opened(msg)
		}
		return nil
	case askGoneMsg:
		return s.onAskGone(msg.id)
	}
	return s.forwardToFocus(msg)
}

// forwardToFocus gives other messages to the server's component that has
// focus.
func (s *serverState) forwardToFocus(msg tea.Msg) tea.Cmd {
	switch {
	case s.asking() != nil:
		return s.asking().update(msg)
	case s.pending != nil:
		return nil // the confirmation is over the form
	case s.filtering:
		var cmd tea.Cmd
		s.filterIn, cmd = s.filterIn.Update(msg)
		return cmd
	case s.mode == modeForm && s.form != nil:
		return s.form.Update(msg)
	case s.mode == modeArgs && s.strForm != nil:
		return s.strForm.Forward(msg)
	case s.mode == modeResource && s.saving != nil:
		return s.saving.Update(msg)
	}
	return nil
}

func (s *serverState) onConnected(msg connectedMsg) tea.Cmd {
	if msg.id != s.connReq {
		if msg.session != nil {
			return s.closeSessionCmd(msg.session) // superseded: nobody will use it
		}
		return nil
	}
	if s.connecting != nil {
		s.connecting.cancel() // releases the deadline's timer; the command is done
		s.connecting = nil
	}
	if msg.err != nil {
		if s.mode == modeLogin {
			s.loginFailed()
		}
		s.mode, s.connErr = modeConnectFailed, msg.err
		return nil
	}
	s.preLogin = nil
	s.session, s.server, s.ended = msg.session, msg.session.Server(), ""
	s.setTools(msg.listing.Tools)
	for _, w := range msg.listing.Warnings {
		s.serverPane.Append(client.Event{Kind: client.EventLog, Time: s.now(), Level: "warning", Logger: "mcpsh", Text: w})
	}
	s.serverPane.SetInstructions(s.server.Instructions)
	s.mode, s.view = modeBrowse, viewTools
	s.resources, s.prompts = resourcesState{}, promptsState{}
	clear(s.subscribed)
	s.layout()
	cmds := []tea.Cmd{s.cmd(waitEvent(s.session)), s.listResources(), s.listPrompts()}
	if s.server.Logging {
		cmds = append(cmds, s.cmd(setLogLevelCmd(s.ctx, s.session)))
	}
	return tea.Batch(cmds...)
}

func (s *serverState) onEvent(e client.Event) tea.Cmd {
	s.serverPane.Append(e)
	next := s.cmd(waitEvent(s.session))
	switch e.Kind {
	case client.EventToolsChanged:
		if s.listReq != 0 {
			// A listing is on its way: notices in a burst cost one more, not one each.
			s.relist = true
			return next
		}
		return tea.Batch(next, s.listTools())
	case client.EventEnded:
		s.ended = termtext.Line(e.Text)
		s.status = s.ended + ": " + s.keys.Reconnect.Help().Key + " or the next call starts it again"
		return next
	case client.EventReconnected:
		// The client listed the tools again before it said so; the rest is
		// listed here, and the subscriptions, which ended with the old
		// session, are made again.
		s.ended = ""
		s.setTools(s.session.Tools())
		s.status = termtext.Line(e.Text)
		s.recheckOpenCall()
		return tea.Batch(next, s.listResources(), s.listPrompts(), s.resubscribe())
	case client.EventResourcesChanged:
		return tea.Batch(next, s.listResources())
	case client.EventPromptsChanged:
		return tea.Batch(next, s.listPrompts())
	case client.EventResourceUpdated:
		return tea.Batch(next, s.onResourceUpdated(e.Text))
	}
	return next
}

// listTools asks the server for its tools again.
func (s *serverState) listTools() tea.Cmd {
	s.listReq = s.nextID()
	return s.cmd(listCmd(s.ctx, s.listReq, s.session))
}

func (s *serverState) onCallDone(msg callDoneMsg) tea.Cmd {
	r := s.running
	if r == nil || r.run.id != msg.id {
		return nil
	}
	s.running = nil
	r.cancel()
	if msg.err != nil {
		// Arguments the form let through but the client refused: nothing was sent.
		s.mode, s.status = modeForm, termtext.Line(msg.err.Error())
		return nil
	}
	o := msg.outcome
	s.outcomes = append(s.outcomes, o)
	s.record(o)
	if r.call.Declined {
		s.mode, s.status = modeForm, "cancelled: nothing was sent"
		return nil
	}
	s.result.SetOutcome(o)
	s.mode = modeResult
	return nil
}

// startCall hands the call to Session.Do in a command; progress and retries
// come back through the call's channel.
func (s *serverState) startCall(c *client.Call) tea.Cmd {
	ctx, cancel := context.WithCancel(s.ctx)
	r := newCallRun(s.nextID())
	s.running = &runningCall{run: r, call: c, cancel: cancel, started: s.now()}
	s.closeConfirm()
	s.lastTool, s.lastArgs = c.Tool.Name, c.Args
	s.mode = modeRunning
	return tea.Batch(s.cmd(doCallCmd(ctx, s.session, c, r)), s.cmd(waitCallUpdate(r)), s.spinner.Tick)
}

// runForm validates the form and either runs the call, asks first, or runs it
// into a refusal (which Session.Do records without sending anything).
func (s *serverState) runForm() tea.Cmd {
	args, ok := s.form.Args()
	if !ok {
		return nil
	}
	t, ok := s.session.Tool(s.form.Tool().Name)
	if !ok {
		s.status = termtext.Line(s.form.Tool().Name) + " is no longer listed by the server: nothing was sent"
		return nil
	}
	c := s.newCall(t, args)
	d := s.session.Decide(c)
	if d.Verdict == policy.Ask || (d.Verdict == policy.Run && s.formChange != "") {
		s.openConfirm(&pendingCall{call: c, decision: d, changed: s.formChange})
		return nil
	}
	return s.startCall(c)
}

func (s *serverState) openForm(t *client.Tool, args map[string]any) {
	s.form, s.formChange = form.NewArgForm(t, s.st, s.keys), ""
	if args != nil {
		s.form.SetArgs(args)
	}
	s.mode = modeForm
	s.layout()
}
