package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The upstream server's own requests (elicitation, sampling, roots) go to
// the host when the host declared it can answer them, and are declined
// otherwise (the upstream was never offered them: host.go). A form or a
// page to visit is marked as the server's, with the name the user gave it,
// so a server cannot pass its question off as mcpsh's approval; and an
// answer to it goes back to the server only: nothing the approval path
// reads is written by it.

// forwardElicit passes the server's request for input on to the host: on
// protocol 2025-11-25 and older as a request of the proxy's own, at
// 2026-07-28 inside the result of the host's call in flight (parked).
func (h *host) forwardElicit(ctx context.Context, r *client.ElicitRequest) (*client.ElicitResponse, error) {
	params := &mcp.ElicitParams{Mode: r.Mode, Message: markServer(r.Server, r.Message), URL: r.URL, ElicitationID: r.ElicitationID}
	if up := h.upNow(); up != nil {
		// The page is the server's; the credentials mcpsh holds for it
		// are not the host's to send there (client leaves the URL whole
		// for a person of mcpsh's own to judge).
		params.URL = redactKnown(up.Target, params.URL)
	}
	if len(r.Schema) > 0 {
		params.RequestedSchema = r.Schema
	}
	if h.peerNow().Protocol >= newProtocol {
		return h.park(ctx, params)
	}
	res, err := h.ss.Elicit(ctx, params)
	if err != nil {
		return nil, err
	}
	return &client.ElicitResponse{Action: res.Action, Content: res.Content}, nil
}

// forwardSample passes the server's sampling request on to the host, as
// the server sent it, marked in its _meta: its messages are the model's
// input and are left as they are.
func (h *host) forwardSample(ctx context.Context, r *client.SampleRequest) (*client.SampleResponse, error) {
	//lint:ignore SA1019 SEP-2577 deprecates sampling; servers use it through the deprecation window, and a proxy passes it on
	var params mcp.CreateMessageParams
	if err := json.Unmarshal(r.Raw, &params); err != nil {
		return nil, fmt.Errorf("the server's sampling request cannot be passed on: %s", termtext.Line(err.Error()))
	}
	if params.Meta == nil {
		params.Meta = mcp.Meta{}
	}
	params.Meta["dev.mcpsh/from-server"] = r.Server
	//lint:ignore SA1019 SEP-2577 deprecates sampling; servers use it through the deprecation window, and a proxy passes it on
	res, err := h.ss.CreateMessage(ctx, &params)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	return &client.SampleResponse{Raw: raw}, nil
}

// rootsChanged asks the host for its roots again and offers them upstream.
func (p *Proxy) rootsChanged(ctx context.Context, req *mcp.RootsListChangedRequest) {
	if h := p.hostOf(req.Session); h != nil {
		go h.passRoots()
	}
}

// initialized: the host has finished its handshake, and may now be asked
// for its roots.
func (p *Proxy) initialized(ctx context.Context, req *mcp.InitializedRequest) {
	if h := p.hostOf(req.Session); h != nil {
		go h.passRoots()
	}
}

// passRoots offers the host's roots upstream, when the host declared roots.
func (h *host) passRoots() {
	h.mu.Lock()
	up, caps := h.up, h.caps
	h.mu.Unlock()
	//lint:ignore SA1019 SEP-2577 deprecates roots; servers use them through the deprecation window, and a proxy passes them on
	if up == nil || caps == nil || caps.RootsV2 == nil || h.peerNow().Protocol >= newProtocol {
		return
	}
	ctx, cancel := context.WithTimeout(h.life, 30*time.Second)
	defer cancel()
	//lint:ignore SA1019 SEP-2577 deprecates roots; servers use them through the deprecation window, and a proxy passes them on
	res, err := h.ss.ListRoots(ctx, nil)
	if err != nil {
		h.p.warn("asking the host for its roots: " + err.Error())
		return
	}
	var roots []client.Root
	for _, r := range res.Roots {
		if r != nil {
			roots = append(roots, client.Root{URI: r.URI, Name: r.Name})
		}
	}
	up.SetRoots(roots)
}

func (h *host) peerNow() client.Peer {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.peer
}

// parked is a request of the server's waiting for a 2026-07-28 host's
// answer, put to the host inside the result of its call in flight.
type parked struct {
	id     string
	method string
	params any
	answer chan mcp.InputResponse
}

