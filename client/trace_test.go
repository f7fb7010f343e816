package client

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/policy"
)

func TestTraceSeesEveryMessageWithLatency(t *testing.T) {
	t.Parallel()
	url, _ := fixtureHTTP(t, "redeclare", fixture.HTTPOptions{SSE: true})
	stdio, _ := fixtureTarget(t, "redeclare")
	for _, target := range []Target{stdio, httpTarget(url)} {
		var mu sync.Mutex
		var got []TraceEntry
		s := connectFixture(t, target, &Options{ProtocolVersion: "2025-11-25", Trace: func(e TraceEntry) { mu.Lock(); got = append(got, e); mu.Unlock() }})
		s.Do(context.Background(), &Call{Tool: mustTool(t, s, "trigger"), Mode: policy.Batch})
		mu.Lock()
		var seen []string
		var callLatency float64
		for _, e := range got {
			seen = append(seen, e.Dir+" "+e.Kind+" "+e.Method)
			if e.Kind == "response" && e.Method == "tools/call" {
				callLatency = e.LatencyMS
			}
			if e.Size != len(e.Message) || e.Server == "" {
				t.Errorf("%s: entry %+v", target.Kind, e)
			}
		}
		mu.Unlock()
		all := strings.Join(seen, "\n")
		for _, want := range []string{"out request initialize", "in response initialize", "out notification notifications/initialized",
			"out request tools/list", "out request tools/call", "in notification notifications/tools/list_changed", "in response tools/call"} {
			if !strings.Contains(all, want) {
				t.Errorf("%s: trace lacks %q:\n%s", target.Kind, want, all)
			}
		}
		if callLatency <= 0 {
			t.Errorf("%s: no latency on the tools/call response", target.Kind)
		}
	}
}

// A server's method names and IDs may be a megabyte each: a trace entry
// keeps them cut (the message itself keeps them whole, for --trace).
func TestTraceCutsLongMethodsAndIDs(t *testing.T) {
	t.Parallel()
	target, _ := fixtureTarget(t, "long-fields")
	var mu sync.Mutex
	var got []TraceEntry
	s := connectFixture(t, target, &Options{ProtocolVersion: "2025-11-25", Trace: func(e TraceEntry) { mu.Lock(); got = append(got, e); mu.Unlock() }})
	s.Do(context.Background(), &Call{Tool: mustTool(t, s, "chatter"), Mode: policy.Batch})
	mu.Lock()
	defer mu.Unlock()
	longMethod, longID := false, false
	for _, e := range got {
		if len(e.Method) > 1024 || len(e.ID) > 1024 {
			t.Errorf("%s %s: method of %d bytes, ID of %d", e.Dir, e.Kind, len(e.Method), len(e.ID))
		}
		longMethod = longMethod || strings.HasPrefix(e.Method, "notifications/mmm") && strings.HasSuffix(e.Method, "…")
		longID = longID || e.Kind == "request" && strings.HasPrefix(e.ID, `"mmm`) && strings.HasSuffix(e.ID, "…")
	}
	if !longMethod || !longID {
		t.Errorf("the long method (%v) or the long ID (%v) was not traced", longMethod, longID)
	}
}
