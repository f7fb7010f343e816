package client

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Servers that answer in rounds (protocol 2026-07-28, SEP-2322), played by
// internal/testing/fixture's "rounds" scenarios over stdio and streamable HTTP. What
// reached the server is read from the fixture's state files.

// answering is an Elicit that accepts each request with the next of answers
// (the last one over and over), and notes whether two requests were ever
// put to it at once.
type answering struct {
	answers []string
	mu      sync.Mutex
	n       int
	busy    atomic.Int32
	overlap atomic.Bool
}

func (a *answering) elicit(_ context.Context, r *ElicitRequest) (*ElicitResponse, error) {
	if a.busy.Add(1) > 1 {
		a.overlap.Store(true)
	}
	defer a.busy.Add(-1)
	a.mu.Lock()
	answer := a.answers[min(a.n, len(a.answers)-1)]
	a.n++
	a.mu.Unlock()
	return &ElicitResponse{Action: ElicitAccept, Content: map[string]any{"answer": answer}}, nil
}

// Item 5: a round that leaves mcpsh is decided again on what the server
// declares now. flip's first round re-declares it destructive (list_changed
// before the answer) and asks for roots: under a read-only policy, round 2
// must not be sent, and the outcome says which round, why, and how the
// hints changed.
func TestRoundIsDecidedAgainBeforeItIsSent(t *testing.T) {
	t.Parallel()
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport+"/quiet", func(t *testing.T) {
			// The same, with no notice at all: the tools are listed again
			// before a later round whatever the server said.
			s, state := roundsFixture(t, transport, "rounds-flip", nil)
			o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "quiet_flip"), Mode: policy.Batch, OnlyReadOnly: true})
			if n := fixture.CountIn(state, "rounds", "quiet_flip 2"); n != 0 {
				t.Fatalf("round 2 of quiet_flip, now destructive, reached the server under a read-only policy")
			}
			if o.Status != StatusFailed || o.RoundNotSent != 2 || !strings.Contains(o.Error, "readOnlyHint true → false") {
				t.Errorf("status %s, round not sent %d (%s)", o.Status, o.RoundNotSent, o.Error)
			}
		})
		t.Run(transport, func(t *testing.T) {
			var recorded []byte
			s, state := roundsFixture(t, transport, "rounds-flip", &Options{Recorder: func(o *Outcome) error {
				recorded, _ = json.Marshal(o)
				return nil
			}})
			o, err := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "flip"), Mode: policy.Batch, OnlyReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			if n := fixture.CountIn(state, "rounds", "flip 2"); n != 0 || fixture.CountIn(state, "rounds", "flip 1") != 1 {
				t.Fatalf("rounds that reached the server: %v; round 2 of a call now destructive went out under a read-only policy", fixture.Lines(state, "rounds"))
			}
			if o.Status != StatusFailed || o.Rounds != 1 || o.RoundNotSent != 2 || o.Decision != policy.Refuse || o.Class != policy.ClassDestructive {
				t.Fatalf("status %s, rounds %d, round not sent %d, decision %s, class %s (%s)", o.Status, o.Rounds, o.RoundNotSent, o.Decision, o.Class, o.Error)
			}
			for _, want := range []string{"round 2 not sent", "is a destructive tool", "readOnlyHint true → false", "round 1 had reached the server, so the call may have run in part"} {
				if !strings.Contains(o.Error, want) {
					t.Errorf("error %q does not say %q", o.Error, want)
				}
			}
			if len(o.Attempts) != 1 || o.Attempts[0].Failure != string(policy.RoundNotSent) || o.Attempts[0].Round != 2 {
				t.Errorf("attempts %+v", o.Attempts)
			}
			for _, want := range []string{`"status":"failed"`, `"rounds":1`, `"roundNotSent":2`, `"hintsChanged":"readOnlyHint true → false`} {
				if !strings.Contains(string(recorded), want) {
					t.Errorf("the recorded outcome lacks %s: %s", want, recorded)
				}
			}
		})
	}
}

