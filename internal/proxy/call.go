package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The path of a host's tools/call: the tool as mcpsh's listing has it
// (listed again when the server said it changed), the host's arguments
// decoded only to be checked and logged (they go upstream as sent), then
// client.Session.Do: validation, policy's decision on what the server
// declares now, an approval when one is needed (approve.go), the send with
// its retries, and the session log. The host gets one answer: the server's
// result as it came, or a tool result with isError that says what mcpsh
// did not send and why.

// errSessionEnded: a call that comes as the host's session ends.
var errSessionEnded = errors.New("the host's session has ended")

func (h *host) call(ctx context.Context, req *mcp.CallToolRequest) (mcp.Result, error) {
	up, err := h.upstream(ctx, req)
	if err != nil {
		return nil, h.connectError(err)
	}
	if req.Params.RequestState != "" {
		return h.resume(ctx, req, up)
	}
	forms := hostForms(req)
	c, err := h.prepareWith(ctx, req, up, forms)
	if err != nil {
		return nil, err
	}
	if !h.p.consoleHere() && forms && protocolOf(req) >= newProtocol {
		// go-sdk forbids a request to a 2026-07-28 host while its call is
		// in flight (server.go's assertServerInitiatedRequestAllowed): the
		// question goes back inside the result, and the call runs when the
		// host sends it again with the answer (mrtr.go).
		if d := up.Decide(c); d.Verdict == policy.Ask {
			if err := c.Tool.Validate(c.Args); err != nil {
				return h.toolError(req, up, "mcpsh did not send the call: "+termtext.Line(err.Error()))
			}
			return h.askInResult(req, up, c, d)
		}
	}
	return h.run(ctx, req, up, c)
}

// prepare makes the client.Call for the host's request: the tool as
// listed now, the host's arguments, its _meta, and the proxy's limits and
// standing orders. A tool the server does not list, or arguments that are
// not an object, are the host's error: nothing is sent.
func (h *host) prepare(ctx context.Context, req *mcp.CallToolRequest, up *client.Session) (*client.Call, error) {
	return h.prepareWith(ctx, req, up, hostForms(req))
}

// prepareWith is prepare with hostForms(req) already known: from a
// 2026-07-28 host, go-sdk decodes the capabilities out of the request's
// _meta each time they are asked for (a marshal and an unmarshal), so a
// call asks once.
func (h *host) prepareWith(ctx context.Context, req *mcp.CallToolRequest, up *client.Session, forms bool) (*client.Call, error) {
	p := req.Params
	if up.Stale() {
		if _, err := up.ListTools(ctx); err != nil {
			h.p.warn("listing the tools again: " + err.Error())
		}
	}
	tool, ok := up.Tool(p.Name)
	if !ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
			Message: fmt.Sprintf("unknown tool %q: server %q does not list it; nothing was sent", termtext.Truncate(termtext.Line(p.Name), 80), termtext.Line(up.Target.Label()))}
	}
	args := map[string]any{}
	raw := bytes.TrimSpace(p.Arguments)
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &args); err != nil || args == nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "the arguments of " + termtext.Line(p.Name) + " are not a JSON object; nothing was sent"}
		}
	} else {
		raw = nil
	}
	c := h.p.opts.Call
	c.Tool, c.Args, c.RawArgs, c.Meta = tool, args, raw, metaOf(p.Meta)
	c.Preapproved, c.Approved, c.Declined, c.Checked, c.OnProgress, c.OnRetry = false, false, false, nil, nil, nil
	peer := peerOf(req)
	c.Host = &peer
	c.Mode = policy.Batch
	if h.p.consoleHere() || forms { // h.canAsk(req), forms known
		c.Mode = policy.Interactive
	}
	c.SessionAllowed = h.sessionAllowed(tool)
	c.Approve = h.approver(peer, forms && protocolOf(req) < newProtocol)
	return &c, nil
}

// peerOf is the host as req says it is.
func peerOf(req mcp.Request) client.Peer {
	var p client.Peer
	if hr, ok := req.(hostReq); ok {
		if ci := hr.ClientInfo(); ci != nil {
			p = client.Peer{Name: ci.Name, Title: ci.Title, Version: ci.Version}
		}
		p.Protocol = hr.ProtocolVersion()
	}
	return p
}

// metaOf is the host's _meta to forward: client.Call.Meta leaves out each
// hop's own members.
func metaOf(m mcp.Meta) map[string]json.RawMessage {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		if client.IsHopMeta(k) {
			continue
		}
		if b, err := marshalNoEscape(v); err == nil {
			out[k] = b
		}
	}
	return out
}

func (h *host) sessionAllowed(t *client.Tool) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	hints, ok := h.allowed[t.Name]
	return ok && hints == t.Hints
}

// job is one call running upstream for the host. It runs on a context of
// its own, which the host's request ends (its cancellation, its going
// away) unless the request handed the host a question of the server's to
// answer first (mrtr.go): the call then waits for the host's next request.
type job struct {
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
	o      *client.Outcome
	err    error
	// asks carries the server's requests to put to a 2026-07-28 host.
	asks chan *parked
}

// run starts the call and waits for its answer.
func (h *host) run(ctx context.Context, req *mcp.CallToolRequest, up *client.Session, c *client.Call) (mcp.Result, error) {
	j, err := h.start(ctx, req, up, c)
	if err != nil {
		return nil, internalError(err)
	}
	return h.await(ctx, req, up, j)
}

