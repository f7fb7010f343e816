package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// JSON-RPC codes that mean the request itself was refused: it never ran, and
// sending it again cannot help, because the refusal depends only on the
// request and what mcpsh declares with it. This is the one list of them: a
// code here is classed policy.Permanent, which policy never retries.
//
// From JSON-RPC, and from the MCP specification's own range (-32020 to
// -32099, 2026-07-28: every code allocated there is listed in its schema).
// -32000 to -32019 are left to implementations, which give them meanings of
// their own (go-sdk's -32005 is a transport's transient refusal), so none of
// them is here.
var permanentCodes = map[int64]string{
	jsonrpc.CodeParseError:     "parse error",
	jsonrpc.CodeInvalidRequest: "invalid request",
	jsonrpc.CodeMethodNotFound: "method not found",
	jsonrpc.CodeInvalidParams:  "invalid params",
	codeHeaderMismatch:         "header mismatch",
	codeMissingCapability:      "missing client capability",
	codeUnsupportedVersion:     "unsupported protocol version",
	codeURLElicitation:         "URL elicitation required",
}

// The MCP specification's codes (schema 2026-07-28): the request's HTTP
// headers do not match its body (-32020); it needs a client capability the
// request did not declare (-32021); its protocol version is one the server
// does not take (-32022).
const (
	codeHeaderMismatch     = -32020
	codeMissingCapability  = -32021
	codeUnsupportedVersion = -32022
)

// codeURLElicitation: the server wants the user to visit a page before the
// call can run (URLElicitationRequiredError). Sending again before they have
// cannot help.
const codeURLElicitation = -32042

// codeRejected is go-sdk's "rejected by transport": HTTP 429 or 5xx.
const codeRejected = -32005

// classify names how an attempt failed, from the error, what the transport
// saw of the request, and whether the user cancelled.
func classify(parent context.Context, err error, w callWire) policy.Failure {
	var te *TimeoutError
	var je *jsonrpc.Error
	var lr *LoginRequiredError
	var re *roundError
	switch {
	case parent.Err() != nil:
		return policy.Cancelled
	case errors.As(err, &re):
		// The server answered, in a way the protocol does not allow.
		return re.failure
	case errors.As(err, &lr):
		// The server wants a login (or more scopes) that this mode cannot get:
		// sending again cannot help, and the hint must not be lost.
		return policy.Permanent
	case errors.As(err, &te):
		return policy.Timeout
	case !w.sent:
		return policy.NotSent
	case w.oversized:
		return policy.Oversized
	case w.status == http.StatusNotFound && w.sessionGone:
		// The server no longer knows the session (the spec's signal to start a
		// new one), whatever JSON-RPC error it put in the body.
		return policy.ConnectionLost
	case errors.As(err, &je) && je.Code == codeRejected:
		return policy.Rejected
	case errors.As(err, &je) && permanentCodes[je.Code] != "":
		return policy.Permanent
	case errors.As(err, &je):
		return policy.ServerError
	}
	// What is left is the connection failing under the call (a stdio server
	// exiting, an HTTP session or stream gone): the server may have started on it.
	return policy.ConnectionLost
}

// describe says what went wrong in words, without the SDK's "calling ..." wrapping.
// The server's words are made safe for a terminal here, before mcpsh's own are
// put around them: an unfinished escape in them must not swallow mcpsh's.
func describe(f policy.Failure, err error, w callWire) string {
	var lr *LoginRequiredError
	if errors.As(err, &lr) {
		return termtext.Line(lr.Error())
	}
	var re *roundError
	if errors.As(err, &re) {
		return re.msg
	}
	msg := termtext.Line(err.Error())
	var je *jsonrpc.Error
	if errors.As(err, &je) && je.Code != codeRejected {
		msg = termtext.Line(je.Message)
		if name := permanentCodes[je.Code]; name != "" {
			msg = fmt.Sprintf("%s (%d): %s", name, je.Code, msg)
		} else if je.Code != 0 {
			msg = fmt.Sprintf("%s (code %d)", msg, je.Code)
		}
	}
	msg = strings.TrimPrefix(msg, `calling "tools/call": `)
	if errors.As(err, &je) && je.Code == codeURLElicitation {
		if visit := pagesToVisit(je.Data); visit != "" {
			return "before this call can run, the server asks you to visit " + visit + "; when you have, call it again"
		}
	}
	switch f {
	case policy.Oversized:
		if w.why != "" {
			return w.why
		}
		return errAnswerTooLarge.Error()
	case policy.Rejected:
		if w.status != 0 {
			return fmt.Sprintf("transport rejected the call: HTTP %d %s", w.status, http.StatusText(w.status))
		}
		return "transport rejected the call"
	case policy.ServerError:
		return "server error: " + msg
	case policy.ConnectionLost:
		if w.status == http.StatusNotFound && w.sessionGone {
			return "connection lost: the server no longer knows this session (HTTP 404)"
		}
		if w.status >= 400 {
			// Legacy SSE: go-sdk says "failed to write", but the POST had left.
			return fmt.Sprintf("connection lost: the server answered HTTP %d %s to the call it was sent", w.status, http.StatusText(w.status))
		}
		return "connection lost: " + msg
	case policy.NotSent:
		return "not sent: " + msg
	}
	return msg
}

// pagesToVisit lists the URLs a URL-elicitation-required error names, safe
// to show, with their hosts plain: the user must see where they are sent.
func pagesToVisit(data json.RawMessage) string {
	var d struct {
		Elicitations []struct {
			URL     string `json:"url"`
			Message string `json:"message"`
		} `json:"elicitations"`
	}
	if json.Unmarshal(data, &d) != nil {
		return ""
	}
	var out []string
	for _, e := range d.Elicitations {
		u, err := url.Parse(e.URL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			continue
		}
		why := ""
		if m := termtext.Truncate(termtext.Line(e.Message), 120); m != "" {
			why = fmt.Sprintf(": %q", m)
		}
		page := fmt.Sprintf("%s (host %s%s)", termtext.Truncate(termtext.Line(e.URL), 200), termtext.Line(u.Hostname()), why)
		out = append(out, page)
	}
	return strings.Join(out, "; and ")
}

// connectionGone reports errors after which the session cannot carry another call.
func connectionGone(err error) bool {
	return errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, mcp.ErrSessionMissing) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}
