package client

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
)

// A stdio server that dies while idle is said to have ended, with how, by
// an event (a view shows the server ended rather than its tools); a session
// mcpsh closes itself says nothing of the kind.
func TestAServerThatDiesIsSaidToHaveEnded(t *testing.T) {
	t.Parallel()
	target, state := fixtureTarget(t, "proxy")
	s, err := Connect(context.Background(), target, &Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	pids := fixture.Lines(state, "pids")
	pid, _ := strconv.Atoi(pids[len(pids)-1])
	p, err := os.FindProcess(pid)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Kill(); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(15 * time.Second) // a hang guard, not a speed check
	for {
		select {
		case e := <-s.Events():
			if e.Kind != EventEnded {
				continue
			}
			if !strings.Contains(e.Text, "the server was ended by a signal") {
				t.Fatalf("ended: %q", e.Text)
			}
			return
		case <-deadline:
			t.Fatal("no event said the server ended")
		}
	}
}