func (h *host) start(ctx context.Context, req *mcp.CallToolRequest, up *client.Session, c *client.Call) (*job, error) {
	h.mu.Lock()
	if h.life.Err() != nil {
		h.mu.Unlock()
		return nil, errSessionEnded
	}
	h.calls.Add(1)
	j := &job{done: make(chan struct{}), asks: make(chan *parked)}
	h.inflight = append(h.inflight, j)
	h.mu.Unlock()
	// The job rides on its context, so a request the server makes in
	// answer to this call (a round of input) is put to the host with it.
	j.ctx, j.cancel = context.WithCancel(context.WithValue(h.life, jobKey{}, j))
	if tok := req.Params.GetProgressToken(); tok != nil {
		relay := newRelay(h.ss, context.WithoutCancel(ctx), tok)
		c.OnProgress = relay.send
		c.OnTask = relay.task
		defer func() {
			go func() {
				<-j.done
				// The client hands on progress that came before the answer
				// for a moment after the call returns (go-sdk runs
				// notification handlers after the answer): so does the relay.
				time.AfterFunc(progressLinger, relay.close)
			}()
		}()
	}
	h.p.obs.start(c, up)
	go func() {
		defer h.calls.Done()
		defer h.finished(j)
		defer close(j.done)
		defer j.cancel()
		j.o, j.err = up.Do(j.ctx, c)
		h.p.obs.end(c, j.o, j.err)
	}()
	return j, nil
}

// finished takes a call off the host's calls in flight.
func (h *host) finished(j *job) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i, x := range h.inflight {
		if x == j {
			h.inflight = append(h.inflight[:i], h.inflight[i+1:]...)
			break
		}
	}
}

// await waits for the call's answer, for a request of the server's to put
// to the host first, or for the host to give up on the call: then the call
// is cancelled upstream (a cancelled call is never retried) and recorded.
func (h *host) await(ctx context.Context, req *mcp.CallToolRequest, up *client.Session, j *job) (mcp.Result, error) {
	select {
	case <-j.done:
		return h.answer(req, up, j)
	case pk := <-j.asks:
		return h.parkInResult(req, up, j, pk)
	case <-ctx.Done():
		j.cancel()
		<-j.done
		return nil, ctx.Err()
	}
}

// answer is the host's answer to a finished call.
func (h *host) answer(req *mcp.CallToolRequest, up *client.Session, j *job) (mcp.Result, error) {
	o, err := j.o, j.err
	var ae *client.ArgError
	switch {
	case errors.As(err, &ae):
		return h.toolError(req, up, "mcpsh did not send the call: "+termtext.Line(ae.Error()))
	case err != nil:
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: termtext.Line(err.Error())}
	}
	label := up.Target.Label()
	switch o.Status {
	case client.StatusRefused:
		return h.toolError(req, up, refusal(label, o, h.canAsk(req), h.p.allowAt()))
	case client.StatusCancelled:
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "mcpsh: " + termtext.Line(o.Error)}
	case client.StatusFailed:
		return h.toolError(req, up, failure(label, o))
	}
	return h.raw(req, up, o.Result.Raw, hopMembers)
}

// toolError is a tool result with isError: what the agent reads when mcpsh
// did not send the call or the call failed on the way.
func (h *host) toolError(req mcp.Request, up *client.Session, text string) (mcp.Result, error) {
	body, _ := marshalNoEscape(map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}, "isError": true})
	return h.raw(req, up, body, hopMembers)
}

// progressLinger is how long a finished call's progress is still passed
// on, as long as client routes it (client/attempt.go).
const progressLinger = time.Second

// relay passes a call's progress on to the host under the host's own
// token, and the status of a task the call became: the proxy follows the
// task itself and answers the host with its result, so a host that knows
// nothing of tasks still hears the work go on (and, as hosts reset their
// timeout on progress, does not give up on a long task). The client's
// callbacks must never block, so notifications wait in a small queue; when
// the host reads slower than they come, the newest are dropped (progress is
// a hint of liveness, and the next one says more).
type relay struct {
	ss  *mcp.ServerSession
	ctx context.Context
	tok any
	mu  sync.Mutex
	ch  chan relayed
	off bool
}

// relayed is one notification to pass on: the server's progress, or a
// task's status (bump), which takes the next value after the last sent.
type relayed struct {
	client.Progress
	bump bool
}

func newRelay(ss *mcp.ServerSession, ctx context.Context, tok any) *relay {
	r := &relay{ss: ss, ctx: ctx, tok: tok, ch: make(chan relayed, 16)}
	go func() {
		// The spec has progress increase with each notification, and a
		// task's statuses come between the server's own values: a value
		// that would not increase is not passed on.
		var last float64
		sent := false
		for n := range r.ch {
			p := n.Progress
			switch {
			case n.bump:
				p.Progress, p.Total = last+1, 0
			case sent && p.Progress <= last:
				continue
			}
			last, sent = p.Progress, true
			_ = r.ss.NotifyProgress(r.ctx, &mcp.ProgressNotificationParams{ProgressToken: r.tok, Progress: p.Progress, Total: p.Total, Message: p.Message})
		}
	}()
	return r
}

func (r *relay) send(p client.Progress) { r.queue(relayed{Progress: p}) }

// task passes on a task's status, as the proxy's own words with the
// server's message (the client made it safe).
func (r *relay) task(t client.Task) {
	msg := fmt.Sprintf("task %s %s", t.ID, t.Status)
	if t.StatusMessage != "" {
		msg += ": " + t.StatusMessage
	}
	r.queue(relayed{Progress: client.Progress{Message: msg}, bump: true})
}

func (r *relay) queue(n relayed) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.off {
		return
	}
	select {
	case r.ch <- n:
	default:
	}
}

// close stops the relay once the call's last progress may have come.
func (r *relay) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.off {
		r.off = true
		close(r.ch)
	}
}
