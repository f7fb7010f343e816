package client

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/mcpsh/mcpsh/internal/redact"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// A legacy SSE session (protocol 2024-11-05) is tapped at the connection,
// but only its HTTP requests say where a message went and whether it left.
// The server names, in the stream's first event, the endpoint mcpsh POSTs
// every message to; each POST is one message, and once its body has left a
// failure answer (a 502 from a proxy, say) says nothing of whether the server
// ran it. go-sdk reports both the same way ("failed to write: 502"), so the
// transport says which it was on the context of the write.

// postReport is what the transport saw of the POST that carried a message.
type postReport struct {
	mu         sync.Mutex
	left       bool // the body may have reached the server
	status     int
	retryAfter time.Duration
}

type postReportKey struct{}

// withPostReport asks the transport to fill r in for the POST that carries
// the message written with ctx.
func withPostReport(ctx context.Context, r *postReport) context.Context {
	return context.WithValue(ctx, postReportKey{}, r)
}

// notePost records the outcome of a POST in the report its context carries,
// if any: a response of any status, or a transport error after which the
// request may have been written, means the message may have reached the server.
func notePost(req *http.Request, resp *http.Response, err error) {
	r, _ := req.Context().Value(postReportKey{}).(*postReport)
	if r == nil || req.Method != http.MethodPost {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case err == nil:
		r.left, r.status, r.retryAfter = true, resp.StatusCode, retryAfter(resp.Header.Get("Retry-After"), time.Now())
	case !neverLeft(err):
		r.left = true
	}
}

// sent reports whether the message may have reached the server, and what it answered.
func (r *postReport) sent() (bool, int, time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.left, r.status, r.retryAfter
}

// EndpointError is a legacy SSE server sending mcpsh's messages to a URL on
// another origin than the one mcpsh was given: it named it as the endpoint,
// or redirected a message there. Nothing was sent there.
type EndpointError struct {
	// Endpoint is the URL the server named, made safe to show.
	Endpoint string
	// Origin is the origin mcpsh was given.
	Origin string
	// Redirected: the endpoint was on the origin, and redirected a message
	// to Endpoint.
	Redirected bool
}

func (e *EndpointError) Error() string {
	if e.Redirected {
		return fmt.Sprintf("the server redirects a message to %s, which is not on %s, the origin it was reached at; mcpsh sends nothing there",
			e.Endpoint, e.Origin)
	}
	return fmt.Sprintf("the server names %s as the endpoint for messages, which is not on %s, the origin it was reached at; mcpsh sends nothing there",
		e.Endpoint, e.Origin)
}

// checkEndpoint refuses a legacy SSE POST to another origin than the
// server's, on every hop: a POST is the message, so a 307 or 308 from the
// server's own origin to another would deliver it there (the redirects
// that make a POST a GET carry no body, and are followed without
// credentials, as on streamable HTTP).
func (h *httpTap) checkEndpoint(req *http.Request) error {
	if !h.legacySSE || req.Method != http.MethodPost || (h.origin != "" && originOf(req.URL) == h.origin) {
		return nil
	}
	e := &EndpointError{Endpoint: termtext.Truncate(termtext.Line(redact.URL(req.URL.String())), 200), Origin: h.origin, Redirected: req.Response != nil}
	h.refused.CompareAndSwap(nil, e)
	return e
}

// refusedEndpoint is the first endpoint checkEndpoint refused, or nil. go-sdk
// flattens the error it gets from the transport into its own words around
// the unsafe URL, so dial takes it from here.
func (h *httpTap) refusedEndpoint() *EndpointError { return h.refused.Load() }
