package client

import (
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
)

// failingTransport fails every request with err, as net/http would.
type failingTransport struct{ err error }

func (f failingTransport) RoundTrip(*http.Request) (*http.Response, error) { return nil, f.err }

// TestTapKnowsWhichTransportErrorsNeverLeft: a request that could not connect,
// or was put on a pooled connection the server had already closed (net/http's
// unexported errServerClosedIdle, which it returns for a POST instead of
// retrying it), cannot have run; any other transport error may have.
func TestTapKnowsWhichTransportErrorsNeverLeft(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		err  error
		sent bool
	}{
		{&net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}, false},
		{errors.New("http: server closed idle connection"), false},
		{io.ErrUnexpectedEOF, true},
		{&net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}, true},
	} {
		tp := newTap()
		h := newHTTPTap("http://127.0.0.1:1/mcp", nil, tp, nil)
		h.base = failingTransport{c.err}
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","_meta":{"progressToken":"mcpsh-1"}}}`
		req, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1:1/mcp", strings.NewReader(body))
		h.RoundTrip(req)
		if got := tp.wireOf("mcpsh-1").sent; got != c.sent {
			t.Errorf("%v: sent %v, want %v", c.err, got, c.sent)
		}
	}
}
