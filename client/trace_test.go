package client

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/mcpsh/mcpsh/internal/fixture"
	"github.com/mcpsh/mcpsh/policy"
)

func TestTraceSeesEveryMessageWithLatency(t *testing.T) {
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
