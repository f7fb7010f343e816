package client

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestConnectFailureSaysWhatTheServerSaid(t *testing.T) {
	t.Parallel()
	_, err := Connect(context.Background(), fakeTarget(t, "exit-early"), nil)
	var ce *ConnectError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want a ConnectError", err)
	}
	msg := err.Error()
	for _, want := range []string{"fake-exit-early", "exited with status 1", "fatal: missing API key"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
}

func TestConnectTimesOutOnASilentServer(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := Connect(ctx, fakeTarget(t, "hang-init"), nil)
	if err == nil || !strings.Contains(err.Error(), "did not finish the handshake in time") {
		t.Fatalf("err = %v", err)
	}
}

func TestMissingCommand(t *testing.T) {
	t.Parallel()
	_, err := Connect(context.Background(), Target{Kind: KindStdio, Command: "/nonexistent/mcp-server"}, nil)
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/mcp-server") {
		t.Fatalf("err = %v", err)
	}
}
