package client

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// testLineConn is a lineConn over a server that writes lines.
func testLineConn(t *testing.T, lines ...string) (*lineConn, *lockedBuffer) {
	t.Helper()
	r, w := io.Pipe()
	go func() {
		for _, l := range lines {
			io.WriteString(w, l+"\n")
		}
	}()
	out := &lockedBuffer{}
	c := newLineConn(newStdoutReader(r, newTap(), nil), out, func() error { r.Close(); return w.Close() })
	t.Cleanup(func() { c.Close() })
	return c, out
}

func readMsg(t *testing.T, c *lineConn) jsonrpc.Message {
	t.Helper()
	m, err := c.Read(context.Background())
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	return m
}

// The answers to a batch's requests leave together, in the order of the
// requests, once the last is answered: nothing leaves before.
func TestBatchAnswersLeaveTogetherInOrder(t *testing.T) {
	t.Parallel()
	c, out := testLineConn(t, `[{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","method":"notifications/progress"},{"jsonrpc":"2.0","id":7,"method":"roots/list"}]`)
	a := readMsg(t, c).(*jsonrpc.Request)
	readMsg(t, c) // the notification
	b := readMsg(t, c).(*jsonrpc.Request)
	ctx := context.Background()
	if err := c.Write(ctx, &jsonrpc.Response{ID: b.ID, Result: []byte(`{"roots":[]}`)}); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "" {
		t.Fatalf("an answer left before the batch was answered: %q", got)
	}
	if err := c.Write(ctx, &jsonrpc.Response{ID: a.ID, Result: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	want := `[{"jsonrpc":"2.0","id":"a","result":{}},{"jsonrpc":"2.0","id":7,"result":{"roots":[]}}]` + "\n"
	if got := out.String(); got != want {
		t.Fatalf("wrote %q\nwant  %q", got, want)
	}
	// An answer to a request outside any batch leaves alone, at once.
	if err := c.Write(ctx, &jsonrpc.Response{ID: a.ID, Result: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); !strings.HasSuffix(got, "]\n"+`{"jsonrpc":"2.0","id":"a","result":{}}`+"\n") {
		t.Fatalf("a lone answer: %q", got)
	}
}

// A hostile batch (empty, or repeating a request ID) ends the session with
// an error that says so, as go-sdk's connection did.
func TestBadBatchesEndTheSession(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ line, want string }{
		{`[]`, "empty batch"},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":1,"method":"ping"}]`, "repeats the request ID 1"},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"},5]`, "unmarshaling jsonrpc message"},
		{"[" + strings.Repeat(`{"jsonrpc":"2.0","method":"notifications/progress"},`, maxBatch) + `{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
			"a batch of 10001 messages, more than the 10000 mcpsh reads"},
	} {
		conn, _ := testLineConn(t, c.line)
		_, err := conn.Read(context.Background())
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.80s: got %v, want an error with %q", c.line, err, c.want)
		}
	}
}

// Close ends a Read that waits for a server that says nothing.
func TestCloseEndsAWaitingRead(t *testing.T) {
	t.Parallel()
	c, _ := testLineConn(t)
	done := make(chan error, 1)
	go func() {
		_, err := c.Read(context.Background())
		done <- err
	}()
	c.Close()
	select {
	case err := <-done:
		if err != io.EOF {
			t.Fatalf("read after close: %v, want EOF", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close left Read waiting")
	}
}