// A call the server answers in rounds, every round decided to run: each
// round goes through BeforeSend (the log is synced before a send that may
// change the world), and the rounds are counted, not taken for attempts.
func TestEachRoundIsASend(t *testing.T) {
	t.Parallel()
	sends := 0
	s, state := roundsFixture(t, "stdio", "rounds-flip", &Options{BeforeSend: func(*Outcome) { sends++ }})
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "flip"), Mode: policy.Batch, Preapproved: true})
	if o.Status != StatusOK || o.Result.Content[0].Text != "flipped" || fixture.CountIn(state, "rounds", "flip 2") != 1 {
		t.Fatalf("status %s (%s), rounds at the server %v", o.Status, o.Error, fixture.Lines(state, "rounds"))
	}
	if o.Rounds != 2 || len(o.Attempts) != 1 || o.Attempts[0].Round != 2 || sends != 2 {
		t.Errorf("rounds %d, attempts %+v, BeforeSend ran %d times; want 2 rounds, 1 attempt (round 2), 2 sends", o.Rounds, o.Attempts, sends)
	}
	// The roots request was answered (with none: none were given).
	if got := fixture.Lines(state, "answers"); !slices.Equal(got, []string{"flip", "where=roots:0"}) {
		t.Errorf("answers %q", got)
	}
}

// Item 8: several requests in one round are put to the answerer one at a
// time, in the order the server listed them, and each answer goes back
// under its own request's key.
func TestAnswersGoOnePerRequestInTheOrderAsked(t *testing.T) {
	t.Parallel()
	a := &answering{answers: []string{"a1", "a2", "a3", "a4", "a5", "a6"}}
	s, state := roundsFixture(t, "stdio", "rounds", &Options{Elicit: a.elicit})
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "ask_two"), Mode: policy.Batch})
	if o.Status != StatusOK || o.Rounds != 2 {
		t.Fatalf("status %s (%s), rounds %d", o.Status, o.Error, o.Rounds)
	}
	var want []string
	for i, k := range []string{"zulu", "alpha", "mike", "bravo", "yankee", "charlie"} {
		want = append(want, "ask_two", fmt.Sprintf("%s=accept:a%d", k, i+1))
	}
	if got := fixture.Lines(state, "answers"); !slices.Equal(got, want) {
		t.Errorf("answers at the server:\n got %q\nwant %q", got, want)
	}
	if a.overlap.Load() {
		t.Error("two requests were put to the answerer at once")
	}
}

// Item 17: a round that carries only requestState is sent again at once
// with the state echoed, for tools/call, prompts/get and resources/read.
func TestStateOnlyRoundIsSentAgainWithTheState(t *testing.T) {
	t.Parallel()
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			a := &answering{answers: []string{"Ada"}}
			s, state := roundsFixture(t, transport, "rounds", &Options{Elicit: a.elicit})
			o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "state_only"), Mode: policy.Batch})
			if o.Status != StatusOK || len(o.Result.Content) != 1 || o.Result.Content[0].Text != "resumed state_only-2" || o.Rounds != 2 {
				t.Fatalf("status %s (%s), result %+v, rounds %d", o.Status, o.Error, o.Result, o.Rounds)
			}
			if got := fixture.Lines(state, "states"); !slices.Equal(got, []string{"state_only", "-", "state_only", "state_only-2"}) {
				t.Errorf("states at the server %q", got)
			}
			res, err := s.ReadResource(context.Background(), "mem://secret")
			if err != nil || len(res) != 1 || res[0].Text != "opened with secret-2" {
				t.Errorf("resources/read: %+v, %v", res, err)
			}
			p, err := s.GetPrompt(context.Background(), &Prompt{Name: "greet"}, nil)
			if err != nil || len(p.Messages) != 1 || p.Messages[0].Block.Text != "Hello accept:Ada" {
				t.Errorf("prompts/get: %+v, %v", p, err)
			}
		})
	}
}

