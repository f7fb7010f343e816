package client

import (
	"context"
	"encoding/json"
	"fmt"
)

// Besides tools/list, tools/call and prompts/get (whose answers the rounds
// take, rounds_requests.go), mcpsh reads these results off the wire itself
// (wiretap.go hands the SDK the shell instead): go-sdk decodes each page
// whole, so one resource or prompt it will not decode fails a whole page
// of a listing; and a listing's budget counts the bytes of each page as it
// came (listbudget.go). The request is marked by a key on its context, which
// the tap keeps the raw result under.
var rawShells = map[string]json.RawMessage{
	"prompts/list":             json.RawMessage(`{"prompts":[]}`),
	"resources/list":           json.RawMessage(`{"resources":[]}`),
	"resources/templates/list": json.RawMessage(`{"resourceTemplates":[]}`),
	// Only when forwarded (forward.go): Complete reads go-sdk's decode.
	"completion/complete": json.RawMessage(`{"completion":{"values":[]}}`),
}

type rawKeyCtx struct{}

// rawKey marks the request sent with the returned context: the tap keeps
// its raw result under key, for takeRaw.
func (s *Session) rawKey(ctx context.Context) (context.Context, string) {
	key := fmt.Sprintf("mcpsh-raw-%d", s.seq.Add(1))
	return context.WithValue(ctx, rawKeyCtx{}, key), key
}

// rawKeyOf is the key a request's context carries for a method whose result
// mcpsh reads itself, or "".
func rawKeyOf(ctx context.Context, method string) string {
	if _, ok := rawShells[method]; !ok {
		return ""
	}
	key, _ := ctx.Value(rawKeyCtx{}).(string)
	return key
}

// takeRaw returns the raw result kept for key once the SDK has returned,
// and forgets it; an error when it never came (the SDK answered from a
// cache, say, which it does not for the shell).
func (c *connection) takeRaw(key, what string) (json.RawMessage, error) {
	raw, ok := c.tap.takeResult(key)
	if !ok {
		return nil, fmt.Errorf("the answer to %s never reached mcpsh", what)
	}
	return raw, nil
}

// rawCall sends one request whose result mcpsh reads itself, and returns
// that result as it came: send makes the request with the context it is
// given; what names the request for messages.
func (s *Session) rawCall(ctx context.Context, c *connection, what string, send func(context.Context) error) (json.RawMessage, error) {
	rctx, key := s.rawKey(ctx)
	if err := send(rctx); err != nil {
		c.tap.forget(key) // an answer that comes late is the SDK's to drop
		return nil, err
	}
	return c.takeRaw(key, what)
}
