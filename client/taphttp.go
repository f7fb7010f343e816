package client

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// httpTap is the round-tripper under mcpsh's HTTP transports. It adds the
// configured headers and, for streamable HTTP, runs the wire tap over request
// and response bodies, both plain JSON and event streams. Working at this level
// rather than wrapping the SDK's connection leaves the SDK's standalone event
// stream intact.
type httpTap struct {
	base    http.RoundTripper
	headers map[string]string
	tap     *tap // nil: headers only (the SSE transport is tapped at the connection)
}

// maxEventBytes bounds one response message or event, so a hostile server cannot
// make mcpsh buffer without limit.
const maxEventBytes = 32 << 20

var errEventTooLarge = errors.New("server sent a message larger than 32 MiB")

func (h *httpTap) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, v := range h.headers {
		req.Header.Set(k, v)
	}
	token := ""
	if h.tap != nil && req.Method == http.MethodPost && req.Body != nil {
		body, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		if m, err := jsonrpc.DecodeMessage(body); err == nil {
			token = h.tap.outgoing(m)
		}
	}
	resp, err := h.base.RoundTrip(req)
	if err != nil {
		// A request that could not even connect never reached the server; any
		// other transport error leaves the outcome unknown.
		var op *net.OpError
		if !(errors.As(err, &op) && op.Op == "dial") {
			h.tap.sentCall(token, 0, 0)
		}
		return resp, err
	}
	if h.tap == nil || req.Method != http.MethodPost {
		return resp, err
	}
	h.tap.sentCall(token, resp.StatusCode, retryAfter(resp.Header.Get("Retry-After"), time.Now()))
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch mt {
	case "application/json":
		body, err := io.ReadAll(io.LimitReader(resp.Body, maxEventBytes+1))
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		if len(body) > maxEventBytes {
			return nil, errEventTooLarge
		}
		body = h.rewrite(body)
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
		resp.Header.Del("Content-Length")
	case "text/event-stream":
		resp.Body = &sseRewriter{src: resp.Body, in: bufio.NewReader(resp.Body), rewrite: h.rewrite}
	}
	return resp, nil
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
	if err != nil {
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

// sseRewriter rewrites the data of each server-sent event as it streams, so
// progress notifications still arrive while a call runs.
type sseRewriter struct {
	src     io.Closer
	in      *bufio.Reader
	out     bytes.Buffer
	err     error
	rewrite func([]byte) []byte
}

func (r *sseRewriter) Read(p []byte) (int, error) {
	for r.out.Len() == 0 && r.err == nil {
		r.err = r.nextEvent()
	}
	if r.out.Len() > 0 {
		return r.out.Read(p)
	}
	return 0, r.err
}

func (r *sseRewriter) Close() error { return r.src.Close() }

// nextEvent reads lines up to a blank line and writes the event to r.out, with
// its data rewritten when the tap changed it.
func (r *sseRewriter) nextEvent() error {
	var lines [][]byte
	var data [][]byte
	size := 0
	for {
		line, err := r.in.ReadBytes('\n')
		size += len(line)
		if size > maxEventBytes {
			return errEventTooLarge
		}
		if len(line) > 0 {
			lines = append(lines, line)
			body := bytes.TrimRight(line, "\r\n")
			if v, ok := bytes.CutPrefix(body, []byte("data:")); ok {
				data = append(data, bytes.TrimPrefix(v, []byte(" ")))
			}
			if len(body) == 0 {
				break
			}
		}
		if err != nil {
			r.flush(lines, data)
			return err
		}
	}
	r.flush(lines, data)
	return nil
}

func (r *sseRewriter) flush(lines, data [][]byte) {
	if len(data) > 0 {
		joined := bytes.Join(data, []byte("\n"))
		if out := r.rewrite(joined); !bytes.Equal(out, joined) {
			// The rewritten message takes the place of the first data line.
			wrote := false
			for _, l := range lines {
				if !bytes.HasPrefix(l, []byte("data:")) {
					r.out.Write(l)
				} else if !wrote {
					r.out.WriteString("data: ")
					r.out.Write(out)
					r.out.WriteString("\n")
					wrote = true
				}
			}
			return
		}
	}
	for _, l := range lines {
		r.out.Write(l)
	}
}
