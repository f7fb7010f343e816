package proxy

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// middleware answers every method mcpsh passes on. go-sdk adds its own
// round-trip middleware first (server.go's NewServer), so this one wraps
// it: for the methods answered here, next is never called, and the result
// is returned to go-sdk as is (shared.go's handleReceive checks no type).
func (p *Proxy) middleware(srv *mcp.Server) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			ss, ok := req.GetSession().(*mcp.ServerSession)
			if !ok {
				return next(ctx, method, req)
			}
			h := p.hostFor(srv, ss)
			switch method {
			case "initialize":
				return h.initialize(ctx, next, method, req)
			case "server/discover":
				return h.discover(ctx, next, method, req)
			case "tools/list":
				return h.listTools(ctx, req)
			case "tools/call":
				creq, ok := req.(*mcp.CallToolRequest)
				if !ok {
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "tools/call without its params"}
				}
				// Over HTTP, a host that drops the POST gives up on the call.
				ctx, done := p.withPost(ctx, req)
				defer done()
				return h.call(ctx, creq)
			case "resources/list", "resources/templates/list", "prompts/list":
				return h.forwardList(ctx, method, req)
			case "resources/read", "prompts/get", "completion/complete":
				return h.forward(ctx, method, req)
			case "logging/setLevel":
				return h.setLevel(ctx, next, method, req)
			case "resources/subscribe":
				return h.subscribeThenFlush(ctx, next, method, req)
			}
			return next(ctx, method, req)
		}
	}
}

// initialize lets go-sdk negotiate the host's protocol version and keep
// what the host declared, then connects the upstream with those
// declarations and tells the host what the upstream is and offers.
func (h *host) initialize(ctx context.Context, next mcp.MethodHandler, method string, req mcp.Request) (mcp.Result, error) {
	res, err := next(ctx, method, req)
	if err != nil {
		return nil, err
	}
	up, err := h.upstream(ctx, req)
	if err != nil {
		return nil, h.connectError(err)
	}
	if ir, ok := res.(*mcp.InitializeResult); ok {
		info := upstreamInfo(up)
		ir.Capabilities = capabilitiesOf(info)
		ir.ServerInfo = implementationOf(info)
		ir.Instructions = info.Instructions
	}
	return res, nil
}

// discover is initialize for a host of protocol 2026-07-28, which sends
// server/discover instead.
func (h *host) discover(ctx context.Context, next mcp.MethodHandler, method string, req mcp.Request) (mcp.Result, error) {
	res, err := next(ctx, method, req)
	if err != nil {
		return nil, err
	}
	if dr, ok := res.(*mcp.DiscoverResult); ok && !servesNew(dr.SupportedVersions) {
		// Over --listen's stateful HTTP the session cannot stay at
		// 2026-07-28: go-sdk drops it, and the host falls back to
		// initialize in a session of its own. No upstream is started for
		// a session that ends here.
		return res, nil
	}
	up, err := h.upstream(ctx, req)
	if err != nil {
		return nil, h.connectError(err)
	}
	if dr, ok := res.(*mcp.DiscoverResult); ok {
		info := upstreamInfo(up)
		dr.Capabilities = capabilitiesOf(info)
		dr.Instructions = info.Instructions
		// go-sdk names the server in each result's _meta unless a name is
		// there (server.go's annotateServerInfo): the upstream's goes first.
		dr.Meta = mcp.Meta{mcp.MetaKeyServerInfo: implementationOf(info)}
	}
	return res, nil
}

// servesNew says whether a session serves 2026-07-28 or later.
func servesNew(versions []string) bool {
	for _, v := range versions {
		if v >= newProtocol {
			return true
		}
	}
	return false
}

// connectError is the host's answer when the upstream cannot be reached:
// why, in mcpsh's words (redacted, made safe), also on stderr.
func (h *host) connectError(err error) error {
	h.p.warn(err.Error())
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: termtext.Line(h.p.opts.Target.Redact(err.Error()))}
}

// capabilitiesOf are the upstream's capabilities as it declared them; a
// tools capability always says the list may change, since mcpsh says so
// itself when a restarted server lists other tools.
func capabilitiesOf(info client.ServerInfo) *mcp.ServerCapabilities {
	caps := &mcp.ServerCapabilities{}
	if len(info.Capabilities.Raw) > 0 {
		_ = json.Unmarshal(info.Capabilities.Raw, caps)
	}
	if caps.Tools != nil {
		caps.Tools.ListChanged = true
	}
	return caps
}

func implementationOf(info client.ServerInfo) *mcp.Implementation {
	return &mcp.Implementation{Name: info.Name, Title: info.Title, Version: info.Version}
}

func (h *host) listTools(ctx context.Context, req mcp.Request) (mcp.Result, error) {
	up, err := h.upstream(ctx, req)
	if err != nil {
		return nil, h.connectError(err)
	}
	var cursor string
	if p, ok := req.GetParams().(*mcp.ListToolsParams); ok && p != nil {
		cursor = p.Cursor
	}
	page, err := h.toolsPage(ctx, up, cursor)
	if err != nil {
		return nil, err
	}
	return h.raw(req, up, withoutExecution(page), listingHopMembers)
}

