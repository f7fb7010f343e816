package client

import (
	"context"
	"net/http"
	"sync"
	"time"
)

// A legacy SSE session (protocol 2024-11-05) is tapped at the connection,
// but only its HTTP requests say whether a message left: each POST is one
// message, and once its body has left a failure answer (a 502 from a proxy,
// say) says nothing of whether the server ran it. go-sdk reports that and a
// POST that never left the same way ("failed to write: 502"), so the
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
