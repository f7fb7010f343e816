package ui

import (
	"context"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/policy"
)

// A session replaced by R, or closed on quit, ends the wait for its events:
// the goroutine and the session it holds do not outlive it.
func TestWaitEventEndsWhenTheSessionCloses(t *testing.T) {
	target := client.Target{Kind: client.KindInProcess, InProcess: demo.New().MCP(), Trust: policy.Trusted}
	s, err := client.Connect(context.Background(), target, nil)
	if err != nil {
		t.Fatal(err)
	}
	cmd := waitEvent(s)
	got := make(chan any, 1)
	go func() { got <- cmd() }()
	s.Close()
	select {
	case msg := <-got:
		if _, ok := msg.(eventsClosedMsg); !ok {
			t.Fatalf("got %T, want eventsClosedMsg", msg)
		}
	case <-time.After(patience): // a hang guard, not a timing assertion
		t.Fatal("the wait for events outlived the closed session")
	}
}