// Item 18: a request no client knows is declined and the rest answered; it
// never ends the session. A server that asks only for it, again, is stopped.
func TestUnknownRequestIsDeclinedAndTheRestAnswered(t *testing.T) {
	t.Parallel()
	a := &answering{answers: []string{"Ada"}}
	var mu sync.Mutex
	var warnings []string
	target, state := fixtureTarget(t, "rounds")
	s := connectFixture(t, target, &Options{Elicit: a.elicit, OnWarning: func(w string) {
		mu.Lock()
		warnings = append(warnings, w)
		mu.Unlock()
	}})
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "stranger"), Mode: policy.Batch})
	if o.Status != StatusOK || o.Result.Content[0].Text != "who=accept:Ada beamed=false" || s.Restarts() != 0 {
		t.Fatalf("status %s (%s), result %+v, restarts %d", o.Status, o.Error, o.Result, s.Restarts())
	}
	if got := fixture.Lines(state, "answers"); !slices.Equal(got, []string{"stranger", "who=accept:Ada", "stranger", "where=roots:0"}) {
		t.Errorf("answers at the server %q", got)
	}
	mu.Lock()
	said := strings.Join(warnings, "\n")
	mu.Unlock()
	if !strings.Contains(said, `the server's inputRequests["beam"] (x/teleport) is a request mcpsh does not know; declined`) {
		t.Errorf("warnings %q", said)
	}

	o, _ = s.Do(context.Background(), &Call{Tool: mustTool(t, s, "insist"), Mode: policy.Batch})
	if o.Status != StatusFailed || len(o.Attempts) != 1 || o.Attempts[0].Failure != string(policy.TooManyRounds) ||
		!strings.Contains(o.Error, "round 2: the server asked again only for what mcpsh cannot answer") {
		t.Fatalf("insist: status %s, attempts %+v (%s)", o.Status, o.Attempts, o.Error)
	}
	if got := fixture.Lines(state, "rounds"); s.Restarts() != 0 || fixture.CountIn(state, "rounds", "insist 3") != 0 || fixture.CountIn(state, "rounds", "insist 2") != 1 {
		t.Errorf("rounds at the server %q, restarts %d", got, s.Restarts())
	}
}

// A sampling request inside a result goes to the person, as one sent while
// a call is in flight does; where nobody can answer it, it is declined by
// leaving it out (a sampling answer has no way to say no).
func TestSamplingInsideAResult(t *testing.T) {
	t.Parallel()
	var asked []string
	s, _ := roundsFixture(t, "stdio", "rounds", &Options{Sample: func(_ context.Context, r *SampleRequest) (*SampleResponse, error) {
		for _, m := range r.Messages {
			asked = append(asked, m.Role+": "+m.Block.Text)
		}
		return &SampleResponse{Text: "Paris"}, nil
	}})
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "ask_model"), Mode: policy.Batch})
	if o.Status != StatusOK || o.Result.Content[0].Text != "model said assistant:Paris:human (mcpsh)" || !slices.Equal(asked, []string{"user: Capital of France?"}) {
		t.Fatalf("status %s (%s), result %+v, the person was asked %q", o.Status, o.Error, o.Result, asked)
	}

	s, state := roundsFixture(t, "stdio", "rounds", nil)
	o, _ = s.Do(context.Background(), &Call{Tool: mustTool(t, s, "ask_model"), Mode: policy.Batch})
	if o.Status != StatusOK || o.Result.Content[0].Text != "model said other" || fixture.CountIn(state, "rounds", "ask_model 2") != 1 {
		t.Errorf("with nobody to answer: status %s (%s), result %+v", o.Status, o.Error, o.Result)
	}
}

// Item 13: a malformed input-required result is a protocol violation: the
// call fails once, saying what is wrong, with no restart and no retry (every
// tool here is read-only, so a lost connection would be retried).
func TestMalformedRoundsFailOnceWithoutRestart(t *testing.T) {
	t.Parallel()
	a := &answering{answers: []string{"yes"}}
	s, state := roundsFixture(t, "stdio", "rounds", &Options{Elicit: a.elicit})
	for tool, want := range map[string]string{
		"bad_shape":   "round 1: the server's inputRequests is an array, not an object",
		"no_method":   `round 1: the server's inputRequests["who"] has no method`,
		"bad_params":  `round 1: the server's inputRequests["who"] (elicitation/create) has params whose message is object`,
		"empty_round": "round 1: the server asked for more input but sent neither inputRequests nor requestState",
		"odd_type":    `the server answered with a result of type "maybe_later", which mcpsh does not know`,
	} {
		o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, tool), Mode: policy.Batch})
		if o.Status != StatusFailed || len(o.Attempts) != 1 || o.Attempts[0].Failure != string(policy.ProtocolViolation) || !strings.Contains(o.Error, want) {
			t.Errorf("%s: status %s, attempts %+v, error %q; want one protocol violation saying %q", tool, o.Status, o.Attempts, o.Error, want)
		}
		if n := fixture.CountIn(state, "executions", tool); n != 1 {
			t.Errorf("%s reached the server %d times, want 1", tool, n)
		}
	}
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "forever"), Mode: policy.Batch})
	if o.Status != StatusFailed || len(o.Attempts) != 1 || o.Attempts[0].Failure != string(policy.TooManyRounds) || o.Rounds != maxRounds ||
		!strings.Contains(o.Error, "still asked for more input after 10 rounds") {
		t.Errorf("forever: status %s, rounds %d, attempts %+v (%s)", o.Status, o.Rounds, o.Attempts, o.Error)
	}
	if n := fixture.CountIn(state, "executions", "forever"); n != maxRounds {
		t.Errorf("forever reached the server %d times, want %d", n, maxRounds)
	}
	if s.Restarts() != 0 {
		t.Errorf("the server was restarted %d times", s.Restarts())
	}
}

