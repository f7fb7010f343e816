package client

import (
	"context"
	"errors"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/policy"
)

// A session that only lists opens no subscriptions/listen stream at
// 2026-07-28, and one that may call does. The server reads everything sent
// before it exits, and Close waits for that exit, so its notes are complete.
func TestListOnlySessionOpensNoListenStream(t *testing.T) {
	t.Parallel()
	for _, listOnly := range []bool{true, false} {
		target, state := fixtureTarget(t, "listen")
		s, err := Connect(context.Background(), target, &Options{ProtocolVersion: "2026-07-28", ListOnly: listOnly})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.ListTools(context.Background()); err != nil {
			t.Fatal(err)
		}
		s.Close()
		want := 1
		if listOnly {
			want = 0
		}
		if got := len(fixture.Lines(state, "listens")); got != want {
			t.Errorf("ListOnly %v: the server read %d subscriptions/listen, want %d", listOnly, got, want)
		}
	}
}

// A session that does not hear the server's list changes cannot know its
// listing is current, so it sends no call.
func TestListOnlySessionMakesNoCall(t *testing.T) {
	t.Parallel()
	target, state := fixtureTarget(t, "listen")
	s := connectFixture(t, target, &Options{ProtocolVersion: "2026-07-28", ListOnly: true})
	o, err := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "get_thing"), Mode: policy.Batch, Preapproved: true})
	var ue *UsageError
	if !errors.As(err, &ue) || o != nil {
		t.Fatalf("Do on a session that only lists: outcome %+v, error %v; want a usage error", o, err)
	}
	s.Close()
	if n := fixture.CountIn(state, "executions", "get_thing"); n != 0 {
		t.Errorf("get_thing reached the server %d times", n)
	}
}
