package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"

	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Servers ask things of mcpsh too: roots, input from the user (elicitation)
// and a completion (sampling). mcpsh declares a capability only when the
// caller gives it the means to honour it (Options.Roots, Elicit, Sample), so a
// script never advertises what nobody will answer. Roots and sampling are
// deprecated as of protocol 2026-07-28 (SEP-2577) but still used; the code for
// them is kept to what those servers need.

// Root is a directory the user lets the server see.
type Root struct {
	URI  string `json:"uri"`
	Name string `json:"name,omitempty"`
}

// RootOf makes a root of a local directory.
func RootOf(dir string) (Root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Root{}, err
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
	return Root{URI: u.String(), Name: filepath.Base(abs)}, nil
}

// Elicitation actions: what the user did with the server's request.
const (
	ElicitAccept  = "accept"
	ElicitDecline = "decline"
	ElicitCancel  = "cancel"
)

// ElicitRequest is a server asking the user for input (elicitation/create):
// a form (Schema, a flat object of primitive fields) or a URL to visit. The
// text is the server's: make it safe before showing it.
type ElicitRequest struct {
	// Server names the server that asks, for the user to see.
	Server        string
	Mode          string // "form" or "url"
	Message       string
	Schema        json.RawMessage
	URL           string
	ElicitationID string
}

// ElicitResponse is the user's answer.
type ElicitResponse struct {
	Action  string
	Content map[string]any
}

// Form reads the requested schema, for a form to show or answers to check.
func (r *ElicitRequest) Form() *Schema { return ReadSchema("the server's form", "requested", r.Schema) }

// Validate checks a form's answer against the requested schema, as tool
// arguments are checked: an *ArgError names the field and the rule. A schema
// mcpsh cannot check refuses every answer: the server asked for something
// it cannot say the shape of.
func (r *ElicitRequest) Validate(content map[string]any) error {
	f := r.Form()
	if err := f.CheckErr(); err != nil {
		return err
	}
	if missing := f.Missing(content); len(missing) > 0 {
		return &ArgError{Tool: "the server's form", Arg: safeText(missing[0]), Rule: "required but missing"}
	}
	return f.Validate(content)
}

// SampleRequest is a server asking for a completion (sampling/createMessage).
// mcpsh never calls a model: a person reads it and writes the reply.
type SampleRequest struct {
	Server         string
	Messages       []SampleMessage
	SystemPrompt   string
	MaxTokens      int64
	Temperature    float64
	StopSequences  []string
	IncludeContext string
	// ModelHints and the priorities are the server's model preferences.
	ModelHints                                        []string
	CostPriority, SpeedPriority, IntelligencePriority float64
	// Raw are the request's params as the server sent them, for a caller
	// that passes the request on (a proxy), with the credentials the target
	// knows of taken out (Target.RedactJSON).
	Raw json.RawMessage
}

// SampleMessage is one message of the conversation the server sends.
type SampleMessage struct {
	Role  string
	Block Block
}

// SampleResponse is the reply the person wrote.
type SampleResponse struct {
	Text string
	// Raw, when set, is the whole result to send (a proxy passes its
	// host's on); Text is then not used.
	Raw json.RawMessage
}

// ErrDeclined is the answer when the user rejects a server's request.
var ErrDeclined = errors.New("the user declined the request")

// humanModel is what mcpsh reports as the model of a sampled reply.
const humanModel = "human (mcpsh)"

// capabilities are what mcpsh declares to the server.
func (s *Session) capabilities() *mcp.ClientCapabilities {
	caps := &mcp.ClientCapabilities{}
	if s.offersRoots() {
		//lint:ignore SA1019 SEP-2577 deprecates roots, sampling and logging; servers use them through the deprecation window, so mcpsh keeps serving them
		caps.RootsV2 = &mcp.RootCapabilities{ListChanged: s.opts.OfferRoots}
	}
	if s.opts.Elicit != nil {
		caps.Elicitation = &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}
		if s.opts.ElicitURL {
			caps.Elicitation.URL = &mcp.URLElicitationCapabilities{}
		}
	}
	return caps
}

// errURLNotOffered: a server asked for URL elicitation where mcpsh does not
// offer it (batch mode, where nobody can visit a page).
var errURLNotOffered = errors.New("mcpsh does not offer URL elicitation here")

// elicitHandler turns the SDK's request (a server asking while a call is in
// flight, protocol 2025-11-25 and earlier) into mcpsh's and back.
func (s *Session) elicitHandler(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	p := req.Params
	defer s.askingAbout(p.Meta)()
	r := &ElicitRequest{Server: s.serverName(), Mode: p.Mode, Message: p.Message, URL: p.URL, ElicitationID: p.ElicitationID}
	if p.RequestedSchema != nil {
		raw, err := json.Marshal(p.RequestedSchema)
		if err != nil {
			return nil, err
		}
		r.Schema = raw
	}
	return s.answerElicit(ctx, r)
}

