package client

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// envelopeProtocol is the first version whose requests carry their own
// envelope in _meta (SEP-2575): protocol version, client info and
// capabilities on each request, the log level among them, and no ping or
// logging/setLevel.
const envelopeProtocol = "2026-07-28"

// enveloped reports whether a connection's requests carry the envelope.
func (c *connection) enveloped() bool { return c.protocol() >= envelopeProtocol }

// SetLogLevel asks the server for its log messages at level and above. go-sdk
// servers send none until a client asks. At 2026-07-28 logging/setLevel is
// gone: the level rides in every request's _meta instead (requestMeta), so
// nothing is sent now and the level holds for every later request,
// reconnections included.
func (s *Session) SetLogLevel(ctx context.Context, level string) error {
	c := s.current()
	if !c.enveloped() {
		//lint:ignore SA1019 SEP-2577 deprecates roots, sampling and logging; servers use them through the deprecation window, so mcpsh keeps serving them
		return c.cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: mcp.LoggingLevel(level)})
	}
	if c.gone() || s.life.Err() != nil {
		return fmt.Errorf("setting the log level: %w", mcp.ErrConnectionClosed)
	}
	s.logLevel.Store(&level)
	return nil
}

// discoverKey marks, on a context, a completion/complete that requestMeta
// sends as server/discover; the value receives the server's answer.
type discoverKey struct{}

// discover sends server/discover on an established 2026-07-28 session.
// go-sdk sends it only inside Connect, so it travels as a completion/complete
// that requestMeta turns into server/discover on its way out (go-sdk's entry
// 41 in ARCHITECTURE.md): Complete is the carrier because go-sdk puts the
// envelope on it and caches none of its answers.
func discover(ctx context.Context, cs *mcp.ClientSession) (*mcp.DiscoverResult, error) {
	var res *mcp.DiscoverResult
	if _, err := cs.Complete(context.WithValue(ctx, discoverKey{}, &res), &mcp.CompleteParams{}); err != nil {
		return nil, err
	}
	return res, nil
}

// requestMeta is the sending middleware that completes what go-sdk puts in a
// 2026-07-28 request's _meta: the log level asked for (go-sdk's entry 40 in
// ARCHITECTURE.md: a go-sdk server, like the TypeScript SDK's, sends no log
// message for a request without it), and the server/discover a ping is at
// that version. A request is taken for an enveloped one by the protocol
// version go-sdk wrote into it, so the handshake's own requests and the
// notifications pass untouched.
func (s *Session) requestMeta(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if strings.HasPrefix(method, "notifications/") {
			return next(ctx, method, req)
		}
		p := req.GetParams()
		if p == nil || nilParams(p) {
			return next(ctx, method, req)
		}
		// A 2025-11-25 call sent as a task carries params.task (taskwire.go).
		req = augmentCall(ctx, method, req)
		p = req.GetParams()
		meta := p.GetMeta()
		if _, ok := meta[mcp.MetaKeyProtocolVersion]; !ok {
			return next(ctx, method, req)
		}
		if level := s.logLevel.Load(); level != nil {
			// A copy: the map may be the caller's (a call's _meta).
			meta = maps.Clone(meta)
			//lint:ignore SA1019 SEP-2577 deprecates roots, sampling and logging; servers use them through the deprecation window, so mcpsh keeps serving them
			meta[mcp.MetaKeyLogLevel] = *level
			p.SetMeta(meta)
		}
		if m := maps.Clone(meta); taskMeta(ctx, method, m) {
			meta = m
			p.SetMeta(meta)
		}
		out, ok := ctx.Value(discoverKey{}).(**mcp.DiscoverResult)
		if !ok || method != "completion/complete" {
			return next(ctx, method, req)
		}
		cs, _ := req.GetSession().(*mcp.ClientSession)
		res, err := next(ctx, "server/discover", &mcp.DiscoverRequest{Session: cs, Params: &mcp.DiscoverParams{Meta: meta}})
		if err != nil {
			return nil, err
		}
		d, ok := res.(*mcp.DiscoverResult)
		if !ok {
			return nil, fmt.Errorf("server/discover answered with %T", res)
		}
		*out = d
		return &mcp.CompleteResult{}, nil
	}
}

// nilParams reports a typed nil: go-sdk hands a request's params on as an
// interface, and a nil pointer in it has no _meta to read.
func nilParams(p mcp.Params) bool {
	v := reflect.ValueOf(p)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