// forwardList passes a page of a listing on, with the upstream's cursor.
func (h *host) forwardList(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
	up, err := h.upstream(ctx, req)
	if err != nil {
		return nil, h.connectError(err)
	}
	params, err := json.Marshal(req.GetParams())
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid params"}
	}
	var c struct {
		Cursor string `json:"cursor"`
	}
	_ = json.Unmarshal(params, &c)
	if !h.lists.known(method, c.Cursor) {
		return nil, errInvalidCursor()
	}
	raw, err := up.Forward(ctx, method, params)
	if err != nil {
		return nil, h.upstreamError(err)
	}
	h.lists.note(method, raw)
	return h.raw(req, up, raw, listingHopMembers)
}

// forward passes a request on and its answer back.
func (h *host) forward(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
	up, err := h.upstream(ctx, req)
	if err != nil {
		return nil, h.connectError(err)
	}
	params, err := json.Marshal(req.GetParams())
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid params"}
	}
	raw, err := up.Forward(ctx, method, params)
	if err != nil {
		return nil, h.upstreamError(err)
	}
	return h.raw(req, up, raw, hopMembers)
}

// setLevel keeps the host's level (go-sdk's ServerSession.Log filters by
// it) and asks the upstream for its messages at that level.
func (h *host) setLevel(ctx context.Context, next mcp.MethodHandler, method string, req mcp.Request) (mcp.Result, error) {
	res, err := next(ctx, method, req)
	if err != nil {
		return nil, err
	}
	//lint:ignore SA1019 SEP-2577 deprecates logging; servers use it through the deprecation window, and a proxy passes it on
	p, ok := req.GetParams().(*mcp.SetLoggingLevelParams)
	if up := h.upNow(); ok && up != nil && up.Server().Capabilities.Logging {
		if err := up.SetLogLevel(ctx, string(p.Level)); err != nil {
			h.p.warn("passing the host's log level on: " + err.Error())
		}
	}
	return res, nil
}

// raw is the upstream's answer to pass on to the host, known secrets taken
// out (client.Target.RedactJSON); at 2026-07-28 it names the upstream as
// the server, where go-sdk would name mcpsh.
func (h *host) raw(req mcp.Request, up *client.Session, raw json.RawMessage, drop []string) (mcp.Result, error) {
	raw, _ = up.Target.RedactJSON(raw)
	isNew := protocolOf(req) >= newProtocol
	r, err := newRaw(raw, drop, isNew)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
	}
	if isNew {
		r.Meta = mcp.Meta{mcp.MetaKeyServerInfo: implementationOf(upstreamInfo(up))}
	}
	return r, nil
}

// protocolOf is the protocol version the host speaks in req.
func protocolOf(req mcp.Request) string {
	if hr, ok := req.(hostReq); ok {
		return hr.ProtocolVersion()
	}
	return ""
}

// upstreamError is the host's answer when the upstream failed a request:
// the server's own error (code, message and data, redacted), or what went
// wrong on the way.
func (h *host) upstreamError(err error) error {
	var re *client.RemoteError
	if errors.As(err, &re) {
		return &jsonrpc.Error{Code: re.Code, Message: re.Message, Data: re.Data}
	}
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return je
	}
	return internalError(err)
}

func internalError(err error) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: termtext.Line(err.Error())}
}

// subscribeThenFlush runs go-sdk's subscribe, which calls subscribe below
// and only then records the host's subscription: an update the server sends
// while the subscription is on its way would find nobody subscribed and be
// lost. Such updates are held (host.event) and sent once go-sdk has the
// record.
func (h *host) subscribeThenFlush(ctx context.Context, next mcp.MethodHandler, method string, req mcp.Request) (mcp.Result, error) {
	uri := ""
	if sr, ok := req.(*mcp.SubscribeRequest); ok && sr.Params != nil {
		uri = sr.Params.URI
	}
	h.mu.Lock()
	h.subscribing[uri]++
	h.mu.Unlock()
	res, err := next(ctx, method, req)
	h.mu.Lock()
	held := h.heldUpdates[uri]
	if h.subscribing[uri]--; h.subscribing[uri] == 0 {
		delete(h.subscribing, uri)
		delete(h.heldUpdates, uri)
	}
	h.mu.Unlock()
	if err == nil && held {
		_ = h.server().ResourceUpdated(h.life, &mcp.ResourceUpdatedNotificationParams{URI: uri})
	}
	return res, err
}

// subscribe passes the host's subscription on; go-sdk keeps its own record
// of it, to send the host the updates (Server.ResourceUpdated).
func (p *Proxy) subscribe(ctx context.Context, req *mcp.SubscribeRequest) error {
	h := p.hostOf(req.Session)
	if h == nil {
		return errors.New("subscribe before the handshake")
	}
	up, err := h.upstream(ctx, req)
	if err != nil {
		return h.connectError(err)
	}
	if err := up.Subscribe(ctx, req.Params.URI); err != nil {
		return h.upstreamError(err)
	}
	h.mu.Lock()
	h.subs[req.Params.URI] = true
	h.mu.Unlock()
	return nil
}

func (p *Proxy) unsubscribe(ctx context.Context, req *mcp.UnsubscribeRequest) error {
	h := p.hostOf(req.Session)
	if h == nil {
		return nil
	}
	h.mu.Lock()
	delete(h.subs, req.Params.URI)
	h.mu.Unlock()
	if up := h.upNow(); up != nil {
		if err := up.Unsubscribe(ctx, req.Params.URI); err != nil {
			return h.upstreamError(err)
		}
	}
	return nil
}