// answerElicit asks the mode's answerer (a person, or a batch policy) and
// checks the answer: a form answer that breaks the schema is not sent, the
// server gets a decline. Both ways a server asks come here: a request while
// a call is in flight, and a request inside an input-required result.
func (s *Session) answerElicit(ctx context.Context, r *ElicitRequest) (*mcp.ElicitResult, error) {
	// The server's words reach a person from here: without a credential
	// mcpsh holds for it. The URL is left as it came: its host is what the
	// person is shown to judge the page by.
	r.Message = s.Target.Redact(r.Message)
	// The form's schema is data a program may pass on (a proxy to its
	// host): only the known values come out, so it stays the same JSON.
	r.Schema, _ = s.Target.RedactJSON(r.Schema)
	if r.Mode == "" {
		r.Mode = "form"
		if r.URL != "" {
			r.Mode = "url"
		}
	}
	if r.Mode == "url" && !s.opts.ElicitURL {
		return nil, errURLNotOffered
	}
	res, err := s.opts.Elicit(ctx, r)
	if err != nil {
		return nil, err
	}
	out := &mcp.ElicitResult{Action: res.Action}
	if res.Action == ElicitAccept && r.Mode == "form" {
		if err := r.Validate(res.Content); err != nil {
			s.warn("the answer to the server's form does not fit its schema, so mcpsh declined: " + err.Error())
			return &mcp.ElicitResult{Action: ElicitDecline}, nil
		}
		out.Content = res.Content
		if out.Content == nil {
			out.Content = map[string]any{}
		}
	}
	s.emit(Event{Kind: EventRequest, Text: fmt.Sprintf("the server asked for input (%s): %s", r.Mode, out.Action)})
	return out, nil
}

// sampleHandler hands a sampling request to the person.
//
//lint:ignore SA1019 SEP-2577 deprecates roots, sampling and logging; servers use them through the deprecation window, so mcpsh keeps serving them
func (s *Session) sampleHandler(ctx context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	p := req.Params
	defer s.askingAbout(p.Meta)()
	r := &SampleRequest{Server: s.serverName(), SystemPrompt: p.SystemPrompt, MaxTokens: p.MaxTokens,
		Temperature: p.Temperature, StopSequences: p.StopSequences, IncludeContext: p.IncludeContext}
	r.Raw, _ = json.Marshal(p)
	for _, m := range p.Messages {
		if m == nil {
			continue
		}
		raw, _ := json.Marshal(m.Content)
		r.Messages = append(r.Messages, SampleMessage{Role: string(m.Role), Block: parseBlock(raw)})
	}
	if mp := p.ModelPreferences; mp != nil {
		for _, h := range mp.Hints {
			if h != nil {
				r.ModelHints = append(r.ModelHints, h.Name)
			}
		}
		r.CostPriority, r.SpeedPriority, r.IntelligencePriority = mp.CostPriority, mp.SpeedPriority, mp.IntelligencePriority
	}
	res, err := s.answerSample(ctx, r)
	if err != nil {
		// The spec's answer to a rejected sampling request.
		return nil, &jsonrpc.Error{Code: -1, Message: "User rejected sampling request"}
	}
	return res, nil
}

// answerSample asks the person for the reply to a sampling request; an error
// is a rejection (or the request's end).
//
//lint:ignore SA1019 SEP-2577 deprecates roots, sampling and logging; servers use them through the deprecation window, so mcpsh keeps serving them
func (s *Session) answerSample(ctx context.Context, r *SampleRequest) (*mcp.CreateMessageResult, error) {
	// As for a form: the person reads the server's words without a
	// credential mcpsh holds for it.
	r.SystemPrompt = s.Target.Redact(r.SystemPrompt)
	for i := range r.Messages {
		r.Messages[i].Block.Text = s.Target.Redact(r.Messages[i].Block.Text)
	}
	r.Raw, _ = s.Target.RedactJSON(r.Raw)
	res, err := s.opts.Sample(ctx, r)
	if err != nil {
		s.emit(Event{Kind: EventRequest, Text: "the server asked for a completion (sampling): declined"})
		return nil, err
	}
	s.emit(Event{Kind: EventRequest, Text: "the server asked for a completion (sampling): answered"})
	if res.Raw != nil {
		//lint:ignore SA1019 SEP-2577 deprecates roots, sampling and logging; servers use them through the deprecation window, so mcpsh keeps serving them
		var out mcp.CreateMessageResult
		if err := json.Unmarshal(res.Raw, &out); err != nil {
			return nil, fmt.Errorf("the reply to the sampling request is not a result: %s", safeText(err.Error()))
		}
		return &out, nil
	}
	//lint:ignore SA1019 SEP-2577 deprecates roots, sampling and logging; servers use them through the deprecation window, so mcpsh keeps serving them
	return &mcp.CreateMessageResult{Content: &mcp.TextContent{Text: res.Text}, Model: humanModel, Role: "assistant", StopReason: "endTurn"}, nil
}

// asked reports a server's request for something mcpsh did not declare; the
// SDK answers it with an error, and the user hears why.
func (s *Session) asked(method string) {
	switch {
	case method == "sampling/createMessage" && s.opts.Sample == nil:
		s.warn("the server asked for a completion (sampling/createMessage), and no one here writes sampling replies; declined")
	case method == "elicitation/create" && s.opts.Elicit == nil:
		s.warn("the server asked for input (elicitation/create), which mcpsh did not offer; declined")
	case method == "roots/list" && len(s.Roots()) == 0:
		s.warn("the server asked for roots, and the session offers none; it got none")
	}
}

// serverName is how the server's requests name it: the label the user
// knows it by, never the name it reported (see ServerInfo).
func (s *Session) serverName() string { return termtext.Line(s.Target.Label()) }