// A retry after a failure in a later round sends that round again, with its
// answers and state; it does not start the call over, and the round is not
// an attempt.
func TestRetryInALaterRoundSendsThatRoundAgain(t *testing.T) {
	t.Parallel()
	a := &answering{answers: []string{"yes"}}
	s, state := roundsFixture(t, "stdio", "rounds", &Options{Elicit: a.elicit})
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "flaky_round"), Mode: policy.Batch})
	if o.Status != StatusOK || o.Result.Content[0].Text != "steady" {
		t.Fatalf("status %s (%s)", o.Status, o.Error)
	}
	if got := fixture.Lines(state, "rounds"); !slices.Equal(got, []string{"flaky_round", "1", "flaky_round", "2", "flaky_round", "2"}) {
		t.Errorf("rounds at the server %q: the retry must resend round 2", got)
	}
	if a.n != 1 {
		t.Errorf("the question was put %d times; a retry of round 2 resends its answer", a.n)
	}
	if len(o.Attempts) != 2 || o.Attempts[0].Round != 2 || o.Attempts[0].Failure != string(policy.ServerError) ||
		!strings.HasPrefix(o.Attempts[0].Error, "round 2: server error: backend hiccup") || o.Attempts[1].Round != 2 || o.Rounds != 2 {
		t.Errorf("rounds %d, attempts %+v", o.Rounds, o.Attempts)
	}
}

// What a round asks that mcpsh will not put to anyone is declined, saying
// why: more requests than one round may ask (a flood of questions), a page
// to visit where nobody can, an elicitation mode no version defines.
func TestRoundRequestsMcpshWillNotPutToAnyone(t *testing.T) {
	t.Parallel()
	reqs := []string{`"page":{"method":"elicitation/create","params":{"mode":"url","message":"Log in","url":"https://example.com/login","elicitationId":"e1"}}`,
		`"mind":{"method":"elicitation/create","params":{"mode":"telepathy","message":"Think of a number"}}`}
	for i := range 20 {
		reqs = append(reqs, fmt.Sprintf(`"q%02d":{"method":"elicitation/create","params":{"message":"Q%d?","requestedSchema":{"type":"object","properties":{"answer":{"type":"string"}}}}}`, i, i))
	}
	ir, err := parseInputRequired(json.RawMessage(`{"resultType":"input_required","inputRequests":{` + strings.Join(reqs, ",") + `}}`))
	if err != nil {
		t.Fatal(err)
	}
	a := &answering{answers: []string{"yes"}}
	var warnings []string
	s := &Session{opts: Options{Elicit: a.elicit, OnWarning: func(w string) { warnings = append(warnings, w) }}}
	out, answered, _, err := s.fulfil(context.Background(), ir)
	if err != nil {
		t.Fatal(err)
	}
	// The first 16 are page, mind and q00 to q13; the person sees 14.
	if answered != 14 || a.n != 14 || len(out) != 22 {
		t.Fatalf("answered %d, asked the person %d times, %d answers; want 14, 14, 22", answered, a.n, len(out))
	}
	for _, k := range []string{"page", "mind", "q14", "q19"} {
		if r, ok := out[k].(*mcp.ElicitResult); !ok || r.Action != ElicitDecline {
			t.Errorf("%s: %+v, want a decline", k, out[k])
		}
	}
	said := strings.Join(warnings, "\n")
	for _, want := range []string{"asked for 22 things at once; mcpsh answers the first 16", `inputRequests["page"] (elicitation/create) asks to visit a page, which mcpsh offers only where a person can`, `asks in a mode mcpsh does not know ("telepathy")`} {
		if !strings.Contains(said, want) {
			t.Errorf("warnings %q lack %q", said, want)
		}
	}
}
