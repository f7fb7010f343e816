package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxInputRequests bounds the requests of one round mcpsh puts to the
// person (or the batch answerer); the ones past it are declined, so a server
// cannot queue a flood of questions in one answer.
const maxInputRequests = 16

// roundInput is what a round after the first carries: the answers to the
// server's requests, and its state echoed.
type roundInput struct {
	responses mcp.InputResponseMap
	state     string
}

// rounds follows one request through the rounds the server asks for.
type rounds struct {
	s *Session
	// round is the round the next send is, from 1.
	round int
	// next is what that round carries; nil for the first.
	next *roundInput
	// cannot names the requests of the last round mcpsh could not answer.
	cannot string
}

func newRounds(s *Session) *rounds { return &rounds{s: s, round: 1} }

// advance reads the input-required answer to the round just sent, answers
// its requests, and makes the next round ready. The error ends the request:
// a *roundError, or the context's when the user gave up while answering.
func (r *rounds) advance(ctx context.Context, raw json.RawMessage) error {
	err := r.read(ctx, raw)
	var re *roundError
	if errors.As(err, &re) {
		re.msg = fmt.Sprintf("round %d: %s", r.round, re.msg)
	}
	return err
}

func (r *rounds) read(ctx context.Context, raw json.RawMessage) error {
	ir, err := parseInputRequired(raw)
	if err != nil {
		return err
	}
	if r.round >= maxRounds {
		return &roundError{failure: policy.TooManyRounds,
			msg: fmt.Sprintf("the server still asked for more input after %d rounds; mcpsh stops there", r.round)}
	}
	responses, answered, cannot, err := r.s.fulfil(ctx, ir)
	if err != nil {
		return err
	}
	if answered == 0 && cannot != "" && cannot == r.cannot {
		// It asks again for just what mcpsh could not give it: the answer
		// would be the same, round after round.
		return &roundError{failure: policy.TooManyRounds,
			msg: fmt.Sprintf("the server asked again only for what mcpsh cannot answer: %s", cannot)}
	}
	r.cannot = cannot
	r.next = &roundInput{responses: responses, state: ir.state}
	r.round++
	return nil
}

// fulfil answers one round's requests one at a time, in the order the server
// listed them: a person, or a file of answers read in order, answers them as
// they come, and answers must not cross. What mcpsh cannot answer it
// declines: an elicitation with the decline action; a request with no way
// to say no (sampling, a method mcpsh does not know) by leaving its key out,
// which a server that needs it meets by asking again. answered counts the
// requests someone answered; cannot names those mcpsh could not.
func (s *Session) fulfil(ctx context.Context, ir *inputRequired) (out mcp.InputResponseMap, answered int, cannot string, err error) {
	out = mcp.InputResponseMap{}
	var unanswerable []string
	for i, req := range ir.requests {
		if err := ctx.Err(); err != nil {
			return nil, 0, "", err
		}
		where := fmt.Sprintf("inputRequests[%q] (%s)", clipText(safeText(req.key), 60), clipText(safeText(req.method), 60))
		if i == maxInputRequests {
			s.warn(fmt.Sprintf("the server asked for %d things at once; mcpsh answers the first %d and declines the rest", len(ir.requests), maxInputRequests))
		}
		if i >= maxInputRequests {
			if req.method == "elicitation/create" {
				out[req.key] = &mcp.ElicitResult{Action: ElicitDecline}
			}
			unanswerable = append(unanswerable, where)
			continue
		}
		res, ok, err := s.answerRequest(ctx, req, where)
		if err != nil {
			return nil, 0, "", err
		}
		if res != nil {
			out[req.key] = res
		}
		if ok {
			answered++
		} else {
			unanswerable = append(unanswerable, where)
		}
	}
	return out, answered, strings.Join(unanswerable, ", "), nil
}

// answerRequest answers one request of a round. ok is false when mcpsh could
// not put it to anyone (not offered, not known): the answer, if any, is a
// decline. An error is a request that breaks the protocol, or the context's.
func (s *Session) answerRequest(ctx context.Context, req inputRequest, where string) (res mcp.InputResponse, ok bool, err error) {
	switch req.method {
	case "elicitation/create":
		return s.roundElicit(ctx, req, where)
	case "sampling/createMessage":
		return s.roundSample(ctx, req, where)
	case "roots/list":
		if len(s.Roots()) == 0 {
			s.asked(req.method)
		}
		return s.rootsAnswer(), true, nil
	}
	s.warn(fmt.Sprintf("the server's %s is a request mcpsh does not know; declined", where))
	return nil, false, nil
}

// elicitParams are elicitation/create's params as the wire has them; the
// schema stays raw for mcpsh's own reader.
type elicitParams struct {
	Mode            string          `json:"mode"`
	Message         string          `json:"message"`
	RequestedSchema json.RawMessage `json:"requestedSchema"`
	URL             string          `json:"url"`
	ElicitationID   string          `json:"elicitationId"`
}

