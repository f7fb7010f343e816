package client

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestCloseEndsTheWholeProcessGroup(t *testing.T) {
	s, err := Connect(context.Background(), fakeTarget(t, "spawn"), nil)
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	deadline := time.Now().Add(2 * time.Second)
	for pid == 0 && time.Now().Before(deadline) {
		if m := regexp.MustCompile(`child pid (\d+)`).FindStringSubmatch(strings.Join(s.StderrTail(10), "\n")); m != nil {
			pid, _ = strconv.Atoi(m[1])
		}
		time.Sleep(10 * time.Millisecond)
	}
	if pid == 0 {
		t.Fatalf("the fake server did not report its child; stderr: %q", s.StderrTail(10))
	}
	if waitGone(pid, 50*time.Millisecond) {
		t.Fatal("the grandchild died before Close: the test proves nothing")
	}
	start := time.Now()
	s.Close()
	if !waitGone(pid, 3*time.Second) {
		t.Fatalf("grandchild %d survived Close", pid)
	}
	t.Logf("Close took %v", time.Since(start))
}

func TestConnectFailureSaysWhatTheServerSaid(t *testing.T) {
	_, err := Connect(context.Background(), fakeTarget(t, "exit-early"), nil)
	var ce *ConnectError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want a ConnectError", err)
	}
	msg := err.Error()
	for _, want := range []string{"fake-exit-early", "exit status 1", "fatal: missing API key"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
}

func TestConnectTimesOutOnASilentServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := Connect(ctx, fakeTarget(t, "hang-init"), nil)
	if err == nil || !strings.Contains(err.Error(), "did not finish the handshake in time") {
		t.Fatalf("err = %v", err)
	}
}

func TestMissingCommand(t *testing.T) {
	_, err := Connect(context.Background(), Target{Kind: KindStdio, Command: "/nonexistent/mcp-server"}, nil)
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/mcp-server") {
		t.Fatalf("err = %v", err)
	}
}
