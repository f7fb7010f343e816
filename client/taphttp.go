package client

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mcpsh/mcpsh/internal/jsonscan"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// httpTap is the round-tripper under mcpsh's HTTP transports. It adds the
// configured headers, only on requests to the origin they were given for, and,
// for streamable HTTP, runs the wire tap over request and response bodies, both
// plain JSON and event streams (the POST streams and the GET streams, where an
// answer may arrive after a POST stream was resumed with Last-Event-ID).
// Working at this level rather than wrapping the SDK's connection leaves the
// SDK's standalone event stream intact.
type httpTap struct {
	base    http.RoundTripper
	headers map[string]string
	// origin is the scheme://host:port of the URL the user gave; a redirect or
	// an SSE endpoint elsewhere never receives the headers, which often carry
	// credentials.
	origin string
	tap    *tap // nil: headers only (the SSE transport is tapped at the connection)
	// legacySSE: the POSTs carry a legacy SSE session's messages, to the
	// endpoint the server named (taplegacy.go).
	legacySSE bool
	refused   atomic.Pointer[EndpointError]
}

// newHTTPTap carries mcpsh's requests to an MCP server over base, or
// http.DefaultTransport when it is nil (tests give one that trusts their TLS
// servers).
func newHTTPTap(target string, headers map[string]string, t *tap, base http.RoundTripper) *httpTap {
	o := ""
	if u, err := url.Parse(target); err == nil {
		o = originOf(u)
	}
	if base == nil {
		base = http.DefaultTransport
	}
	return &httpTap{base: base, headers: headers, origin: o, tap: t}
}

// originOf is scheme://host:port with the scheme's default port made explicit.
func originOf(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// credentialHeaders are the headers that may carry a credential mcpsh did
// not configure: go-sdk sets Authorization from the OAuth token itself, and
// http.Client copies it, and Cookie, onto a redirect to the same host name
// whatever the port or scheme, or to a subdomain.
var credentialHeaders = []string{"Authorization", "Proxy-Authorization", "Cookie"}

// credentialsFor is the one origin check for what mcpsh sends an MCP server:
// the configured headers and the OAuth token go only to the exact origin
// (scheme, host, port) of the URL the user gave, so never over plain http
// after https, never to another port or subdomain; and no request names the
// page it came from (http.Client sets Referer on redirects). It runs on
// every request and every hop of a redirect.
func (h *httpTap) credentialsFor(req *http.Request) {
	req.Header.Del("Referer")
	if h.origin != "" && originOf(req.URL) == h.origin {
		for k, v := range h.headers {
			req.Header.Set(k, v)
		}
		return
	}
	for _, k := range credentialHeaders {
		req.Header.Del(k)
	}
}

// maxAnswerBytes bounds one response message or event, so a hostile server cannot
// make mcpsh buffer without limit.
const maxAnswerBytes = 32 << 20

// maxEventBytes is what go-sdk's SSE readers may buffer for one event: set,
// because their default (16 MiB) is below maxAnswerBytes and ended the
// session on an answer mcpsh allows, and because v1.8.0's streamable client
// reads 0 as "no limit" where its docs say 16 MiB. The tap cuts lines at
// maxAnswerBytes before go-sdk sees them.
const maxEventBytes = maxAnswerBytes + 64<<10

var errAnswerTooLarge = errors.New("the server's answer was larger than 32 MiB, mcpsh's limit")

func (h *httpTap) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := h.checkEndpoint(req); err != nil {
		return nil, err
	}
	req = req.Clone(req.Context())
	h.credentialsFor(req)
	var note outNote
	var sentBody []byte
	callID := ""
	if h.tap != nil && req.Method == http.MethodPost && req.Body != nil {
		body, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		sentBody = body
		if m, err := jsonrpc.DecodeMessage(body); err == nil {
			note = h.tap.outgoing(req.Context(), m)
			if r, ok := m.(*jsonrpc.Request); ok && r.IsCall() {
				callID = idKey(r.ID)
				if r.Method == "tools/call" {
					// go-sdk, handed empty listings, knows no tool to take them from.
					addParamHeaders(req.Context(), req.Header, r.Params)
				}
				addTaskNameHeader(req.Header, r.Method, r.Params) // taskwire.go
			}
		}
	}
	if sentBody != nil {
		// Traced before it is sent, so the answer's latency counts from here.
		h.tap.trace.noteRaw("out", sentBody)
	}
	resp, err := h.base.RoundTrip(req)
	notePost(req, resp, err)
	if err != nil {
		if !neverLeft(err) {
			h.tap.delivered(outNote{token: note.token}, 0, 0)
		}
		return resp, err
	}
	if h.tap == nil || (req.Method != http.MethodPost && req.Method != http.MethodGet) {
		return resp, nil
	}
	if resp.StatusCode == http.StatusNotFound && req.Header.Get("Mcp-Session-Id") != "" {
		h.tap.sessionGone.Store(true)
	}
	if req.Method == http.MethodPost {
		h.tap.delivered(note, resp.StatusCode, retryAfter(resp.Header.Get("Retry-After"), time.Now()))
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch mt {
	case "application/json":
		if req.Method != http.MethodPost {
			return resp, nil
		}
		body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes+1))
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		if len(body) > maxAnswerBytes {
			sub, ok := h.tap.refuseAnswer(callID, errAnswerTooLarge)
			if !ok {
				return nil, errAnswerTooLarge
			}
			body = sub
		} else {
			body = h.rewrite(body)
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
		resp.Header.Del("Content-Length")
	case "text/event-stream":
		resp.Body = &sseRewriter{src: resp.Body, in: bufio.NewReaderSize(resp.Body, 64<<10), rewrite: h.rewrite,
			tap: h.tap, callID: callID}
	}
	return resp, nil
}

// errServerClosedIdle is the text of net/http's unexported error for a pooled
// keep-alive connection the server had closed before this request was put on
// it. net/http resends such a request on a new connection only when it may
// replay it, which a POST is not, and returns this error otherwise.
const errServerClosedIdle = "http: server closed idle connection"

// neverLeft reports the transport errors after which the server cannot have
// run the request: it could not connect, or the server had closed the
// connection before the request was written on it. Any other transport error
// (a reset or an EOF after the request was written) leaves the outcome unknown.
func neverLeft(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial" || err.Error() == errServerClosedIdle
}

// retryAfter reads a Retry-After header: seconds, or an HTTP date.
func retryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if secs, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && secs >= 0 {
		return time.Duration(secs) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// rewrite passes one JSON-RPC message through the tap; anything it cannot
// decode goes on unchanged for the SDK to judge.
func (h *httpTap) rewrite(data []byte) []byte {
	m, err := jsonrpc.DecodeMessage(data)
	if err == nil {
		h.tap.trace.note("in", m, data)
	} else {
		h.tap.trace.noteRaw("in", data)
	}
	if err != nil {
		if jsonscan.NestsDeeper(data, maxNesting) {
			// go-sdk refuses it too, and would end the session.
			if sub, ok := h.tap.refuseAnswer(sniffID(data[:min(len(data), sniffKeep)], data[max(len(data)-sniffKeep, 0):]), errAnswerTooDeep); ok {
				return sub
			}
		}
		return data
	}
	out := h.tap.incoming(m)
	if out == m {
		return data
	}
	enc, err := jsonrpc.EncodeMessage(out)
	if err != nil {
		return data
	}
	return enc
}
