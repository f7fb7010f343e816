package client

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/mcpsh/mcpsh/internal/redact"
	"github.com/mcpsh/mcpsh/internal/testing/oauthfake"
	"github.com/mcpsh/mcpsh/policy"
)

// TestCredentialsAServerEchoesAreRedacted: a server quotes the access token
// (without "Bearer"), the refresh token and the client secret mcpsh was
// registered with, in a progress notification, in a request for input and
// in the JSON-RPC error that ends the call. Each reaches mcpsh's callers
// with them redacted: the outcome, the progress message, the request's
// message (a person reads it, in a dialog or on stderr), and the trace
// (the traffic pane and --trace); the ones in use and the ones the session
// used before. The fake's tokens expire within oauth2's ten-second margin,
// so every request renews them and they change under the session, as an
// hour-long session's do.
func TestCredentialsAServerEchoesAreRedacted(t *testing.T) {
	t.Parallel()
	f := oauthfake.New(t)
	f.ExpiresIn = 5
	f.RegisterSecret = "dyn-secret-Rk5Tq2"
	var mu sync.Mutex
	var texts []string // every text of the server's that reached mcpsh's callers
	keep := func(what, text string) {
		mu.Lock()
		texts = append(texts, what+": "+text)
		mu.Unlock()
	}
	asked := make(chan string, 4)
	opts := &Options{
		Auth: browserAuth(NewFileTokenStore(t.TempDir())),
		Elicit: func(_ context.Context, r *ElicitRequest) (*ElicitResponse, error) {
			asked <- r.Message
			return &ElicitResponse{Action: ElicitDecline}, nil
		},
		Trace: func(e TraceEntry) { keep("trace "+e.Dir+" "+e.Kind, string(e.Message)) },
	}
	ctx, cancel := context.WithTimeout(context.Background(), testBound)
	defer cancel()
	s, err := Connect(ctx, Target{Name: "prot", Kind: KindHTTP, URL: f.URL(), Trust: policy.Trusted}, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	callWhoami(t, s)
	progress := make(chan string, 4)
	o, _ := s.Do(ctx, &Call{Tool: mustTool(t, s, "leak"), Args: map[string]any{}, Mode: policy.Batch,
		OnProgress: func(p Progress) { progress <- p.Message }})
	const echoed = "upstream refused the credentials it was handed: " + redact.Marker
	if o.Status != StatusFailed || !strings.Contains(o.Error, echoed) {
		t.Fatalf("the server's error did not come through: %s %q", o.Status, o.Error)
	}
	keep("outcome", o.Error)
	for _, a := range o.Attempts {
		keep("attempt", a.Error)
	}
	// Each arrives by itself: wait for it, as a person would see it.
	for what, ch := range map[string]chan string{"progress": progress, "request for input": asked} {
		select {
		case m := <-ch:
			if !strings.HasPrefix(m, echoed) {
				t.Errorf("the %s's message is not the server's, redacted: %q", what, m)
			}
			keep(what, m)
		case <-ctx.Done():
			t.Fatalf("no %s reached mcpsh's caller", what)
		}
	}
	issued := f.Seen().Issued
	if len(issued) < 6 {
		t.Fatalf("the tokens did not change under the session: %d issued", len(issued))
	}
	mu.Lock()
	defer mu.Unlock()
	traced := false
	for _, text := range texts {
		traced = traced || strings.HasPrefix(text, "trace in error: ") && strings.Contains(text, echoed)
		for _, secret := range append(issued, f.RegisterSecret) {
			if strings.Contains(text, secret) {
				t.Errorf("%s… shows in %q", secret[:5], text)
			}
		}
	}
	if !traced {
		t.Error("the trace does not hold the server's error")
	}
	// Server text anywhere else goes through the same redaction.
	if got := s.Target.Redact("stderr: " + issued[0] + " " + issued[len(issued)-1]); got != "stderr: "+redact.Marker+" "+redact.Marker {
		t.Errorf("Target.Redact = %q", got)
	}
}

// TestTraceRedactsSecretsSpelledWithEscapes: a JSON string may spell a
// token with escapes, which a match on the message's bytes does not find;
// the trace reads such a message and writes it again without the token.
func TestTraceRedactsSecretsSpelledWithEscapes(t *testing.T) {
	t.Parallel()
	var got []TraceEntry
	tgt := Target{Kind: KindHTTP, URL: "https://mcp.example.com/mcp", Secrets: []string{"at-7-Zq8xW2"}}
	tr := newTracer(tgt, func(e TraceEntry) { got = append(got, e) })
	for _, raw := range []string{
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"refused at-7-Zq8xW2"}}`,
		`{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"refused \u0061t-7-Zq8xW2\n"}}`,
		`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":{"at-7-Zq8x\u00572":"key"}}}`,
		`not json at-7-Zq8xW2`,
	} {
		tr.noteRaw("in", []byte(raw))
	}
	if len(got) != 4 {
		t.Fatalf("%d entries", len(got))
	}
	for _, e := range got {
		var v any
		if err := json.Unmarshal(e.Message, &v); err != nil {
			t.Errorf("the traced message is not JSON: %s", e.Message)
		}
		b, _ := json.Marshal(v)
		if strings.Contains(string(b), "at-7-Zq8xW2") || !strings.Contains(string(b), redact.Marker) {
			t.Errorf("traced %s", e.Message)
		}
	}
}

// TestASamplingRequestIsRedactedForThePerson: a server's request for a
// completion quotes a secret the target was configured with; the person
// asked to write the reply reads it redacted.
func TestASamplingRequestIsRedactedForThePerson(t *testing.T) {
	t.Parallel()
	target, _ := fixtureTarget(t, "rounds")
	target.Secrets = []string{"France"} // the fixture asks "Capital of France?"
	var asked []string
	s := connectFixture(t, target, &Options{Sample: func(_ context.Context, r *SampleRequest) (*SampleResponse, error) {
		for _, m := range r.Messages {
			asked = append(asked, m.Role+": "+m.Block.Text)
		}
		return &SampleResponse{Text: "Paris"}, nil
	}})
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "ask_model"), Mode: policy.Batch})
	if o.Status != StatusOK || len(asked) != 1 || asked[0] != "user: Capital of "+redact.Marker+"?" {
		t.Fatalf("status %s (%s), the person was asked %q", o.Status, o.Error, asked)
	}
}
