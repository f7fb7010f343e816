package client

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/policy"
)

// A stdio server may send a JSON-RPC batch: one line holding an array. Every
// message in it is read (here a ping for mcpsh, a notification and the
// answer to the call), and mcpsh's answers to the requests in it leave as one
// array once all of them are answered, as JSON-RPC asks. go-sdk v1.8.0's
// stdio connection counted the notification as a request still to answer, so
// the answer to the ping never left (lineconn.go).
func TestBatchFromAStdioServer(t *testing.T) {
	t.Parallel()
	target, state := fixtureTarget(t, "batch")
	s := connectFixture(t, target, nil)
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "read"), Mode: policy.Batch})
	if o.Status != StatusOK || o.Result == nil || len(o.Result.Content) != 1 || o.Result.Content[0].Text != "batched" {
		t.Fatalf("call answered in a batch: %s %q %+v", o.Status, o.Error, o.Result)
	}
	waitFor(t, "mcpsh's answer to the batched ping", func() bool { return len(fixture.Lines(state, "batches")) > 0 })
	batches := fixture.Lines(state, "batches")
	var answers []struct {
		ID     string          `json:"id"`
		Result json.RawMessage `json:"result"`
	}
	if len(batches) != 1 || json.Unmarshal([]byte(batches[0]), &answers) != nil ||
		len(answers) != 1 || answers[0].ID != "srv-ping" || strings.TrimSpace(string(answers[0].Result)) != "{}" {
		t.Fatalf("the server got %q; want one array answering srv-ping", batches)
	}
	// The session goes on after the batch.
	if o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "write"), Mode: policy.Batch}); o.Status != StatusOK {
		t.Fatalf("call after the batch: %s %q", o.Status, o.Error)
	}
}