// park puts the server's request to the host through the call it came
// in: the host's request for that call is answered with the question, and
// the call goes on when the host sends it again with its answer. When the
// call cannot be told, no answer comes within the approval timeout, or
// the call ends first, the request is declined.
func (h *host) park(ctx context.Context, params *mcp.ElicitParams) (*client.ElicitResponse, error) {
	j, why := h.jobFor(ctx)
	decline := &client.ElicitResponse{Action: client.ElicitDecline}
	if j == nil {
		h.p.warn("the server asked for input " + why + "; declined")
		return decline, nil
	}
	pk := &parked{id: newID(), method: "elicitation/create", params: params, answer: make(chan mcp.InputResponse, 1)}
	wait := time.NewTimer(h.p.opts.ApprovalTimeout)
	defer wait.Stop()
	select {
	case j.asks <- pk:
	case <-wait.C:
		h.p.warn("the server's request for input could not reach the host in time; declined")
		return decline, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-j.done:
		return decline, nil
	}
	select {
	case res := <-pk.answer:
		er, ok := res.(*mcp.ElicitResult)
		if !ok || er == nil {
			return decline, nil
		}
		return &client.ElicitResponse{Action: er.Action, Content: er.Content}, nil
	case <-wait.C:
		h.dropParked(pk.id)
		h.p.warn(fmt.Sprintf("the host did not answer the server's request for input within %s; declined", h.p.opts.ApprovalTimeout))
		return decline, nil
	case <-ctx.Done():
		h.dropParked(pk.id)
		return nil, ctx.Err()
	}
}

// parkInResult answers the host's call with the server's request.
func (h *host) parkInResult(req *mcp.CallToolRequest, up *client.Session, j *job, pk *parked) (mcp.Result, error) {
	st := sealedState{Kind: "park", ID: pk.id, Call: callDigest(req.Params.Name, req.Params.Arguments),
		Exp: time.Now().Add(h.p.opts.ApprovalTimeout).UnixMilli()}
	h.mu.Lock()
	h.parked[pk.id] = &parkedJob{j: j, pk: pk}
	h.mu.Unlock()
	return h.inputRequired(req, up, map[string]any{"server-" + pk.id: map[string]any{"method": pk.method, "params": pk.params}}, h.p.seal(st))
}

// parkedJob is a call waiting for the host's answer to a server's request.
type parkedJob struct {
	j  *job
	pk *parked
}

func (h *host) dropParked(id string) {
	h.mu.Lock()
	delete(h.parked, id)
	h.mu.Unlock()
}

// resumeParked is the host's call sent again with its answer to the
// server's request: the answer goes to the server, and the host waits for
// the call's result (or the server's next request) as before.
func (h *host) resumeParked(ctx context.Context, req *mcp.CallToolRequest, up *client.Session, st sealedState) (mcp.Result, error) {
	h.mu.Lock()
	pj := h.parked[st.ID]
	delete(h.parked, st.ID)
	h.mu.Unlock()
	if pj == nil || st.Call != callDigest(req.Params.Name, req.Params.Arguments) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "the host's answer is for no call mcpsh is waiting on (already answered, or another call)"}
	}
	pj.pk.answer <- req.Params.InputResponses["server-"+pj.pk.id]
	return h.await(ctx, req, up, pj.j)
}

// jobKey marks a job's context with the job.
type jobKey struct{}

// jobFor is the host's call a request of the server's belongs to, or nil
// and why none. A request in a round of input (an upstream of 2026-07-28)
// is answered on the call's own context, which names it. One the server
// sends on its own while calls run (an older upstream's elicitation/create)
// names no call: it goes with the only call in flight, and with several
// it is declined, since a question put to the host with the wrong call
// would be answered as if about that call.
func (h *host) jobFor(ctx context.Context) (*job, string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if j, ok := ctx.Value(jobKey{}).(*job); ok {
		if slices.Contains(h.inflight, j) {
			return j, ""
		}
		return nil, "for a call of the host's that has ended"
	}
	switch n := len(h.inflight); n {
	case 0:
		return nil, "outside any call of the host's"
	case 1:
		return h.inflight[0], ""
	default:
		return nil, fmt.Sprintf("while %d calls of the host's were in flight, without saying for which", n)
	}
}
