package proxy

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"sort"
	"sync"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// host is one session of an agent's host, with its own upstream session.
type host struct {
	p   *Proxy
	srv *mcp.Server
	ss  *mcp.ServerSession
	// life ends when the host's session does: calls still running for it
	// are cancelled (never retried), and the upstream server ends.
	life context.Context
	stop context.CancelFunc
	// calls counts the host's calls in flight, so the session is closed
	// only once each is recorded.
	calls sync.WaitGroup

	connMu sync.Mutex // held while the upstream connects
	mu     sync.Mutex
	up     *client.Session
	peer   client.Peer
	caps   *mcp.ClientCapabilities // what the host declared when the upstream connected
	// allowed are the tools a person allowed for the session, with the
	// hints they were shown (an approval holds only for those).
	allowed map[string]policy.Hints
	// subs are the host's resource subscriptions, made again upstream after
	// a restart.
	subs map[string]bool
	// subscribing counts the host's subscriptions on their way, by URI, and
	// heldUpdates the updates that came meanwhile (serve.go,
	// subscribeThenFlush).
	subscribing map[string]int
	heldUpdates map[string]bool
	// served is the digest of the tool pages last served, to tell the host
	// its list changed when a restarted server lists other tools.
	served [32]byte
	lists  cursors
	// asked (by ID, until when) and parked are the questions put to a
	// 2026-07-28 host inside a result that await its answer (mrtr.go).
	asked  map[string]int64
	parked map[string]*parkedJob
	// inflight are the host's calls running upstream, oldest first.
	inflight []*job
}

func newHost(p *Proxy, srv *mcp.Server, ss *mcp.ServerSession) *host {
	h := &host{p: p, srv: srv, ss: ss, allowed: map[string]policy.Hints{}, subs: map[string]bool{},
		subscribing: map[string]int{}, heldUpdates: map[string]bool{},
		asked: map[string]int64{}, parked: map[string]*parkedJob{}}
	h.life, h.stop = context.WithCancel(context.Background())
	return h
}

// hostReq is what go-sdk's server requests say of the host that sent them:
// at 2026-07-28 from each request's _meta, before from the handshake.
type hostReq interface {
	ClientInfo() *mcp.Implementation
	ClientCapabilities() *mcp.ClientCapabilities
	ProtocolVersion() string
}

// newProtocol is the version from which requests carry the host's identity
// and server-initiated requests are forbidden (SEP-2575, SEP-2322).
const newProtocol = "2026-07-28"

// upstream is the host's upstream session, connected on the first request
// that needs it (the host's initialize, or at 2026-07-28 server/discover),
// with what that request says of the host: its name goes into the
// upstream's clientInfo title, its capabilities decide what the upstream
// is offered (elicitation, sampling, roots are passed on only to a host
// that declared them).
func (h *host) upstream(ctx context.Context, req mcp.Request) (*client.Session, error) {
	h.mu.Lock()
	up := h.up
	h.mu.Unlock()
	if up != nil {
		return up, nil
	}
	h.connMu.Lock()
	defer h.connMu.Unlock()
	h.mu.Lock()
	up = h.up
	h.mu.Unlock()
	if up != nil {
		return up, nil
	}
	peer, caps := client.Peer{}, (*mcp.ClientCapabilities)(nil)
	if hr, ok := req.(hostReq); ok {
		if ci := hr.ClientInfo(); ci != nil {
			peer = client.Peer{Name: ci.Name, Title: ci.Title, Version: ci.Version}
		}
		peer.Protocol, caps = hr.ProtocolVersion(), hr.ClientCapabilities()
	}
	if caps == nil {
		caps = &mcp.ClientCapabilities{}
	}
	o := h.p.opts.Client
	o.Name, o.Title, o.Version = "mcpsh", "mcpsh (proxy for "+hostLabel(peer)+")", h.p.opts.Version
	o.OnWarning = h.p.warn
	o.Elicit, o.ElicitURL, o.Sample, o.Roots, o.OfferRoots = nil, false, nil, nil, false
	if e := caps.Elicitation; e != nil && (e.Form != nil || e.URL == nil) {
		o.Elicit = h.forwardElicit
		o.ElicitURL = e.URL != nil
	}
	//lint:ignore SA1019 SEP-2577 deprecates sampling; servers use it through the deprecation window, and a proxy passes it on
	if caps.Sampling != nil && peer.Protocol < newProtocol {
		o.Sample = h.forwardSample
	}
	//lint:ignore SA1019 SEP-2577 deprecates roots; servers use them through the deprecation window, and a proxy passes them on
	if caps.RootsV2 != nil && peer.Protocol < newProtocol {
		// The host is asked for its roots once it has finished its
		// handshake (rootsChanged): before that it may not answer.
		o.OfferRoots = true
	}
	cctx, cancel := context.WithTimeout(ctx, h.p.opts.ConnectTimeout)
	defer cancel()
	up, err := client.Connect(cctx, h.p.opts.Target, &o)
	if err != nil {
		return nil, err
	}
	l, err := up.ListTools(cctx)
	if err != nil {
		up.Close()
		return nil, err
	}
	for _, w := range l.Warnings {
		h.p.warn(w)
	}
	h.mu.Lock()
	h.up, h.peer, h.caps = up, peer, caps
	h.mu.Unlock()
	h.p.obs.host(peer, up.Server().Protocol)
	go h.events(up)
	return up, nil
}