func (s *Session) roundElicit(ctx context.Context, req inputRequest, where string) (mcp.InputResponse, bool, error) {
	var p elicitParams
	if err := decodeParams(req.params, &p, where); err != nil {
		return nil, false, err
	}
	decline := &mcp.ElicitResult{Action: ElicitDecline}
	if s.opts.Elicit == nil {
		s.asked(req.method)
		return decline, false, nil
	}
	if isNull(p.RequestedSchema) {
		p.RequestedSchema = nil
	}
	// What go-sdk checks before it hands a request while a call is in flight
	// to mcpsh's handler, checked here for the requests inside a result.
	var wrong string
	switch {
	case p.Mode != "" && p.Mode != "form" && p.Mode != "url":
		wrong = fmt.Sprintf("asks in a mode mcpsh does not know (%q)", clipText(safeText(p.Mode), 40))
	case p.Mode == "form" && p.URL != "":
		wrong = "is a form with a URL"
	case p.Mode == "url" && p.URL == "":
		wrong = "asks to visit a page but names none"
	case (p.Mode == "url" || p.Mode == "" && p.URL != "") && p.RequestedSchema != nil:
		wrong = "asks to visit a page and to fill a form at once"
	}
	if wrong != "" {
		s.warn(fmt.Sprintf("the server's %s %s; declined", where, wrong))
		return decline, false, nil
	}
	r := &ElicitRequest{Server: s.serverName(), Mode: p.Mode, Message: p.Message, Schema: p.RequestedSchema, URL: p.URL, ElicitationID: p.ElicitationID}
	res, err := s.answerElicit(ctx, r)
	switch {
	case err == nil:
		return res, true, nil
	case ctx.Err() != nil:
		return nil, false, ctx.Err()
	case errors.Is(err, errURLNotOffered):
		s.warn(fmt.Sprintf("the server's %s asks to visit a page, which mcpsh offers only where a person can; declined", where))
		return decline, false, nil
	}
	// The answerer could not answer (a dialog that went away): the user made
	// no choice.
	s.warn(fmt.Sprintf("the server's %s went unanswered (%s); cancelled", where, safeText(err.Error())))
	return &mcp.ElicitResult{Action: ElicitCancel}, true, nil
}

// sampleParams are sampling/createMessage's params as the wire has them. A
// message's content is one block, or (2026-07-28) an array of them.
type sampleParams struct {
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	SystemPrompt     string   `json:"systemPrompt"`
	MaxTokens        int64    `json:"maxTokens"`
	Temperature      float64  `json:"temperature"`
	StopSequences    []string `json:"stopSequences"`
	IncludeContext   string   `json:"includeContext"`
	ModelPreferences *struct {
		Hints []struct {
			Name string `json:"name"`
		} `json:"hints"`
		CostPriority         float64 `json:"costPriority"`
		SpeedPriority        float64 `json:"speedPriority"`
		IntelligencePriority float64 `json:"intelligencePriority"`
	} `json:"modelPreferences"`
}

func (s *Session) roundSample(ctx context.Context, req inputRequest, where string) (mcp.InputResponse, bool, error) {
	var p sampleParams
	if err := decodeParams(req.params, &p, where); err != nil {
		return nil, false, err
	}
	if s.opts.Sample == nil {
		s.asked(req.method)
		return nil, false, nil
	}
	r := &SampleRequest{Server: s.serverName(), SystemPrompt: p.SystemPrompt, MaxTokens: p.MaxTokens,
		Temperature: p.Temperature, StopSequences: p.StopSequences, IncludeContext: p.IncludeContext, Raw: req.params}
	for _, m := range p.Messages {
		var blocks []json.RawMessage
		if json.Unmarshal(m.Content, &blocks) != nil {
			blocks = []json.RawMessage{m.Content}
		}
		for _, b := range blocks {
			r.Messages = append(r.Messages, SampleMessage{Role: m.Role, Block: parseBlock(b)})
		}
	}
	if mp := p.ModelPreferences; mp != nil {
		for _, h := range mp.Hints {
			r.ModelHints = append(r.ModelHints, h.Name)
		}
		r.CostPriority, r.SpeedPriority, r.IntelligencePriority = mp.CostPriority, mp.SpeedPriority, mp.IntelligencePriority
	}
	res, err := s.answerSample(ctx, r)
	if err != nil {
		if ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
		// Rejected by the person: a choice, not something mcpsh could not do.
		return nil, true, nil
	}
	return res, true, nil
}

// decodeParams reads a request's params into p; params that do not fit are
// a request of a shape the protocol does not allow.
func decodeParams(raw json.RawMessage, p any, where string) error {
	if raw == nil {
		return nil
	}
	if err := json.Unmarshal(raw, p); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return violationf("the server's %s has params whose %s is %s, not what the request takes", where, clipText(safeText(te.Field), 60), te.Value)
		}
		return violationf("the server's %s has params of the wrong shape", where)
	}
	return nil
}

// rootsAnswer is the session's roots as an answer to roots/list. SEP-2577
// deprecates roots, sampling and logging; servers use them through the
// deprecation window, so mcpsh keeps serving them.
func (s *Session) rootsAnswer() mcp.InputResponse {
	//lint:ignore SA1019 see above
	roots := []*mcp.Root{}
	for _, r := range s.Roots() {
		//lint:ignore SA1019 see above
		roots = append(roots, &mcp.Root{URI: r.URI, Name: r.Name})
	}
	//lint:ignore SA1019 see above
	return &mcp.ListRootsResult{Roots: roots}
}
