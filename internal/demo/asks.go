//lint:file-ignore SA1019 the demo shows SEP-2577's deprecated sampling, which servers still use through the deprecation window

package demo

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// How a tool asks the client something while it serves a call: the user, by
// elicitation (rename_note), or the client's model, by sampling
// (suggest_title). The two protocols do it differently, and the demo shows
// whichever the client speaks:
//
//   - 2026-07-28 (SEP-2322): a server sends no request of its own during a
//     call; it answers with an input-required result that carries the
//     question, and the client calls again with the answer. The handler
//     therefore runs once per round, and Executions counts each.
//   - before it: the server sends elicitation/create or
//     sampling/createMessage while the call is in flight.
//
// go-sdk would send the older protocol's request itself for a handler that
// returns the newer one's result, but it then turns a refusal into a
// JSON-RPC error for the whole call; asking directly lets the tool say
// what happened.

// roundsVersion is the first protocol version that asks in rounds.
const roundsVersion = "2026-07-28"

// askedState marks the second round of a question: the client's call again,
// which carries the answer, or leaves it out when the client gave none. It
// grants nothing: a client that sends it unasked only declines.
const askedState = "asked"

// errNoAnswer: the client called again without the answer it was asked for,
// which is how a 2026-07-28 client declines what it will not answer.
var errNoAnswer = errors.New("the client called again without an answer")

// asked is the outcome of ask: the answer, or the input-required result to
// return so that the question goes out, or why there is no answer.
type asked struct {
	answer  mcp.InputResponse
	pending *mcp.CallToolResult
	err     error
}

// ask puts q to the client under key.
func ask(ctx context.Context, req *mcp.CallToolRequest, key string, q mcp.InputRequest) asked {
	if req.ProtocolVersion() >= roundsVersion {
		if a, ok := req.Params.InputResponses[key]; ok && a != nil {
			return asked{answer: a}
		}
		if req.Params.RequestState == askedState {
			return asked{err: errNoAnswer}
		}
		return asked{pending: &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{key: q}, RequestState: askedState}}
	}
	var (
		a   mcp.InputResponse
		err error
	)
	switch q := q.(type) {
	case *mcp.ElicitParams:
		a, err = req.Session.Elicit(ctx, q)
	case *mcp.CreateMessageParams:
		a, err = req.Session.CreateMessage(ctx, q)
	default:
		err = fmt.Errorf("the demo cannot ask a %T", q)
	}
	if err != nil {
		return asked{err: err}
	}
	return asked{answer: a}
}

// canElicit reports whether the caller declared form elicitation. A client
// that declares elicitation with neither mode means forms (the spec's
// backward compatibility).
func canElicit(req *mcp.CallToolRequest) bool {
	c := req.ClientCapabilities()
	if c == nil || c.Elicitation == nil {
		return false
	}
	return c.Elicitation.Form != nil || c.Elicitation.URL == nil
}

// canSample reports whether the caller declared sampling.
func canSample(req *mcp.CallToolRequest) bool {
	c := req.ClientCapabilities()
	return c != nil && c.Sampling != nil
}

// sampledText is the text of a sampling answer, of either protocol's shape,
// and the model the client says wrote it.
func sampledText(a mcp.InputResponse) (text, model string) {
	var content []mcp.Content
	switch r := a.(type) {
	case *mcp.CreateMessageResult:
		content, model = []mcp.Content{r.Content}, r.Model
	case *mcp.CreateMessageWithToolsResult:
		content, model = r.Content, r.Model
	}
	for _, c := range content {
		if t, ok := c.(*mcp.TextContent); ok {
			text += t.Text
		}
	}
	return text, model
}
