package client

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpsh/mcpsh/policy"
)

// FuzzParseInputRequired holds the reader of input-required results
// (rounds.go) and the answering of their requests (rounds_fulfil.go) to
// their promises over arbitrary answers: no panic; the shortcut of
// needsInput never disagrees with a full read; a result that breaks the
// protocol is a violation, in words safe for a terminal; one that is read has
// unique keys, a method for each request and params that are an object,
// and something to act on; and answering it answers only what was asked,
// under the key it was asked by, saying anything in safe words.
func FuzzParseInputRequired(f *testing.F) {
	ask := `{"method":"elicitation/create","params":{"mode":"form","message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string","default":"Ada"}},"required":["name"]}}}`
	for _, seed := range []string{
		`{"resultType":"input_required","inputRequests":{"github_login":` + ask + `,"capital_of_france":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Capital of France?"}}],"systemPrompt":"You are a helpful assistant.","maxTokens":100}}},"requestState":"AEAD-protected blob"}`,
		`{"resultType":"input_required","requestState":"s-1"}`,
		`{"resultType":"input_required","inputRequests":{}}`,
		`{"resultType":"input_required","inputRequests":{"r":{"method":"roots/list"},"x":{"method":"x/teleport","params":{"to":"mars"}}}}`,
		`{"resultType":"input_required","inputRequests":[` + ask + `]}`,
		`{"resultType":"input_required","inputRequests":{"a":` + ask + `,"a":` + ask + `}}`,
		`{"resultType":"input_required","inputRequests":{"a":{"params":{}}},"requestState":7}`,
		`{"resultType":"input_required","inputRequests":{"a":{"method":"elicitation/create","params":{"message":{"x":1},"mode":"url"}}}}`,
		`{"resultType":"input_required","inputRequests":{"u":{"method":"elicitation/create","params":{"mode":"url","url":"https://evil.example/` + rawEvil + `"}}}}`,
		`{"resultType":"input_required","content":[{"type":"text","text":"round 2 of 2"}]}`,
		`{"resultType":"maybe_later` + evil + `"}`,
		`{"resultType":7,"content":[]}`,
		`{"resultType":"complete","inputRequests":{"a":` + ask + `}}`,
		`{"inputRequests":{"k` + evil + `":{"method":"m` + evil + `"}}}`,
		`{"result\u0054ype":"input_required","requestState":"escaped key"}`,
		`{"content":[{"type":"text","text":"plain"}]}`,
		`{"resultType":"input_required","requestState":"a"} trailing`,
		`[]`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		more, err := needsInput(json.RawMessage(raw))
		slowMore, slowErr := needsInputSlow(json.RawMessage(raw))
		if more != slowMore || (err == nil) != (slowErr == nil) {
			t.Fatalf("needsInput says %v, %v; a full read says %v, %v", more, err, slowMore, slowErr)
		}
		if err != nil {
			checkRoundError(t, err)
			return
		}
		if !more {
			return
		}
		ir, err := parseInputRequired(json.RawMessage(raw))
		if err != nil {
			checkRoundError(t, err)
			return
		}
		keys := map[string]bool{}
		for _, r := range ir.requests {
			if keys[r.key] {
				t.Fatalf("key %q read twice", r.key)
			}
			keys[r.key] = true
			if r.method == "" {
				t.Fatalf("request %q without a method", r.key)
			}
			if r.params != nil {
				if _, err := objectFields(r.params); err != nil {
					t.Fatalf("request %q has params that are not an object: %s", r.key, r.params)
				}
			}
		}
		if !ir.hasState && ir.requests == nil {
			fields, _ := objectFields(json.RawMessage(raw))
			if v, _ := onlyOne(fields, "inputRequests"); isNull(v) {
				t.Fatalf("read a request for more input that carries nothing: %s", raw)
			}
		}

		var mu sync.Mutex
		var said []string
		s := &Session{opts: Options{
			Roots: []Root{{URI: "file:///work", Name: "work"}},
			Elicit: func(_ context.Context, r *ElicitRequest) (*ElicitResponse, error) {
				return &ElicitResponse{Action: ElicitAccept, Content: r.Form().Defaults()}, nil
			},
			Sample: func(context.Context, *SampleRequest) (*SampleResponse, error) {
				return &SampleResponse{Text: "Paris"}, nil
			},
			OnWarning: func(w string) {
				mu.Lock()
				said = append(said, w)
				mu.Unlock()
			},
		}}
		out, answered, cannot, err := s.fulfil(context.Background(), ir)
		if err != nil {
			checkRoundError(t, err)
			return
		}
		if len(out) > len(ir.requests) || answered > len(ir.requests) {
			t.Fatalf("%d answers for %d requests", len(out), len(ir.requests))
		}
		for k := range out {
			if !keys[k] {
				t.Fatalf("an answer under %q, which was not asked", k)
			}
		}
		assertFuzzSafe(t, "what mcpsh could not answer", cannot)
		for _, w := range said {
			assertFuzzSafe(t, "warning", w)
		}
	})
}

func checkRoundError(t *testing.T, err error) {
	t.Helper()
	var re *roundError
	if !errors.As(err, &re) || !slices.Contains(policy.Failures, re.failure) {
		t.Fatalf("error %v (%T) is not a round error of a known class", err, err)
	}
	assertFuzzSafe(t, "round error", re.msg)
}

// The order a server lists its requests in is the order they are read in,
// keys exactly as sent (escapes decoded, case kept).
func TestInputRequestsKeepTheServersOrder(t *testing.T) {
	t.Parallel()
	raw := `{"resultType":"input_required","inputRequests":{"zulu":{"method":"roots/list"},"Alpha":{"method":"roots/list"},"alpha":{"method":"roots/list"},"m\u0069ke":{"method":"roots/list","params":null}}}`
	ir, err := parseInputRequired(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, r := range ir.requests {
		keys = append(keys, r.key)
	}
	if !slices.Equal(keys, []string{"zulu", "Alpha", "alpha", "mike"}) || ir.hasState {
		t.Errorf("keys %q, state %v", keys, ir.hasState)
	}
	// A key spelled with escapes still counts, the shortcut included.
	if more, err := needsInput(json.RawMessage(`{"result\u0054ype":"input_required","requestState":"s"}`)); !more || err != nil {
		t.Errorf("an escaped resultType: %v %v", more, err)
	}
	// Keys are matched exactly: a differently cased one is another key.
	if more, err := needsInput(json.RawMessage(`{"ResultType":"input_required","content":[]}`)); more || err != nil {
		t.Errorf("ResultType taken for resultType: %v %v", more, err)
	}
	if _, err := needsInput(json.RawMessage(`{"resultType":"complete","resultType":"input_required"}`)); err == nil || !strings.Contains(err.Error(), "gives resultType twice") {
		t.Errorf("a resultType given twice: %v", err)
	}
}
