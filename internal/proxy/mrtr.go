package proxy

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A host of protocol 2026-07-28 cannot be sent a request while its call is
// in flight (SEP-2322; go-sdk refuses ServerSession.Elicit there). It is
// asked inside the call's result instead: an "input required" result with
// the question and an opaque requestState, and the host sends the call
// again with its answer and the state echoed.
//
// The state is mcpsh's, sealed: an ID, what the call was (a digest of the
// tool's name and the arguments), the hints the question showed, and when
// it expires, under an HMAC with a key random per process. It is good once:
// an answer is taken only with a state mcpsh made, for the same call, in
// time, and only the first time. The call sent again is decided anew on
// what the server declares then, and the answer approves it only if the
// hints are still those the host's user was shown.

// sealedState is what a requestState carries.
type sealedState struct {
	Kind  string `json:"k"` // "approve", or "park" (a server's request put to the host)
	ID    string `json:"id"`
	Call  string `json:"c"` // callDigest
	Hints string `json:"h"`
	Exp   int64  `json:"e"` // Unix milliseconds
}

// seal makes the requestState of s.
func (p *Proxy) seal(s sealedState) string {
	body, _ := json.Marshal(s)
	payload := base64.RawURLEncoding.EncodeToString(body)
	mac := hmac.New(sha256.New, p.key[:])
	mac.Write([]byte(payload))
	return payload + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// unseal reads a requestState mcpsh made; an error says why it is not one.
func (p *Proxy) unseal(state string) (sealedState, error) {
	var s sealedState
	payload, sig, ok := strings.Cut(state, ".")
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if !ok || err != nil {
		return s, errors.New("its state is not one mcpsh made")
	}
	mac := hmac.New(sha256.New, p.key[:])
	mac.Write([]byte(payload))
	if !hmac.Equal(got, mac.Sum(nil)) {
		return s, errors.New("its state is not one mcpsh made")
	}
	body, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil || json.Unmarshal(body, &s) != nil {
		return s, errors.New("its state is not one mcpsh made")
	}
	return s, nil
}

// callDigest names a call by its tool and arguments (whitespace aside).
func callDigest(name string, args json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, args) != nil {
		b.Reset()
		b.Write(args)
	}
	d := sha256.Sum256(append([]byte(name+"\x00"), b.Bytes()...))
	return hex.EncodeToString(d[:16])
}

func hintsKey(h policy.Hints) string {
	return fmt.Sprintf("%d%d%d%d", h.ReadOnly, h.Destructive, h.Idempotent, h.OpenWorld)
}

func newID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// askInResult answers the host's call with mcpsh's question: nothing is
// sent upstream until the host answers.
func (h *host) askInResult(req *mcp.CallToolRequest, up *client.Session, c *client.Call, d policy.Decision) (mcp.Result, error) {
	st := sealedState{Kind: "approve", ID: newID(), Call: callDigest(c.Tool.Name, c.RawArgs), Hints: hintsKey(c.Tool.Hints),
		Exp: time.Now().Add(h.p.opts.ApprovalTimeout).UnixMilli()}
	h.mu.Lock()
	now := time.Now().UnixMilli()
	for id, exp := range h.asked {
		// Questions past their time can no longer be answered: forgotten,
		// so a host that never answers does not grow the map.
		if exp < now {
			delete(h.asked, id)
		}
	}
	h.asked[st.ID] = st.Exp
	h.mu.Unlock()
	a := &client.Approval{Server: up.Target.Label(), Tool: c.Tool, Args: c.Args, RawArgs: c.RawArgs, Decision: d, Host: c.Host}
	params := &mcp.ElicitParams{Mode: "form", Message: question(a, *c.Host, up.Target.Trust), RequestedSchema: approvalSchema}
	return h.inputRequired(req, up, map[string]any{approvalKey: map[string]any{"method": "elicitation/create", "params": params}}, h.p.seal(st))
}

// inputRequired is an input-required result carrying requests for the host.
func (h *host) inputRequired(req mcp.Request, up *client.Session, requests map[string]any, state string) (mcp.Result, error) {
	body, err := marshalNoEscape(map[string]any{"resultType": "input_required", "inputRequests": requests, "requestState": state})
	if err != nil {
		return nil, internalError(err)
	}
	r := &rawResult{raw: body}
	r.Meta = mcp.Meta{mcp.MetaKeyServerInfo: implementationOf(upstreamInfo(up))}
	return r, nil
}

// resume is the host's call sent again with the state mcpsh handed it:
// with its answer to mcpsh's question, or to a request of the server's
// (parked).
func (h *host) resume(ctx context.Context, req *mcp.CallToolRequest, up *client.Session) (mcp.Result, error) {
	st, err := h.p.unseal(req.Params.RequestState)
	if err == nil && st.Kind == "park" {
		return h.resumeParked(ctx, req, up, st)
	}
	c, perr := h.prepare(ctx, req, up)
	if perr != nil {
		return nil, perr
	}
	ans := h.readState(req, c, st, err)
	shown := st.Hints
	c.Approve = func(_ context.Context, a *client.Approval) client.Answer {
		if ans.Verdict == client.AnswerApproved && hintsKey(a.Tool.Hints) != shown {
			return client.Answer{Why: "the server changed the tool's hints since the host's user was asked: " + a.Tool.Name + " is now " + string(a.Tool.Class())}
		}
		return ans
	}
	return h.run(ctx, req, up, c)
}

// readState is the answer a call sent again carries, once its state is
// checked: made by mcpsh (err is nil), for this call, in time, and used
// for the first time.
func (h *host) readState(req *mcp.CallToolRequest, c *client.Call, st sealedState, err error) client.Answer {
	bad := func(why string) client.Answer {
		return client.Answer{Why: "mcpsh could not take the host's answer: " + why}
	}
	switch {
	case err != nil:
		return bad(err.Error())
	case st.Kind != "approve":
		return bad("its state is not one mcpsh made")
	case st.Call != callDigest(c.Tool.Name, c.RawArgs):
		return bad("it was given for another call")
	}
	h.mu.Lock()
	_, known := h.asked[st.ID]
	delete(h.asked, st.ID) // one answer per question
	h.mu.Unlock()
	switch {
	case time.Now().UnixMilli() > st.Exp:
		return client.Answer{Why: fmt.Sprintf("no one answered within %s", h.p.opts.ApprovalTimeout)}
	case !known:
		return bad("it was already used")
	}
	res, _ := req.Params.InputResponses[approvalKey].(*mcp.ElicitResult)
	return readAnswer(res)
}