// hostLabel names the host by what it says it is, for messages: its claim,
// made safe and short.
func hostLabel(p client.Peer) string {
	name := p.Title
	if name == "" {
		name = p.Name
	}
	if name == "" {
		name = "an unnamed host"
	}
	if p.Version != "" {
		name += " " + p.Version
	}
	return termtext.Truncate(termtext.Line(name), 80)
}

// upNow is the upstream session if it is connected.
func (h *host) upNow() *client.Session {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.up
}

// events passes on what the upstream server does outside any call.
func (h *host) events(up *client.Session) {
	for {
		select {
		case e := <-up.Events():
			h.event(up, e)
		case <-up.Done():
			return
		case <-h.life.Done():
			return
		}
	}
}

func (h *host) event(up *client.Session, e client.Event) {
	ctx := h.life
	switch e.Kind {
	case client.EventToolsChanged:
		h.listChanged("tools")
	case client.EventResourcesChanged:
		h.lists.forget("resources/list", "resources/templates/list")
		h.listChanged("resources")
	case client.EventPromptsChanged:
		h.lists.forget("prompts/list")
		h.listChanged("prompts")
	case client.EventResourceUpdated:
		h.mu.Lock()
		if h.subscribing[e.Text] > 0 {
			h.heldUpdates[e.Text] = true
			h.mu.Unlock()
			return
		}
		h.mu.Unlock()
		_ = h.server().ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: e.Text})
	case client.EventLog:
		data := any(e.Data)
		if len(e.Data) == 0 {
			data = e.Text
		}
		//lint:ignore SA1019 SEP-2577 deprecates logging; servers use it through the deprecation window, and a proxy passes it on
		_ = h.ss.Log(ctx, &mcp.LoggingMessageParams{Level: mcp.LoggingLevel(e.Level), Logger: e.Logger, Data: data})
	case client.EventReconnected:
		h.p.warn(e.Text)
		h.resubscribe(up)
		// The session lists the tools once it is back, but after it says
		// so: listed here, the comparison is made on the new listing.
		if _, err := up.ListTools(h.life); err != nil {
			h.p.warn("listing the tools after the restart: " + err.Error())
		}
		if h.toolsDigest(up) != h.servedDigest() {
			// The server came back with other tools than the host was
			// given: it must list them again, whether or not the server
			// says so itself.
			h.listChanged("tools")
		}
	}
}

// server is the go-sdk server the host's session belongs to.
func (h *host) server() *mcp.Server { return h.srv }

// listChanged tells the host a list changed. go-sdk's only public way to
// send list_changed is to change the server's own features, which it then
// announces to every session (on a subscriptions/listen stream at
// 2026-07-28): a sentinel is added and removed. It is never listed or
// called, since tools/list and tools/call are the middleware's.
func (h *host) listChanged(list string) {
	srv := h.server()
	switch list {
	case "tools":
		srv.AddTool(&mcp.Tool{Name: sentinel, InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, fmt.Errorf("not a tool")
		})
		srv.RemoveTools(sentinel)
	case "prompts":
		srv.AddPrompt(&mcp.Prompt{Name: sentinel}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return nil, fmt.Errorf("not a prompt")
		})
		srv.RemovePrompts(sentinel)
	case "resources":
		srv.AddResource(&mcp.Resource{URI: "mcpsh-sentinel:x", Name: sentinel}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return nil, fmt.Errorf("not a resource")
		})
		srv.RemoveResources("mcpsh-sentinel:x")
	}
}

const sentinel = "mcpsh-sentinel"

// toolsDigest is a digest of the upstream's current tool pages.
func (h *host) toolsDigest(up *client.Session) [32]byte {
	pages := up.ToolPages()
	keys := make([]string, 0, len(pages))
	for k := range pages {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	d := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(d, "%d:%s%d:", len(k), k, len(pages[k]))
		d.Write(pages[k])
	}
	var out [32]byte
	copy(out[:], d.Sum(nil))
	return out
}

func (h *host) servedDigest() [32]byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.served
}

func (h *host) markServed(up *client.Session) {
	d := h.toolsDigest(up)
	h.mu.Lock()
	h.served = d
	h.mu.Unlock()
}

// resubscribe makes the host's resource subscriptions again on a new
// upstream session.
func (h *host) resubscribe(up *client.Session) {
	h.mu.Lock()
	var uris []string
	for u := range h.subs {
		uris = append(uris, u)
	}
	h.mu.Unlock()
	for _, u := range uris {
		if err := up.Subscribe(h.life, u); err != nil {
			h.p.warn("subscribing again after the restart: " + err.Error())
		}
	}
}

// close ends the host's session: calls still running are cancelled and
// recorded, then the upstream server ends.
func (h *host) close() {
	h.stop()
	h.calls.Wait()
	if up := h.upNow(); up != nil {
		up.Close()
	}
}
